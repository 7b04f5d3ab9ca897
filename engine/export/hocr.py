"""hOCR 1.2: the document as XHTML, a div.ocr_page per converted page (`image`, `bbox`,
`ppageno` and, for rendered pages, `scan_res`), its blocks in reading order, each block's
lines (span.ocr_line) in a p.ocr_par and their words (span.ocrx_word) with `bbox` and
`x_wconf`, every box in the pixels of the page as the input holds it. A block's element says
its kind: tables are ocr_table, formulas ocr_float with their lines' words in ocr_math,
figures ocr_image, running headers and footers ocr_header and ocr_footer, the title
ocr_title, captions ocr_caption, the rest ocr_carea. Class attributes hold one class name,
as consumers such as OCRmyPDF match them whole. A paragraph or line written mostly right to
left (Arabic, Hebrew, Persian) says so with HTML's `dir="rtl"`, as Tesseract's hOCR does and
OCRmyPDF's hOCR reader takes it; its words stay in the order they are read."""

from __future__ import annotations

from pathlib import Path

from lxml import etree

from engine.export.positioned import (PositionedBlock, PositionedLine, PositionedPage,
                                      positioned_pages, xml_text)
from engine.text import right_to_left
from engine.types import BlockKind, Box, DocumentResult

XHTML_NS = "http://www.w3.org/1999/xhtml"
SOFTWARE = "Paperlens"
BLOCK_CLASSES = {BlockKind.TABLE: "ocr_table", BlockKind.FORMULA: "ocr_float",
                 BlockKind.FIGURE: "ocr_image", BlockKind.HEADER: "ocr_header",
                 BlockKind.FOOTER: "ocr_footer", BlockKind.TITLE: "ocr_title",
                 BlockKind.CAPTION: "ocr_caption"}
CAPABILITIES = ("ocr_page", "ocr_carea", "ocr_par", "ocr_line", "ocrx_word", "ocr_table",
                "ocr_float", "ocr_math", "ocr_image", "ocr_header", "ocr_footer", "ocr_title",
                "ocr_caption")


def build_hocr(result: DocumentResult) -> bytes:
    """The document as one hOCR file, as UTF-8 bytes."""
    name = xml_text(Path(result.path).name)
    html = etree.Element(_q("html"), nsmap={None: XHTML_NS})
    head = _sub(html, "head")
    _sub(head, "title").text = name
    _sub(head, "meta", {"http-equiv": "Content-Type", "content": "text/html; charset=utf-8"})
    _sub(head, "meta", {"name": "ocr-system", "content": SOFTWARE})
    _sub(head, "meta", {"name": "ocr-capabilities", "content": " ".join(CAPABILITIES)})
    _sub(head, "meta", {"name": "ocr-number-of-pages", "content": str(len(result.pages))})
    body = _sub(html, "body")
    spaced: set[etree._Element] = set()  # words a space follows in their line's text
    for page in positioned_pages(result):
        _page(body, page, name, spaced)
    etree.indent(html, space=" ")
    # A line's inside as its text has it: a space between words where the text has one and
    # nothing else (indentation there would read as spaces between CJK characters).
    for line in html.iter(_q("span")):
        if line.get("class") in ("ocr_line", "ocr_math"):
            line.text = None
            for word in line:
                word.tail = " " if word.get("class") == "ocrx_word" and word in spaced else None
    return etree.tostring(etree.ElementTree(html), xml_declaration=True, encoding="UTF-8",
                          doctype="<!DOCTYPE html>")


def _page(body: etree._Element, page: PositionedPage, name: str,
          spaced: set[etree._Element]) -> None:
    properties = [f'image "{_quoted(name)}"', f"bbox 0 0 {page.width} {page.height}",
                  f"ppageno {page.number - 1}"]
    if page.dpi:
        properties.append(f"scan_res {round(page.dpi)} {round(page.dpi)}")
    element = _sub(body, "div", {"class": "ocr_page", "id": f"page_{page.number}",
                                 "title": "; ".join(properties)})
    # hOCR has no property for which pixels a box is in beyond `image`: said in words too.
    element.set("data-coordinates", xml_text(page.space))
    for index, block in enumerate(page.blocks, 1):
        _block(element, block, f"{page.number}_{index}", spaced)


def _block(parent: etree._Element, block: PositionedBlock, block_id: str,
           spaced: set[etree._Element]) -> None:
    element = _sub(parent, "div", {"class": BLOCK_CLASSES.get(block.kind, "ocr_carea"),
                                   "id": f"block_{block_id}", "title": _bbox(block.box)})
    if not block.lines:
        return
    paragraph = _sub(element, "p", {"class": "ocr_par", "id": f"par_{block_id}",
                                    "title": _bbox(block.box)})
    if right_to_left([line.text for line in block.lines]):
        paragraph.set("dir", "rtl")
    for index, line in enumerate(block.lines, 1):
        _line(paragraph, line, f"{block_id}_{index}", block.kind is BlockKind.FORMULA, spaced)


def _line(parent: etree._Element, line: PositionedLine, line_id: str, math: bool,
          spaced: set[etree._Element]) -> None:
    element = _sub(parent, "span", {"class": "ocr_line", "id": f"line_{line_id}",
                                    "title": f"{_bbox(line.box)}; x_wconf "
                                             f"{_wconf(line.confidence)}"})
    if right_to_left([line.text]):
        element.set("dir", "rtl")
    if math:
        element = _sub(element, "span", {"class": "ocr_math", "title": _bbox(line.box)})
    for number, placed in enumerate(line.words, 1):
        word = _sub(element, "span", {"class": "ocrx_word", "id": f"word_{line_id}_{number}",
                                      "title": f"{_bbox(placed.box)}; x_wconf "
                                               f"{_wconf(placed.confidence)}"})
        word.text = xml_text(placed.text)
        if placed.spaced and number < len(line.words):
            spaced.add(word)


def _bbox(box: Box) -> str:
    x0, y0 = round(box.x0), round(box.y0)
    return f"bbox {x0} {y0} {max(round(box.x1), x0)} {max(round(box.y1), y0)}"


def _wconf(value: float) -> int:
    return round(min(max(value, 0.0), 1.0) * 100)


def _quoted(text: str) -> str:
    """A file name inside a title property's double quotes (hOCR escapes like C)."""
    return text.replace("\\", "\\\\").replace('"', '\\"')


def _q(name: str) -> str:
    return f"{{{XHTML_NS}}}{name}"


def _sub(parent: etree._Element, name: str, attributes: dict[str, str] | None = None
         ) -> etree._Element:
    return etree.SubElement(parent, _q(name), attributes or {})
