"""The structure page stages: figures kept as images, then the page's regions and lines
assembled into blocks in reading order."""

from __future__ import annotations

from dataclasses import replace

from engine.page import PageState, keep_crop, regions_of
from engine.structure.assembly import assemble_page
from engine.structure.line_numbers import MIN_RUN, line_number_gutter
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


def drop_line_number_gutter(page: PageState, models) -> PageState:
    """A transcript's or listing's line numbers (engine/structure/line_numbers.py) leave the
    text before tables and blocks are built from it. A table region holding such a gutter is
    a numbered page of running text the layout model took for a two-column table: text again."""
    gutter = line_number_gutter(list(page.lines))
    if not gutter:
        return page
    numbers = [line for i, line in enumerate(page.lines) if i in gutter]
    regions = page.regions
    if regions is not None:
        regions = tuple(
            replace(r, kind=BlockKind.TEXT) if r.kind is BlockKind.TABLE and sum(
                n.box.share_inside(r.box) >= 0.5 for n in numbers) >= MIN_RUN else r
            for r in regions)
    return replace(page, regions=regions,
                   lines=tuple(line for i, line in enumerate(page.lines) if i not in gutter))
