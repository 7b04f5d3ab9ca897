"""A page Paperlens read, as OCRmyPDF's OcrElement tree: the page's blocks in reading order as
paragraphs, their lines (a table's in the order of its cells), each line's words on the pixels
they were read from, all in the pixels of the image OCRmyPDF gave (pure geometry)."""

from __future__ import annotations

from ocrmypdf.models.ocr_element import BoundingBox, OcrClass, OcrElement

from engine.api import Block, BlockKind, Box, Line, PageResult, table_lines

LINE_CLASSES = {BlockKind.HEADER: OcrClass.HEADER, BlockKind.FOOTER: OcrClass.FOOTER,
                BlockKind.CAPTION: OcrClass.CAPTION}


def page_tree(page: PageResult, image_size: tuple[int, int], dpi: float,
              page_number: int) -> OcrElement:
    """`image_size` (width, height) of the image the page was read from: the boxes, in the
    page's analysed pixels (turned by `page.rotation`, perhaps scaled), are laid back on it."""
    to_image = _Placement(page, image_size)
    width, height = image_size
    root = OcrElement(ocr_class=OcrClass.PAGE, bbox=BoundingBox(0, 0, width, height), dpi=dpi,
                      page_number=page_number)
    for block in page.blocks:
        lines = [line for line in _block_lines(block) if line.text.strip()]
        if not lines:
            continue
        paragraph = OcrElement(ocr_class=OcrClass.PARAGRAPH, bbox=to_image.box(block.box))
        for line in lines:
            paragraph.children.append(_line(line, LINE_CLASSES.get(block.kind, OcrClass.LINE),
                                            to_image))
        root.children.append(paragraph)
    return root


def page_text(tree: OcrElement) -> str:
    """The sidecar text: one line per line, a blank line between paragraphs."""
    return "\n\n".join("\n".join(line.get_text_recursive() for line in paragraph.lines)
                       for paragraph in tree.paragraphs) + "\n"


def _block_lines(block: Block) -> list[Line]:
    if block.kind is BlockKind.TABLE and block.html:
        return table_lines(block.html, block.lines)
    return list(block.lines)


def _line(line: Line, ocr_class: str, to_image: "_Placement") -> OcrElement:
    element = OcrElement(ocr_class=ocr_class, bbox=to_image.box(line.box),
                         confidence=float(line.score))
    words = [(word.text, word.box) for word in line.words if word.text.strip()]
    if not words:  # no word boxes known: the line as one word over its box
        words = [(line.text.strip(), line.box)]
    for text, box in words:
        element.children.append(OcrElement(ocr_class=OcrClass.WORD, text=text,
                                           bbox=to_image.box(box),
                                           confidence=float(line.score)))
    return element


class _Placement:
    """Analysed page pixels -> the given image's pixels: the quarter turns the reader made
    undone (as the searchable PDF undoes them), then scaled onto the image."""

    def __init__(self, page: PageResult, image_size: tuple[int, int]) -> None:
        self.turn = page.rotation % 360
        self.width, self.height = page.width, page.height
        original = (self.height, self.width) if self.turn in (90, 270) else (self.width,
                                                                           self.height)
        self.scale_x = image_size[0] / max(original[0], 1)
        self.scale_y = image_size[1] / max(original[1], 1)

    def point(self, x: float, y: float) -> tuple[float, float]:
        if self.turn == 90:     # turned clockwise: a pixel (x, y) was at (y, W - x)
            x, y = y, self.width - x
        elif self.turn == 180:
            x, y = self.width - x, self.height - y
        elif self.turn == 270:  # turned counter-clockwise: a pixel (x, y) was at (H - y, x)
            x, y = self.height - y, x
        return x * self.scale_x, y * self.scale_y

    def box(self, box: Box) -> BoundingBox:
        (ax, ay), (bx, by) = self.point(box.x0, box.y0), self.point(box.x1, box.y1)
        return BoundingBox(min(ax, bx), min(ay, by), max(ax, bx), max(ay, by))
