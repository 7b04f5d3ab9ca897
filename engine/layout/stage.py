"""The layout page stage: regions of the page by kind, from the layout model."""

from __future__ import annotations

from dataclasses import replace

from engine.imaging import pad_on_white
from engine.page import PageState
from engine.types import Box

# Image inputs smaller than this (cropped tables, single lines) get a white margin around them
# for layout analysis: the layout models were trained on whole pages. Chosen on generated crops
# (python -m tools.small_images, 160 per seed, half of them tables; docs/results/small_images.json)
# and the dev set's 26 image inputs: table crops found as tables, seed 1 / seed 2 / dev, were
# 0.800 / 0.825 / 0.800 without a margin, 0.875 / 0.900 / 1.000 with the earlier 1.5 below 1200
# px (chosen on the dev crops alone), and are 0.950 / 0.950 / 1.000 with 2.0 below 1600 px; no
# text crop was taken for a table at any setting. A larger threshold finds more of the largest
# crops (2.0 below 2400 px: 0.988 / 0.975) but would shrink page-sized images (photos, page
# scans from about 1,700 px) into a quarter of the detector's input, which this set does not
# measure, so the threshold stays below the dev set's page image (1,650 px).
SMALL_IMAGE_PX = 1600
SMALL_IMAGE_MARGIN_FACTOR = 2.0


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
