"""The layout page stage: regions of the page by kind, from the layout model."""

from __future__ import annotations

from dataclasses import replace

from engine.imaging import pad_on_white
from engine.page import PageState
from engine.types import Box

# Image inputs smaller than this (cropped tables, single lines) get a white margin around them
# for layout analysis: with the crop on a canvas 1.5 times its size all 10 PubTabNet crops of
# the dev set are found as tables (8 of 10 without).
SMALL_IMAGE_PX = 1200
SMALL_IMAGE_MARGIN_FACTOR = 1.5


def detect_layout(page: PageState, models) -> PageState:
    if page.options.layout_model is None:
        return page
    detector = models.layout_detector(page.options.layout_model)
    image, ox, oy = page.image, 0, 0
    if not page.document.kind.is_paged and max(image.shape[:2]) < SMALL_IMAGE_PX:
        # A cropped table or text line has no page margins; the layout models were trained on
        # whole pages and miss such crops (2 of 10 PubTabNet crops) unless given some margin.
        image, ox, oy = pad_on_white(image, SMALL_IMAGE_MARGIN_FACTOR)
    height, width = page.image.shape[:2]
    regions = []
    for region in detector.detect(image):
        box = Box(max(0.0, region.box.x0 - ox), max(0.0, region.box.y0 - oy),
                  min(float(width), region.box.x1 - ox), min(float(height), region.box.y1 - oy))
        if box.width > 0 and box.height > 0:
            regions.append(replace(region, box=box))
    return replace(page, regions=tuple(regions))
