"""What a text document's or a workbook's reader leaves out, found in the package and named, so
that the page says it is partial and why: a chart, a SmartArt diagram or an embedded object in
a Word document (pandoc's DOCX reader drops them without a word), a chart in an OpenDocument
text, and formula cells of a workbook saved without the values they compute (a file written
by a program that does not calculate, such as openpyxl: the cell has a formula and nothing to
show, and Paperlens never evaluates a formula). Runs after engine/office/container.py screened
the package (sizes bounded, no DTD or entity)."""

from __future__ import annotations

import posixpath
import zipfile
from collections import Counter
from pathlib import Path

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"
_WP = "{http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing}"
_O = "{urn:schemas-microsoft-com:office:office}"
_DRAWINGML = "http://schemas.openxmlformats.org/drawingml/2006/"
# What a DrawingML graphic is, by its graphicData uri, as a person names it.
_GRAPHICS = {_DRAWINGML + "chart": "chart",
             "http://schemas.microsoft.com/office/drawing/2014/chartex": "chart",
             _DRAWINGML + "diagram": "SmartArt diagram"}
_MAIN = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
_REL = "{http://schemas.openxmlformats.org/package/2006/relationships}Relationship"
_R_ID = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"
_DRAW = "{urn:oasis:names:tc:opendocument:xmlns:drawing:1.0}"
_XLINK = "{http://www.w3.org/1999/xlink}"


def _parser():
    from lxml import etree

    return etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False,
                           huge_tree=False)


def word_left_out(path: Path) -> tuple[str, ...]:
    """The charts, diagrams and embedded objects in a DOCX's body, one line each."""
    from lxml import etree

    with zipfile.ZipFile(path) as archive:
        if "word/document.xml" not in archive.namelist():
            return ()
        root = etree.fromstring(archive.read("word/document.xml"), _parser())
    found: list[str] = []
    for data in root.iter(_A + "graphicData"):
        what = _GRAPHICS.get(data.get("uri", ""))
        if what:
            found.append(f"a {what}{_drawing_name(data)} in the text is not read")
    for obj in root.iter(_W + "object"):
        ole = next(obj.iter(_O + "OLEObject"), None)
        program = ole.get("ProgID", "") if ole is not None else ""
        what = "an equation of the old Equation Editor" if program.startswith("Equation") \
            else f"an embedded object{f' ({program})' if program else ''}"
        found.append(f"{what} in the text is not read")
    return tuple(found)


def _drawing_name(data) -> str:
    """' ("Chart 1")': the name Word gave the drawing holding `data`, when it has one."""
    node = data
    while node is not None and node.tag not in (_WP + "inline", _WP + "anchor"):
        node = node.getparent()
    properties = next(node.iter(_WP + "docPr"), None) if node is not None else None
    name = properties.get("name", "") if properties is not None else ""
    return f" ({name!r})" if name else ""


def odt_left_out(path: Path) -> tuple[str, ...]:
    """The charts in an OpenDocument text (objects whose own content is a chart)."""
    from lxml import etree

    with zipfile.ZipFile(path) as archive:
        names = set(archive.namelist())
        if "content.xml" not in names:
            return ()
        root = etree.fromstring(archive.read("content.xml"), _parser())
        found = []
        for obj in root.iter(_DRAW + "object"):
            folder = posixpath.normpath(obj.get(_XLINK + "href", "").removeprefix("./"))
            content = f"{folder}/content.xml"
            if content in names and b"<office:chart" in archive.read(content):
                frame = obj.getparent()
                name = frame.get(_DRAW + "name", "") if frame is not None else ""
                found.append(f"a chart{f' ({name!r})' if name else ''} in the text is not read")
    return tuple(found)


def uncached_formulas(path: Path) -> dict[str, int]:
    """Sheet name -> how many of its formula cells hold no saved value."""
    from lxml import etree

    found: dict[str, int] = {}
    with zipfile.ZipFile(path) as archive:
        names = set(archive.namelist())
        if "xl/workbook.xml" not in names or "xl/_rels/workbook.xml.rels" not in names:
            return found
        relations = etree.fromstring(archive.read("xl/_rels/workbook.xml.rels"), _parser())
        targets = {r.get("Id"): _resolve(r.get("Target", "")) for r in relations.iter(_REL)}
        workbook = etree.fromstring(archive.read("xl/workbook.xml"), _parser())
        for sheet in workbook.iter(_MAIN + "sheet"):
            part = targets.get(sheet.get(_R_ID), "")
            if part in names:
                count = _uncached_in(archive, part)
                if count:
                    found[sheet.get("name", "")] = count
    return found


def _uncached_in(archive: zipfile.ZipFile, part: str) -> int:
    """Formula cells (`<c>` with an `<f>`) of one sheet part without a saved value (`<v>`),
    counted as the part streams by."""
    from lxml import etree

    counts: Counter[str] = Counter()
    with archive.open(part) as stream:
        for _event, cell in etree.iterparse(stream, events=("end",), tag=_MAIN + "c",
                                            resolve_entities=False, no_network=True,
                                            load_dtd=False, huge_tree=False):
            if cell.find(_MAIN + "f") is not None:
                value = cell.find(_MAIN + "v")
                # An empty value is a saved result only as a string ("" computed); a number,
                # a truth value or an error is never empty.
                if value is None or (not (value.text or "").strip()
                                     and cell.get("t") not in ("str", "inlineStr")):
                    counts["uncached"] += 1
            cell.clear()
    return counts["uncached"]


def _resolve(target: str) -> str:
    if target.startswith("/"):
        return posixpath.normpath(target.lstrip("/"))
    return posixpath.normpath(posixpath.join("xl", target))
