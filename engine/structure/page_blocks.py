"""A page's blocks in reading order, step by step: the second recipe inside the page recipe's
`blocks` stage, listed in BLOCK_STEPS as PAGE_STAGES lists the page's stages.

Each step takes the page's blocks as far as they are made (`PageBlocks`) and returns them one
step further; a step that has nothing to do returns them as they were. Without layout regions
(no layout model ran) a page's text is grouped by geometry alone and the region steps pass."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Callable

from engine.structure.assembly import (assign_lines, display_header, drop_nested_text,
                                       footnotes_last, holds_cjk_text, label_captions,
                                       place_captions, region_blocks, split_watermarks)
from engine.structure.assembly_rules import ASSEMBLY, AssemblyRules
from engine.structure.code import code_blocks
from engine.structure.form_rules import FORMS, FormRules
from engine.structure.forms import read_rows_across
from engine.structure.furniture_rules import FURNITURE, FurnitureRules
from engine.structure.paragraph_rules import PARAGRAPHS, ParagraphRules
from engine.structure.paragraphs import build_blocks
from engine.structure.reading_order import line_height, order_blocks
from engine.structure.reading_order_rules import READING_ORDER, ReadingOrderRules
from engine.structure.row_rules import ROWS, RowRules
from engine.structure.vertical import is_vertical_page
from engine.structure.vertical_rules import VERTICAL, VerticalRules
from engine.text import right_to_left
from engine.types import Block, BlockKind, Line, Region


@dataclass(frozen=True)
class PageBlocks:
    """What is known of a page's blocks while BLOCK_STEPS run."""

    lines: list[Line]
    """The page's lines (once `watermarks` has run, without the slanted ones over the text)."""
    regions: list[Region] | None
    """The layout model's regions; None when none ran."""
    page_area: float | None = None
    furniture: list[Block] = field(default_factory=list)
    """Blocks set aside before the reading order (watermarks), put first as page furniture."""
    vertical: bool = False
    """Vertical CJK writing."""
    right_to_left: bool = False
    """Columns run from the right (a page mostly in Arabic, Persian or Hebrew letters)."""
    held: list[Region] = field(default_factory=list)
    """The regions holding their lines."""
    leftover: list[Line] = field(default_factory=list)
    """Lines no region holds."""
    blocks: list[Block] = field(default_factory=list)
    reading_order_rules: ReadingOrderRules = READING_ORDER
    """The rules that put the blocks in reading order (engine/structure/reading_order_rules.py)."""
    vertical_rules: VerticalRules = VERTICAL
    """The rules of vertical writing (engine/structure/vertical_rules.py)."""
    row_rules: RowRules = ROWS
    """The rules that join pieces of one line (engine/structure/row_rules.py)."""
    paragraph_rules: ParagraphRules = PARAGRAPHS
    """The rules that group lines into paragraphs (engine/structure/paragraph_rules.py)."""
    furniture_rules: FurnitureRules = FURNITURE
    """What a running head is, and display type (engine/structure/furniture_rules.py)."""
    form_rules: FormRules = FORMS
    """When short lines are a form's labels and values (engine/structure/form_rules.py)."""
    assembly_rules: AssemblyRules = ASSEMBLY
    """How lines are laid into regions, and which regions are what they seem
    (engine/structure/assembly_rules.py)."""

    @property
    def by_layout(self) -> bool:
        return self.regions is not None

    @property
    def furniture_and_blocks(self) -> list[Block]:
        return self.furniture + self.blocks


BlockStep = Callable[[PageBlocks], PageBlocks]


def set_watermarks_aside(page: PageBlocks) -> PageBlocks:
    """A watermark is page furniture, like a running head: left out of the reading order, where
    it would lie across the columns as if it were a headline dividing them."""
    lines, stamped = split_watermarks(page.lines, page.assembly_rules)
    furniture = [Block(BlockKind.HEADER, line.box, (line,), line.text, line.score)
                 for line in stamped]
    return replace(page, lines=lines, furniture=furniture)


