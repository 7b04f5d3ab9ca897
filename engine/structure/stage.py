"""The structure page stages: figures kept as images, then the page's regions and lines
assembled into blocks in reading order."""

from __future__ import annotations

from dataclasses import replace
from functools import reduce

from engine.page import PageState, keep_crop
from engine.structure.page_blocks import assemble_page
from engine.structure.code_cells import read_listing_cells
from engine.structure.assembly_rules import ASSEMBLY, AssemblyRules
from engine.structure.form_rules import FORMS, FormRules
from engine.structure.furniture_rules import FURNITURE, FurnitureRules
from engine.structure.line_numbers import LINE_NUMBERS, LineNumberRules, line_number_gutter
from engine.structure.paragraph_rules import PARAGRAPHS, ParagraphRules
from engine.structure.reading_order_rules import READING_ORDER, ReadingOrderRules
from engine.structure.row_rules import ROWS, RowRules
from engine.structure.vertical_rules import VERTICAL, VerticalRules
from engine.types import BlockKind, Box, Line, Region


def crop_figures(page: PageState, models) -> PageState:
    """Each figure region keeps its crop as an image beside the Markdown."""
    if not any(r.kind is BlockKind.FIGURE for r in page.regions or ()):
        return page
    regions = tuple(keep_crop(page, r, i) if r.kind is BlockKind.FIGURE else r
                    for i, r in enumerate(page.regions))
    return replace(page.with_crops(r for r in regions if r.kind is BlockKind.FIGURE),
                   regions=regions)


def assemble_blocks(page: PageState, models, reading_order: ReadingOrderRules = READING_ORDER,
                    vertical: VerticalRules = VERTICAL, rows: RowRules = ROWS,
                    paragraphs: ParagraphRules = PARAGRAPHS,
                    furniture: FurnitureRules = FURNITURE, forms: FormRules = FORMS,
                    assembly: AssemblyRules = ASSEMBLY) -> PageState:
    """The page's blocks in reading order (engine/structure/page_blocks.py), under the rule
    sets given (the defaults in PAGE_STAGES; an experiment passes variants)."""
    height, width = page.image.shape[:2]
    blocks = assemble_page(list(page.lines), page.regions, float(height * width), reading_order,
                           vertical, rows=rows, paragraphs=paragraphs, furniture=furniture,
                           forms=forms, assembly=assembly)
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


def drop_line_number_gutter(page: PageState, models,
                            rules: LineNumberRules = LINE_NUMBERS) -> PageState:
    """A transcript's or listing's line numbers (engine/structure/line_numbers.py) leave the
    text before tables and blocks are built from it. The numbers were never part of a region: a
    table region holding them is cut down to the lines it holds besides them, and the table
    stage's evidence rules (engine/tables/evidence.py) judge what is left. A numbered page of
    running text the layout model took for a two-column table is one column of text then; a
    real table whose box was drawn out into the margin's numbers (a draft paper numbered in
    both margins) keeps its grid. `rules`: what a gutter is, and how many of its numbers make a
    table region the gutter's."""
    gutter = line_number_gutter(list(page.lines), rules)
    if not gutter:
        return page
    numbers = [line for i, line in enumerate(page.lines) if i in gutter]
    kept = [line for i, line in enumerate(page.lines) if i not in gutter]
    regions = page.regions
    if regions is not None:
        regions = tuple(_without_numbers(r, numbers, kept, rules) for r in regions)
    return replace(page, regions=regions, lines=tuple(kept))


def _without_numbers(region: Region, numbers: list[Line], lines: list[Line],
                     rules: LineNumberRules) -> Region:
    if region.kind is not BlockKind.TABLE or sum(
            n.box.share_inside(region.box) >= 0.5 for n in numbers) < rules.min_run:
        return region
    held = [ln.box for ln in lines if ln.box.share_inside(region.box) >= 0.5]
    if not held:
        return replace(region, kind=BlockKind.TEXT)
    return replace(region, box=reduce(Box.union, held))
