"""OpenDocument spreadsheets (ODS) and presentations (ODP) read from their content.xml with
lxml (entities never resolved, no DTD, no network): a sheet per page with its cells and their
spans (repeated rows and columns unfolded up to the sheet's last value), a slide per page with
its title, outline lists, text, tables, pictures and speaker notes. (ODT, a text document,
goes through pandoc with DOCX: engine/office/word.py.)"""

from __future__ import annotations

import zipfile
from pathlib import Path

from engine.office.model import PICTURE, Cell, OfficeDocument, OfficePage, Part, joined, \
    office_table, painted_head
from engine.office.sheets import MAX_SHEET_CELLS

NS = {"office": "urn:oasis:names:tc:opendocument:xmlns:office:1.0",
      "table": "urn:oasis:names:tc:opendocument:xmlns:table:1.0",
      "text": "urn:oasis:names:tc:opendocument:xmlns:text:1.0",
      "draw": "urn:oasis:names:tc:opendocument:xmlns:drawing:1.0",
      "presentation": "urn:oasis:names:tc:opendocument:xmlns:presentation:1.0",
      "xlink": "http://www.w3.org/1999/xlink",
      "style": "urn:oasis:names:tc:opendocument:xmlns:style:1.0",
      "fo": "urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0",
      "loext": "urn:org:documentfoundation:names:experimental:office:xmlns:loext:1.0"}
# A repeat count past this is the format's way of saying "to the end of the sheet": only the
# rows and columns up to the last value are unfolded.
MAX_REPEAT = 10_000
_SPACES = {f"{{{NS['text']}}}{name}" for name in ("s", "tab", "line-break")}


def _q(name: str) -> str:
    prefix, local = name.split(":")
    return f"{{{NS[prefix]}}}{local}"


def _content(path: Path):
    from lxml import etree

    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False,
                             huge_tree=False)
    with zipfile.ZipFile(path) as archive:
        return etree.fromstring(archive.read("content.xml"), parser)


def _text(element) -> str:
    """An element's text as a person reads it: text:s spaces, tabs and line breaks as spaces
    (nesting is bounded by the container's screening, engine/office/container.py)."""
    pieces: list[str] = []

    def walk(node) -> None:
        if node.text:
            pieces.append(node.text)
        for child in node:
            if child.tag in _SPACES:
                pieces.append(" ")
            walk(child)
            if child.tail:
                pieces.append(child.tail)

    walk(element)
    return joined(pieces)


def read_spreadsheet(path: Path) -> OfficeDocument:
    root = _content(path)
    pages = []
    for sheet in root.iter(_q("table:table")):
        name = sheet.get(_q("table:name"), "")
        rows = _sheet_rows(sheet)
        parts = [Part("section_header", name, level=1)]
        if rows:
            parts.append(Part("table", table=office_table(rows)))
        pages.append(OfficePage(tuple(parts), title=name))
    return OfficeDocument("ods", tuple(pages))


def _sheet_rows(sheet) -> list[list[Cell]]:
    grid: list[list[Cell | None]] = []
    for row in sheet.iter(_q("table:table-row")):
        repeat = int(row.get(_q("table:number-rows-repeated"), "1"))
        cells: list[Cell | None] = []
        for cell in row:
            count = min(int(cell.get(_q("table:number-columns-repeated"), "1")), MAX_REPEAT)
            if cell.tag == _q("table:covered-table-cell"):
                cells.extend([None] * count)
                continue
            text = " ".join(_text(p) for p in cell.iter(_q("text:p")))
            made = Cell(joined([text]), int(cell.get(_q("table:number-rows-spanned"), "1")),
                        int(cell.get(_q("table:number-columns-spanned"), "1")))
            cells.extend([made] * count)
            if len(cells) > MAX_SHEET_CELLS:
                break
        for _ in range(min(repeat, MAX_REPEAT)):
            grid.append(list(cells))
            if len(grid) * max(len(cells), 1) > MAX_SHEET_CELLS:
                break
    used = [i for i, r in enumerate(grid) if any(c is not None and (c.text or c.rowspan > 1
                                                                    or c.colspan > 1) for c in r)]
    if not used:
        return []
    width = max(max((j + 1 for j, c in enumerate(r) if c is not None and c.text), default=0)
                for r in grid)
    width = max(width, max((j + c.colspan for r in grid for j, c in enumerate(r)
                            if c is not None and c.colspan > 1), default=0))
    return [[c for c in r[:width] if c is not None] for r in grid[:used[-1] + 1]]