def read_direction(page: PageBlocks) -> PageBlocks:
    return replace(page, vertical=is_vertical_page(page.lines, page.vertical_rules),
                   right_to_left=right_to_left([line.text for line in page.lines]))


def cjk_figures_as_text(page: PageBlocks) -> PageBlocks:
    """A figure region holding a paragraph's worth of CJK writing is text."""
    if not page.by_layout:
        return page
    return replace(page, regions=[
        replace(r, kind=BlockKind.TEXT)
        if r.kind is BlockKind.FIGURE and holds_cjk_text(r, page.lines, page.assembly_rules)
        else r
        for r in page.regions])


def vertical_figures_only(page: PageBlocks) -> PageBlocks:
    """On a page of vertical CJK writing only the figures are taken from the layout model,
    which was trained on horizontal pages (it boxes vertical text as tables, figures or pieces
    cutting across paragraphs); the text is grouped by geometry."""
    if not page.by_layout or not page.vertical:
        return page
    return replace(page, regions=[r for r in page.regions if r.kind is BlockKind.FIGURE])


def drop_nested_regions(page: PageBlocks) -> PageBlocks:
    if not page.by_layout:
        return page
    return replace(page, regions=drop_nested_text(list(page.regions), page.lines,
                                                  page.assembly_rules))


def lines_to_regions(page: PageBlocks) -> PageBlocks:
    if not page.by_layout:
        return page
    held, leftover = assign_lines(page.lines, page.regions, page.row_rules, page.assembly_rules)
    return replace(page, held=held, leftover=leftover)


def display_headers(page: PageBlocks) -> PageBlocks:
    if not page.by_layout:
        return page
    body_height = line_height(page.lines)
    return replace(page, held=[display_header(region, body_height, page.furniture_rules)
                               for region in page.held])


def picture_page_words(page: PageBlocks) -> PageBlocks:
    """On a page that is mostly pictures (a poster, a cover, a photographed sign) the words on
    the pictures are what the page says: their lines leave the figures for the text."""
    figure_area = sum(r.box.area for r in page.held if r.kind is BlockKind.FIGURE)
    share = page.assembly_rules.page_sized_figure_share
    if not page.page_area or figure_area < share * page.page_area:
        return page
    figures = [r for r in page.held if r.kind is BlockKind.FIGURE]
    return replace(page, leftover=page.leftover + [ln for r in figures for ln in r.lines],
                   held=[replace(r, lines=()) if r.kind is BlockKind.FIGURE else r
                         for r in page.held])


def blocks_of_regions(page: PageBlocks) -> PageBlocks:
    return replace(page, blocks=[block for region in page.held
                                 for block in region_blocks(region, page.lines,
                                                           page.vertical_rules,
                                                           page.row_rules,
                                                           page.paragraph_rules)])


def blocks_of_loose_lines(page: PageBlocks) -> PageBlocks:
    """Lines no region holds (every line, without regions): paragraphs by geometry."""
    if not page.by_layout:
        return replace(page, blocks=build_blocks(page.lines, None, page.vertical_rules,
                                                 rows=page.row_rules,
                                                 rules=page.paragraph_rules))
    return replace(page, blocks=page.blocks + build_blocks(page.leftover, page.lines,
                                                            page.vertical_rules,
                                                            rows=page.row_rules,
                                                            rules=page.paragraph_rules))


def join_code(page: PageBlocks) -> PageBlocks:
    return replace(page, blocks=code_blocks(page.blocks))


def order(page: PageBlocks) -> PageBlocks:
    return replace(page, blocks=order_blocks(page.blocks, right_to_left=page.right_to_left,
                                             vertical=page.vertical,
                                             rules=page.reading_order_rules))


def rows_across(page: PageBlocks) -> PageBlocks:
    if not page.by_layout or page.right_to_left or page.vertical:
        return page
    return replace(page, blocks=read_rows_across(page.blocks, page.form_rules))


def caption_labels(page: PageBlocks) -> PageBlocks:
    if not page.by_layout:
        return page
    return replace(page, blocks=label_captions(page.blocks))


