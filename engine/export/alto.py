"""ALTO 4 (schema 4.3): the document's pages, blocks in reading order, lines and words with
their boxes in the pixels of the page as the input holds it, and the words' confidences (WC).
Each page's Processing says which pixels those are; every block carries a LayoutTag of its
kind, tables, formulas and figures are ComposedBlocks of that TYPE; the ReadingOrder lists
the blocks in our reading order, which is also the order they are written in. A TextBlock or
TextLine written mostly right to left (Arabic, Hebrew, Persian) has BASEDIRECTION "rtl" (new in
ALTO 4.3); its Strings stay in the order they are read."""

from __future__ import annotations

from pathlib import Path

from lxml import etree

from engine.export.page_words import PlacedWord
from engine.export.positioned import (PositionedBlock, PositionedLine, PositionedPage,
                                      positioned_pages, xml_text)
from engine.text import right_to_left
from engine.types import BlockKind, Box, DocumentResult

ALTO_NS = "http://www.loc.gov/standards/alto/ns-v4#"
XSI_NS = "http://www.w3.org/2001/XMLSchema-instance"
SCHEMA_VERSION = "4.3"
SCHEMA_URL = "http://www.loc.gov/standards/alto/v4/alto-4-3.xsd"
SOFTWARE = "Paperlens"
# Blocks that are objects set into the text rather than running text: a ComposedBlock of
# their TYPE holds their text (and a figure's Illustration).
COMPOSED = {BlockKind.TABLE: "table", BlockKind.FORMULA: "formula", BlockKind.FIGURE: "figure"}
TAG_DESCRIPTIONS = {
    BlockKind.TITLE: "the document's title",
    BlockKind.SECTION_HEADER: "a section heading",
    BlockKind.TEXT: "running text",
    BlockKind.LIST_ITEM: "an item of a list",
    BlockKind.TABLE: "a table; its lines in the order of its cells",
    BlockKind.FORMULA: "a displayed formula",
    BlockKind.FIGURE: "a picture, chart or drawing",
    BlockKind.CAPTION: "a caption of a table or figure",
    BlockKind.HEADER: "a running header",
    BlockKind.FOOTER: "a running footer or page number",
    BlockKind.FOOTNOTE: "a footnote",
    BlockKind.REFERENCE: "an entry of a bibliography",
    BlockKind.CODE: "a code listing",
}


def build_alto(result: DocumentResult) -> bytes:
    """The document as one ALTO file, a Page per converted page, as UTF-8 bytes."""
    pages = positioned_pages(result)
    root = etree.Element(_q("alto"), nsmap={None: ALTO_NS, "xsi": XSI_NS})
    root.set(f"{{{XSI_NS}}}schemaLocation", f"{ALTO_NS} {SCHEMA_URL}")
    root.set("SCHEMAVERSION", SCHEMA_VERSION)
    _description(root, result, pages)
    kinds = [kind for kind in BlockKind if any(b.kind is kind for p in pages for b in p.blocks)]
    if kinds:
        tags = _sub(root, "Tags")
        for kind in kinds:
            _sub(tags, "LayoutTag", ID=_tag_id(kind), LABEL=kind.value,
                 DESCRIPTION=TAG_DESCRIPTIONS[kind])
    if any(page.blocks for page in pages):
        order = _sub(_sub(root, "ReadingOrder"), "OrderedGroup", ID="reading_order")
        for page in pages:
            for index, _block in enumerate(page.blocks, 1):
                block_id = _block_id(page, index)
                _sub(order, "ElementRef", ID=f"ro_{block_id}", REF=block_id)
    layout = _sub(root, "Layout")
    for page in pages:
        _page(layout, page)
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", pretty_print=True)