def read_presentation_odp(path: Path) -> OfficeDocument:
    root = _content(path)
    fills = _cell_fills(root)
    pages = []
    for number, slide in enumerate(root.iter(_q("draw:page")), start=1):
        parts: list[Part] = []
        notes = slide.find(_q("presentation:notes"))
        for frame in slide.iter(_q("draw:frame")):
            if notes is not None and frame in notes.iter(_q("draw:frame")):
                continue
            parts.extend(_frame_parts(frame, number == 1, fills))
        title = next((p.text for p in parts if p.kind in ("title", "section_header")), "")
        if notes is not None:  # the notes frame alone (not the page-number field beside it)
            text = joined([" ".join(_text(p) for frame in notes.iter(_q("draw:frame"))
                                    if frame.get(_q("presentation:class")) == "notes"
                                    for p in frame.iter(_q("text:p")))])
            if text:
                parts.append(Part("footnote", text))
        pages.append(OfficePage(tuple(parts), title=title, width_pt=720.0, height_pt=540.0))
    return OfficeDocument("odp", tuple(pages))


def _cell_fills(root) -> dict[str, str]:
    """Cell style name -> its solid fill colour, from the automatic styles."""
    fills = {}
    for style in root.iter(_q("style:style")):
        if style.get(_q("style:family")) != "table-cell":
            continue
        colour = ""
        graphic = style.find(_q("loext:graphic-properties"))
        if graphic is not None and graphic.get(_q("draw:fill")) == "solid":
            colour = graphic.get(_q("draw:fill-color"), "")
        cell = style.find(_q("style:table-cell-properties"))
        if not colour and cell is not None:
            colour = cell.get(_q("fo:background-color"), "").replace("transparent", "")
        fills[style.get(_q("style:name"), "")] = colour
    return fills


def _slide_table(table, fills: dict[str, str]) -> Part:
    """A slide's table; its first row the head when the table's template says so, or when it
    is painted as one (engine/office/model.py, painted_head)."""
    rows = _sheet_rows(table)
    header = 1 if table.get(_q("table:use-first-row-styles")) == "true" else 0
    if not header:
        painted = []
        for row in table.iter(_q("table:table-row")):
            default = row.get(_q("table:default-cell-style-name"), "")
            painted.append([fills.get(cell.get(_q("table:style-name"), default), "")
                            for cell in row if cell.tag == _q("table:table-cell")])
        header = painted_head(painted)
    return Part("table", table=office_table(rows, header))


def _frame_parts(frame, first_slide: bool, fills: dict[str, str]) -> list[Part]:
    role = frame.get(_q("presentation:class"), "")
    table = frame.find(_q("table:table"))
    if table is not None:
        return [_slide_table(table, fills)]
    image = frame.find(_q("draw:image"))
    box = frame.find(_q("draw:text-box"))
    if image is not None and (box is None or not _text(box)):
        href = image.get(_q("xlink:href"), "")
        return [Part(PICTURE, picture=href)] if href and "://" not in href else []
    if box is None:
        return []
    if role == "title":
        text = _text(box)
        return [Part("title" if first_slide else "section_header", text,
                     level=1 if first_slide else 2)] if text else []
    parts = []
    for paragraph in box.iter(_q("text:p"), _q("text:h")):
        text = _text(paragraph)
        if not text:
            continue
        depth = sum(1 for a in paragraph.iterancestors(_q("text:list")))
        if depth and role != "subtitle":
            parts.append(Part("list_item", text, level=depth - 1))
        else:
            parts.append(Part("text", text))
    return parts
