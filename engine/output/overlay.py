"""Layout overlay: each analysed page with its blocks drawn as boxes coloured by kind (a PDF)."""

from __future__ import annotations

import cv2
import numpy as np
import pymupdf

from engine.types import BlockKind, PageResult

# One colour per kind (RGB 0-1), chosen to stay distinguishable on white and on photos.
KIND_COLOURS: dict[BlockKind, tuple[float, float, float]] = {
    BlockKind.TITLE: (0.80, 0.10, 0.10), BlockKind.SECTION_HEADER: (0.90, 0.40, 0.00),
    BlockKind.TEXT: (0.10, 0.40, 0.85), BlockKind.LIST_ITEM: (0.00, 0.60, 0.60),
    BlockKind.TABLE: (0.10, 0.65, 0.20), BlockKind.FORMULA: (0.60, 0.20, 0.70),
    BlockKind.FIGURE: (0.85, 0.65, 0.00), BlockKind.CAPTION: (0.55, 0.35, 0.15),
    BlockKind.HEADER: (0.50, 0.50, 0.50), BlockKind.FOOTER: (0.50, 0.50, 0.50),
    BlockKind.FOOTNOTE: (0.40, 0.40, 0.70), BlockKind.REFERENCE: (0.30, 0.55, 0.35),
    BlockKind.CODE: (0.20, 0.20, 0.20),
}
# Overlay pages are drawn at this many points per pixel of the analysed image (a 200 dpi A4
# page becomes a 595-point-wide PDF page, its natural size).
POINTS_PER_PIXEL = 0.36
JPEG_QUALITY = 80


class LayoutOverlay:
    """Collects pages as they finish; `save` writes the PDF."""

    def __init__(self) -> None:
        self._doc = pymupdf.open()

    def add_page(self, image_rgb: np.ndarray, page: PageResult) -> None:
        height, width = image_rgb.shape[:2]
        pdf_page = self._doc.new_page(width=width * POINTS_PER_PIXEL,
                                      height=height * POINTS_PER_PIXEL)
        ok, jpeg = cv2.imencode(".jpg", image_rgb[:, :, ::-1],
                                [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
        if ok:
            pdf_page.insert_image(pdf_page.rect, stream=jpeg.tobytes())
        for order, block in enumerate(page.blocks, start=1):
            colour = KIND_COLOURS.get(block.kind, (0.0, 0.0, 0.0))
            rect = pymupdf.Rect(block.box.x0, block.box.y0, block.box.x1,
                                block.box.y1) * POINTS_PER_PIXEL
            pdf_page.draw_rect(rect, color=colour, width=1.2)
            pdf_page.insert_text(rect.tl + (1, -2), f"{order} {block.kind.value}", fontsize=6,
                                 color=colour)

    def save(self, path: str) -> None:
        self._doc.save(path, garbage=3, deflate=True)
        self._doc.close()

    def close(self) -> None:
        if not self._doc.is_closed:
            self._doc.close()
