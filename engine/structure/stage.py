"""The structure page stages: figures kept as images, then the page's regions and lines
assembled into blocks in reading order."""

from __future__ import annotations

from dataclasses import replace
from functools import reduce

from engine.page import PageState, keep_crop, regions_of
from engine.structure.assembly import assemble_page
from engine.structure.code_cells import read_listing_cells
from engine.structure.line_numbers import MIN_RUN, line_number_gutter
from engine.types import BlockKind, Box, Line, Region


def crop_figures(page: PageState, models) -> PageState:
    figures = regions_of(page, BlockKind.FIGURE)
    if not figures:
        return page
    regions = list(page.regions)
    for i in figures:
        page, regions[i] = keep_crop(page, regions[i], i)
    return replace(page, regions=tuple(regions))


def assemble_blocks(page: PageState, models) -> PageState:
    height, width = page.image.shape[:2]
    blocks = assemble_page(list(page.lines), page.regions, float(height * width))
    return replace(page, blocks=tuple(blocks))


def read_code_cells(page: PageState, models) -> PageState:
    """Each OCR code listing's rows laid on the ink of their character cells
    (engine/structure/code_cells.py): underscores and spaces the recogniser lost put back, a
    short row read again on its own."""
    if page.image is None or not any(b.kind is BlockKind.CODE for b in page.blocks):
        return page
    recognize = models.page_reader().recognizer.recognize
    return replace(page, blocks=tuple(read_listing_cells(b, page.image, recognize)
                                      for b in page.blocks))


def drop_line_number_gutter(page: PageState, models) -> PageState:
    """A transcript's or listing's line numbers (engine/structure/line_numbers.py) leave the
    text before tables and blocks are built from it. The numbers were never part of a region: a
    table region holding them is cut down to the lines it holds besides them, and the table
    stage's evidence rules (engine/tables/evidence.py) judge what is left. A numbered page of
    running text the layout model took for a two-column table is one column of text then; a
    real table whose box was drawn out into the margin's numbers (a draft paper numbered in
    both margins) keeps its grid."""
    gutter = line_number_gutter(list(page.lines))
    if not gutter:
        return page
    numbers = [line for i, line in enumerate(page.lines) if i in gutter]
    kept = [line for i, line in enumerate(page.lines) if i not in gutter]
    regions = page.regions
    if regions is not None:
        regions = tuple(_without_numbers(r, numbers, kept) for r in regions)
    return replace(page, regions=regions, lines=tuple(kept))


def _without_numbers(region: Region, numbers: list[Line], lines: list[Line]) -> Region:
    if region.kind is not BlockKind.TABLE or sum(
            n.box.share_inside(region.box) >= 0.5 for n in numbers) < MIN_RUN:
        return region
    held = [ln.box for ln in lines if ln.box.share_inside(region.box) >= 0.5]
    if not held:
        return replace(region, kind=BlockKind.TEXT)
    return replace(region, box=reduce(Box.union, held))
