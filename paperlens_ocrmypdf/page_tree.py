"""A page Paperlens read, as OCRmyPDF's OcrElement tree: the page's blocks in reading order as
paragraphs, their lines (a table's in the order of its cells), each line's words on the pixels
they were read from, all in the pixels of the image OCRmyPDF gave (pure geometry)."""

from __future__ import annotations

from ocrmypdf.models.ocr_element import BoundingBox, OcrClass, OcrElement

from engine.api import BlockKind, Box, InputPixels, Line, PageResult, block_lines, words_of

LINE_CLASSES = {BlockKind.HEADER: OcrClass.HEADER, BlockKind.FOOTER: OcrClass.FOOTER,
                BlockKind.CAPTION: OcrClass.CAPTION}


def page_tree(page: PageResult, image_size: tuple[int, int], dpi: float,
              page_number: int) -> OcrElement:
    """`image_size` (width, height) of the image the page was read from: the boxes, in the
    page's analysed pixels (turned by `page.rotation`, perhaps scaled), are laid back on it."""
    to_image = InputPixels(page, image_size)
    width, height = image_size
    root = OcrElement(ocr_class=OcrClass.PAGE, bbox=BoundingBox(0, 0, width, height), dpi=dpi,
                      page_number=page_number)
    for block in page.blocks:
        lines = [line for line in block_lines(block) if line.text.strip()]
        if not lines:
            continue
        paragraph = OcrElement(ocr_class=OcrClass.PARAGRAPH, bbox=_bbox(to_image.box(block.box)))
        for line in lines:
            paragraph.children.append(_line(line, LINE_CLASSES.get(block.kind, OcrClass.LINE),
                                            to_image))
        root.children.append(paragraph)
    return root


def page_text(tree: OcrElement) -> str:
    """The sidecar text: one line per line, a blank line between paragraphs."""
    return "\n\n".join("\n".join(line.get_text_recursive() for line in paragraph.lines)
                       for paragraph in tree.paragraphs) + "\n"


def _line(line: Line, ocr_class: str, to_image: InputPixels) -> OcrElement:
    # On a page the reader turned a quarter or half turn clockwise, the line runs at that angle
    # counter-clockwise on the image OCRmyPDF keeps (hOCR's textangle): laid so, a PDF reader
    # gives its words back in order, not backwards.
    element = OcrElement(ocr_class=ocr_class, bbox=_bbox(to_image.box(line.box)),
                         confidence=float(line.score), textangle=float(to_image.turn) or None)
    for placed in words_of(line):
        if placed.text.strip():
            element.children.append(OcrElement(ocr_class=OcrClass.WORD, text=placed.text,
                                               bbox=_bbox(to_image.box(placed.box)),
                                               confidence=float(placed.confidence)))
    return element


def _bbox(box: Box) -> BoundingBox:
    return BoundingBox(box.x0, box.y0, box.x1, box.y1)
