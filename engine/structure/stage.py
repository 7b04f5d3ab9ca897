"""The structure page stages: figures kept as images, then the page's regions and lines
assembled into blocks in reading order."""

from __future__ import annotations

from dataclasses import replace

from engine.page import PageState, keep_crop, regions_of
from engine.structure.assembly import assemble_page
from engine.types import BlockKind


def crop_figures(page: PageState, models) -> PageState:
    figures = regions_of(page, BlockKind.FIGURE)
    if not figures:
        return page
    regions = list(page.regions)
    for i in figures:
        page = keep_crop(page, regions, i)
    return replace(page, regions=tuple(regions))


def assemble_blocks(page: PageState, models) -> PageState:
    height, width = page.image.shape[:2]
    blocks = assemble_page(list(page.lines), page.regions, float(height * width))
    return replace(page, blocks=tuple(blocks))
