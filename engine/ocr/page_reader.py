"""Page OCR: detection, direction and recognition composed into lines in page pixels."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engine.imaging import crop_quad, quad_bounds
from engine.ocr.detection import TextDetector, TextRegion, sort_reading_order
from engine.ocr.direction import TextDirectionClassifier
from engine.ocr.recognition import TextRecognizer
from engine.types import Box, Line

# Lines read with less confidence than this are noise (texture, photos), not text.
MIN_LINE_SCORE = 0.5
# When most lines are upside down the whole page is: turn it and read the lines in page order.
PAGE_FLIP_SHARE = 0.6


@dataclass(frozen=True)
class OcrOutcome:
    lines: list[Line]
    page_rotated_180: bool


def rotate_regions_180(regions: list[TextRegion], height: int, width: int) -> list[TextRegion]:
    """Regions of a page turned by 180 degrees, re-ordered clockwise from the new top-left."""
    turned = []
    for region in regions:
        quad = np.empty_like(region.quad)
        quad[:, 0] = (width - 1) - region.quad[:, 0]
        quad[:, 1] = (height - 1) - region.quad[:, 1]
        turned.append(TextRegion(quad=np.roll(quad, -2, axis=0), score=region.score))
    return turned


class PageReader:
    """Runs det -> cls -> rec on a page image and returns its text lines."""

    def __init__(self, detector: TextDetector, direction: TextDirectionClassifier | None,
                 recognizer: TextRecognizer) -> None:
        self.detector = detector
        self.direction = direction
        self.recognizer = recognizer

    def read(self, image: np.ndarray) -> OcrOutcome:
        regions = self.detector.detect(image)
        if not regions:
            return OcrOutcome([], False)
        crops = [crop_quad(image, r.quad) for r in regions]
        flipped = [False] * len(crops)
        if self.direction is not None:
            turned, flipped = self.direction.upright(crops)
        rotated = sum(flipped) >= PAGE_FLIP_SHARE * len(flipped) and len(flipped) > 0
        if rotated:
            crops = turned
        # Otherwise the page is upright and so are its lines: on short lines such as "0.39"
        # the classifier is sure and wrong often enough that a lone flip does more harm.
        if rotated:
            height, width = image.shape[:2]
            regions = rotate_regions_180(regions, height, width)
            order = {id(r): i for i, r in enumerate(regions)}
            regions_sorted = sort_reading_order(regions)
            crops = [crops[order[id(r)]] for r in regions_sorted]
            regions = regions_sorted
        texts = self.recognizer.recognize(crops)
        lines = []
        for region, rec in zip(regions, texts):
            text = rec.text.strip()
            if not text or rec.score < MIN_LINE_SCORE:
                continue
            x0, y0, x1, y1 = quad_bounds(region.quad)
            lines.append(Line(text=text, box=Box(x0, y0, x1, y1), score=rec.score,
                              font_size=0.0))
        return OcrOutcome(lines, rotated)
