"""Headings that Word knows by their outline level alone (a custom "Chapter" style with an
outline level, or a paragraph given one directly), which pandoc's reader, going by style
names, would read as body text: a copy of the DOCX in which such styles are named
"heading N" and such paragraphs take a heading style of that level."""

from __future__ import annotations

import zipfile
from pathlib import Path

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
# Outline levels 0-8 are heading levels 1-9; 9 is body text.
MAX_OUTLINE = 8
STYLE_PREFIX = "PaperlensOutline"


def _w(name: str) -> str:
    return f"{{{W}}}{name}"


def _parse(data: bytes):
    from lxml import etree

    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False,
                             huge_tree=False)
    return etree.fromstring(data, parser)


def _level(properties) -> int | None:
    outline = properties.find(_w("outlineLvl")) if properties is not None else None
    if outline is None:
        return None
    try:
        value = int(outline.get(_w("val"), "9"))
    except ValueError:
        return None
    return value + 1 if 0 <= value <= MAX_OUTLINE else None


def with_outline_headings(path: Path, folder: Path) -> Path | None:
    """A copy of `path` in `folder` with outline levels made heading styles, or None when the
    document has none that pandoc would miss."""
    from lxml import etree

    with zipfile.ZipFile(path) as archive:
        names = set(archive.namelist())
        if "word/document.xml" not in names or "word/styles.xml" not in names:
            return None
        document_xml = archive.read("word/document.xml")
        styles_xml = archive.read("word/styles.xml")
        if b"outlineLvl" not in document_xml and b"outlineLvl" not in styles_xml:
            return None
        styles, document = _parse(styles_xml), _parse(document_xml)
        changed = False
        for style in styles.iter(_w("style")):
            level = _level(style.find(_w("pPr")))
            name = style.find(_w("name"))
            if level is None or name is None or \
                    name.get(_w("val"), "").lower().startswith("heading"):
                continue
            name.set(_w("val"), f"heading {level}")
            changed = True
        added: set[int] = set()
        for paragraph_properties in document.iter(_w("pPr")):
            level = _level(paragraph_properties)
            if level is None:
                continue
            style = paragraph_properties.find(_w("pStyle"))
            if style is None:
                style = etree.Element(_w("pStyle"))
                paragraph_properties.insert(0, style)
            style.set(_w("val"), f"{STYLE_PREFIX}{level}")
            added.add(level)
            changed = True
        for level in sorted(added):
            style = etree.SubElement(styles, _w("style"))
            style.set(_w("type"), "paragraph")
            style.set(_w("styleId"), f"{STYLE_PREFIX}{level}")
            etree.SubElement(style, _w("name")).set(_w("val"), f"heading {level}")
        if not changed:
            return None
        copy = folder / "outlined.docx"
        with zipfile.ZipFile(copy, "w", zipfile.ZIP_DEFLATED) as out:
            for info in archive.infolist():
                if info.filename == "word/document.xml":
                    out.writestr(info.filename, etree.tostring(document, xml_declaration=True,
                                                               encoding="UTF-8", standalone=True))
                elif info.filename == "word/styles.xml":
                    out.writestr(info.filename, etree.tostring(styles, xml_declaration=True,
                                                               encoding="UTF-8", standalone=True))
                else:
                    out.writestr(info, archive.read(info))
    return copy