def captions_beside_objects(page: PageBlocks) -> PageBlocks:
    if not page.by_layout:
        return page
    return replace(page, blocks=place_captions(page.blocks))


def footnotes_at_the_end(page: PageBlocks) -> PageBlocks:
    if not page.by_layout:
        return page
    return replace(page, blocks=footnotes_last(page.blocks))


BLOCK_STEPS: tuple[tuple[str, BlockStep], ...] = (
    ("watermarks", set_watermarks_aside),      # slanted lines over the text: page furniture
    ("direction", read_direction),             # vertical CJK? columns from the right?
    ("cjk_figures", cjk_figures_as_text),      # a figure holding CJK paragraphs is text
    ("vertical_regions", vertical_figures_only),  # vertical CJK: only figures from the layout
    ("nested_text", drop_nested_regions),      # text boxes inside larger ones dropped
    ("assign_lines", lines_to_regions),        # each line to the region holding most of it
    ("display_headers", display_headers),      # a page header in display type: a heading
    ("picture_page", picture_page_words),      # a page of pictures: their words are its text
    ("region_blocks", blocks_of_regions),      # each region's blocks from its lines
    ("loose_lines", blocks_of_loose_lines),    # lines in no region: paragraphs by geometry
    ("code", join_code),                       # monospaced neighbours that read as code
    ("reading_order", order),                  # columns, bands and stories in reading order
    ("rows_across", rows_across),              # a form's labels and values row by row
    ("caption_labels", caption_labels),        # "Table 3", "Fig. 2" lines are captions
    ("captions", captions_beside_objects),     # each caption beside its table or figure
    ("footnotes", footnotes_at_the_end),       # footnotes after the body
)


def assemble_page(lines: list[Line], regions: list[Region] | tuple[Region, ...] | None,
                  page_area: float | None = None,
                  reading_order: ReadingOrderRules = READING_ORDER,
                  vertical: VerticalRules = VERTICAL,
                  steps: tuple[tuple[str, BlockStep], ...] = BLOCK_STEPS, *,
                  rows: RowRules = ROWS, paragraphs: ParagraphRules = PARAGRAPHS,
                  furniture: FurnitureRules = FURNITURE, forms: FormRules = FORMS,
                  assembly: AssemblyRules = ASSEMBLY) -> list[Block]:
    """Blocks of a page in reading order, watermarks first as page furniture: `steps` in
    order (BLOCK_STEPS; a tool may stop them early to look between two) under the rule sets
    `reading_order`, `vertical`, `rows`, `paragraphs`, `furniture`, `forms` and
    `assembly`."""
    return blocks_after(lines, regions, page_area, steps, reading_order, vertical,
                        rows=rows, paragraphs=paragraphs, furniture=furniture,
                        forms=forms, assembly=assembly).furniture_and_blocks


def blocks_after(lines: list[Line], regions: list[Region] | tuple[Region, ...] | None,
                 page_area: float | None, steps: tuple[tuple[str, BlockStep], ...],
                 reading_order: ReadingOrderRules = READING_ORDER,
                 vertical: VerticalRules = VERTICAL, *, rows: RowRules = ROWS,
                 paragraphs: ParagraphRules = PARAGRAPHS,
                 furniture: FurnitureRules = FURNITURE,
                 forms: FormRules = FORMS, assembly: AssemblyRules = ASSEMBLY) -> PageBlocks:
    """The page's blocks as far as `steps` make them."""
    page = PageBlocks(list(lines), None if regions is None else list(regions), page_area,
                      reading_order_rules=reading_order, vertical_rules=vertical,
                      row_rules=rows, paragraph_rules=paragraphs, furniture_rules=furniture,
                      form_rules=forms, assembly_rules=assembly)
    for _name, step in steps:
        page = step(page)
    return page


def steps_before(name: str) -> tuple[tuple[str, BlockStep], ...]:
    """BLOCK_STEPS up to step `name`, without it."""
    names = [step_name for step_name, _ in BLOCK_STEPS]
    return BLOCK_STEPS[:names.index(name)]
