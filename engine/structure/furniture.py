"""Running headers and footers: text in the page margins that a reader skips is set aside."""

from __future__ import annotations

import re
import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from engine.structure.furniture_rules import FURNITURE, FurnitureRules
from engine.structure.vertical import is_vertical_page
from engine.structure.vertical_rules import VERTICAL, VerticalRules
from engine.types import Block, BlockKind, Line, PageResult

_DIGITS = re.compile(r"\d+")
TEXT_KINDS = {BlockKind.TEXT, BlockKind.TITLE, BlockKind.SECTION_HEADER, BlockKind.LIST_ITEM,
              BlockKind.CAPTION, BlockKind.FOOTNOTE, BlockKind.REFERENCE, BlockKind.HEADER,
              BlockKind.FOOTER}


def in_display_type(lines: Sequence[Line], body_height: float,
                    rules: FurnitureRules = FURNITURE) -> bool:
    """Every one of `lines` (horizontal ones) is `rules.display_type` times `body_height` or
    taller."""
    return (body_height > 0 and bool(lines) and not any(ln.vertical for ln in lines)
            and min(ln.box.height for ln in lines) >= rules.display_type * body_height)


def _signature(block: Block) -> str:
    """Page numbers differ from page to page; compare the text with digits masked."""
    return _DIGITS.sub("#", " ".join(block.text.lower().split()))


def _band(block: Block, page: PageResult, rules: FurnitureRules) -> str | None:
    if block.box.y1 <= page.height * rules.band_share:
        return "top"
    if block.box.y0 >= page.height * (1 - rules.band_share):
        return "bottom"
    return None


def _is_page_number(block: Block) -> bool:
    return _signature(block).strip("-–—() ") in ("#", "page #", "# of #", "page # of #")


def _near_edge(block: Block, page: PageResult, rules: FurnitureRules) -> bool:
    return (block.box.y1 <= page.height * rules.running_head_share
            or block.box.y0 >= page.height * (1 - rules.running_head_share))


def _beside_page_number(block: Block, numbers: list[Block], page: PageResult,
                        rules: FurnitureRules) -> bool:
    """A short line on the same row as the page number is the running head or foot."""
    if len(block.lines) > 1 or not _near_edge(block, page, rules):
        return False
    for number in numbers:
        overlap = min(block.box.y1, number.box.y1) - max(block.box.y0, number.box.y0)
        if number is not block and overlap >= 0.5 * min(block.box.height, number.box.height):
            return True
    return False


def _in_margin(block: Block, page: PageResult, body: list[Block], vertical_page: bool,
               rules: FurnitureRules) -> bool:
    """A short block near the top or bottom edge with a wide gap to the text body, or text
    running vertically along a side edge (unless the page is set in vertical columns, where
    the first column stands at the right edge)."""
    if block.lines and all(ln.vertical for ln in block.lines):
        if vertical_page:
            return False
        return (block.box.x1 <= page.width * rules.side_margin_share
                or block.box.x0 >= page.width * (1 - rules.side_margin_share))
    if len(block.lines) > 2 or not body or _text_beyond(block, body, page):
        return False
    body_lines = [ln for b in body for ln in b.lines]
    line_height = statistics.median(ln.box.height for ln in body_lines) if body_lines \
        else block.box.height
    if in_display_type(block.lines, line_height, rules):
        return False  # a masthead or a headline in the top rows of a tall page
    gap_needed = rules.margin_gap_lines * line_height
    small = bool(block.lines) and all(ln.box.height <= 1.1 * line_height for ln in block.lines)
    if small and block.box.y1 <= page.height * rules.running_head_share:
        # Running heads sit a little lower on some layouts; set in body size or smaller (a
        # title is larger) and cut off from the text below, they are still furniture.
        below = _starts_below(block, body)
        return bool(below) and min(below) - block.box.y1 > gap_needed
    if block.box.y1 <= page.height * rules.margin_share:
        below = _starts_below(block, body)
        return not below or min(below) - block.box.y1 > gap_needed
    if block.box.y0 >= page.height * (1 - rules.margin_share):
        above = [b.box.y1 for b in body if b is not block and b.box.y1 < block.box.y1]
        return not above or block.box.y0 - max(above) > gap_needed
    return False


def _text_beyond(block: Block, body: list[Block], page: PageResult) -> bool:
    """Whether body text reaches further toward the page edge `block` is near than it does: a
    heading or a paragraph's first line at the foot of a column beside columns running on
    below it is no running foot (full-size broadsheets, whose bottom tenth holds paragraphs)."""
    if block.box.center_y > page.height / 2:
        return any(b is not block and b.box.y1 > block.box.y1 for b in body)
    return any(b is not block and b.box.y0 < block.box.y0 for b in body)


def _may_be_furniture(block: Block) -> bool:
    """Whether `block` could be a running head or foot: a line or two of text. A paragraph,
    a figure or a table in the top or bottom tenth of the page is body, and a block beside it
    is measured against it: on a full-size newspaper sheet that tenth holds whole paragraphs
    and pictures, and a headline over a picture, or a column's last short paragraph, was set
    aside for its gap to the text beyond them."""
    return block.kind in TEXT_KINDS and len(block.lines) <= 2


def _starts_below(block: Block, body: list[Block]) -> list[float]:
    """Where the body blocks that start lower than `block` begin. A paragraph that goes on
    straight under it (its box touching or a pixel into the block's) counts, with no gap:
    the top lines of a column are not a running head (real two-column pages, tools/structure
    published)."""
    return [max(b.box.y0, block.box.y1) for b in body
            if b is not block and b.box.y0 > block.box.y0]


def mark_furniture(pages: list[PageResult], vertical: VerticalRules = VERTICAL,
                   rules: FurnitureRules = FURNITURE) -> list[PageResult]:
    """Headers, footers, page numbers and side notes become HEADER / FOOTER blocks.

    Evidence: masked text recurring in the same band on at least half of the pages (two or
    more), a lone page number in a band, or a short block isolated in the page margin; where
    they lie and how large they are set: `rules` (engine/structure/furniture_rules.py)."""
    counts: Counter[tuple[str, str]] = Counter()
    for page in pages:
        seen = {(band, _signature(b)) for b in page.blocks if (band := _band(b, page, rules))}
        counts.update(seen)
    needed = max(2, (len(pages) + 1) // 2)
    result = []
    for page in pages:
        figures = sum(b.box.area for b in page.blocks if b.kind is BlockKind.FIGURE)
        # A poster or cover has no running heads: its top and bottom lines are its content.
        picture_page = figures >= rules.picture_page_share * page.width * page.height
        body = [b for b in page.blocks
                if _band(b, page, rules) is None or not _may_be_furniture(b)]
        numbers = [b for b in page.blocks if _is_page_number(b) and _near_edge(b, page, rules)]
        vertical_page = is_vertical_page([ln for b in page.blocks for ln in b.lines], vertical)
        blocks = []
        for block in page.blocks:
            band = _band(block, page, rules)
            repeated = band is not None and counts[(band, _signature(block))] >= needed
            # A caption is never a running head: a table's caption at the top of a page, two
            # lines above its rules, sits where a lowered running head would.
            margin = not picture_page and block.kind is not BlockKind.CAPTION and (
                _beside_page_number(block, numbers, page, rules)
                or _in_margin(block, page, body, vertical_page, rules))
            if repeated or block in numbers or margin:
                kind = BlockKind.FOOTER if block.box.center_y > page.height / 2 else BlockKind.HEADER
                block = replace(block, kind=kind)
            blocks.append(block)
        result.append(replace(page, blocks=tuple(blocks)))
    return result