def _description(root: etree._Element, result: DocumentResult,
                 pages: list[PositionedPage]) -> None:
    description = _sub(root, "Description")
    _sub(description, "MeasurementUnit").text = "pixel"
    source = _sub(description, "sourceImageInformation")
    _sub(source, "fileName").text = xml_text(Path(result.path).name)
    for page in pages:
        processing = _sub(description, "Processing", ID=f"processing_p{page.number}")
        _sub(processing, "processingCategory").text = "contentGeneration"
        _sub(processing, "processingStepDescription").text = (
            "layout analysis, reading order, and text read by OCR or taken from the "
            "document's own text layer")
        _sub(processing, "processingStepSettings").text = xml_text(
            f"Coordinates: {page.space}.")
        software = _sub(processing, "processingSoftware")
        _sub(software, "softwareName").text = SOFTWARE


def _page(layout: etree._Element, page: PositionedPage) -> None:
    attributes = {"ID": f"p{page.number}", "PHYSICAL_IMG_NR": str(page.number),
                  "WIDTH": str(page.width), "HEIGHT": str(page.height),
                  "PROCESSING": f"processing_p{page.number}"}
    if page.confidence is not None:
        attributes["PC"] = _confidence(page.confidence)
    element = _sub(layout, "Page", **attributes)
    space = _sub(element, "PrintSpace", HPOS="0", VPOS="0", WIDTH=str(page.width),
                 HEIGHT=str(page.height))
    for index, block in enumerate(page.blocks, 1):
        _block(space, block, _block_id(page, index))


def _block(parent: etree._Element, block: PositionedBlock, block_id: str) -> None:
    tag = _tag_id(block.kind)
    composed_type = COMPOSED.get(block.kind)
    if composed_type is None:
        _text_block(parent, block.box, block.lines, block_id, tag)
        return
    composed = _sub(parent, "ComposedBlock", ID=block_id, **_box(block.box), TAGREFS=tag,
                    TYPE=composed_type)
    if block.kind is BlockKind.FIGURE:
        _sub(composed, "Illustration", ID=f"{block_id}_picture", **_box(block.box),
             TYPE="figure")
    if block.lines or block.kind is not BlockKind.FIGURE:
        _text_block(composed, block.box, block.lines, f"{block_id}_text", tag)


def _text_block(parent: etree._Element, box: Box, lines: tuple[PositionedLine, ...],
                block_id: str, tag: str) -> None:
    element = _sub(parent, "TextBlock", ID=block_id, **_box(box), TAGREFS=tag)
    if right_to_left([line.text for line in lines]):
        element.set("BASEDIRECTION", "rtl")
    for index, line in enumerate(lines, 1):
        line_id = f"{block_id}_l{index}"
        line_element = _sub(element, "TextLine", ID=line_id, **_box(line.box))
        if right_to_left([line.text]):
            line_element.set("BASEDIRECTION", "rtl")
        for number, placed in enumerate(line.words, 1):
            _sub(line_element, "String", ID=f"{line_id}_w{number}",
                 CONTENT=xml_text(placed.text), **_box(placed.box),
                 WC=_confidence(placed.confidence))
            following = line.words[number] if number < len(line.words) else None
            if placed.spaced and following is not None:
                _sub(line_element, "SP", **_space(placed, following))


def _space(placed: PlacedWord, following: PlacedWord) -> dict[str, str]:
    left = round(placed.box.x1)
    width = round(following.box.x0) - left
    attributes = {"HPOS": str(left), "VPOS": str(round(placed.box.y0))}
    if width > 0:
        attributes["WIDTH"] = str(width)
    return attributes


def _box(box: Box) -> dict[str, str]:
    x0, y0 = round(box.x0), round(box.y0)
    return {"HPOS": str(x0), "VPOS": str(y0), "WIDTH": str(max(round(box.x1) - x0, 0)),
            "HEIGHT": str(max(round(box.y1) - y0, 0))}


def _confidence(value: float) -> str:
    return f"{min(max(value, 0.0), 1.0):.4f}".rstrip("0").rstrip(".") or "0"


def _block_id(page: PositionedPage, index: int) -> str:
    return f"p{page.number}_b{index}"


def _tag_id(kind: BlockKind) -> str:
    return f"tag_{kind.value}"


def _q(name: str) -> str:
    return f"{{{ALTO_NS}}}{name}"


def _sub(parent: etree._Element, name: str, **attributes: str) -> etree._Element:
    return etree.SubElement(parent, _q(name), attributes)
