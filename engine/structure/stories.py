"""Stories stacked inside part of a page: a headline over some columns, with a blank stripe
across those columns above it, starts a story read after everything above it there.

A newspaper stacks stories in a block of columns beside another story (two short stories one
under the other in the two right-hand columns, while the lead story runs down the three on the
left). The headline of the lower one is often only as wide as its words, one column of two, so
the column rules alone read the upper story's first column, then the lower headline and its
first column (it lies left of the upper story's second column), then the rest. The story's
columns are the blocks that start side by side just under the headline; when nothing crosses
the stripe above the headline over those columns, what lies above it there is read first.
Columns of a two-column paper pass beside a heading without such a stripe (a paragraph gap is
shorter than a heading), and headings set near body size are not headlines."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from engine.structure.reading_order_rules import READING_ORDER, ReadingOrderRules
from engine.types import Block, BlockKind


def is_headline(block: Block, body: float, ratio: float,
                rules: ReadingOrderRules = READING_ORDER) -> bool:
    """A heading, or a line or two of text, whose tallest line is at least `ratio` times the
    body line height (the layout model calls some headlines text)."""
    if not block.lines:
        return False
    if block.kind not in (BlockKind.TITLE, BlockKind.SECTION_HEADER) and not (
            block.kind is BlockKind.TEXT and len(block.lines) <= rules.text_headline_lines):
        return False
    return max(line.box.height for line in block.lines) >= ratio * body


def story_columns(h: int, boxes: np.ndarray, body: float,
                  rules: ReadingOrderRules = READING_ORDER) -> tuple[float, float, int] | None:
    """(x0, x1, blocks) of the row of blocks starting side by side just under headline `h`,
    over each of which nothing crosses the stripe above the headline."""
    x0, y0, x1, y1 = boxes.T
    width = np.maximum(x1 - x0, 1e-6)
    crossing = (y1 > y0[h] - rules.story_gap_lines * body) & (y0 < y1[h])
    crossing[h] = False
    # blank[i]: nothing that crosses the stripe lies over block i's column.
    over = (np.minimum(x1[:, None], x1[None, :]) - np.maximum(x0[:, None], x0[None, :])
            ) > rules.inside_share * width[:, None]
    blank = ~(over & crossing[:, None]).any(axis=0)
    overlap = np.minimum(x1, x1[h]) - np.maximum(x0, x0[h])
    under = blank & (y0 >= y1[h] - 0.5 * body) & (y0 <= y1[h] + rules.story_reach_lines * body) & (
        overlap > 0.5 * np.minimum(width, width[h]))
    under[h] = False
    if not under.any():
        return None
    top = y0[under].min()
    row = under & (y0 <= top + rules.story_row_lines * body)
    left, right = x0[row].min(), x1[row].max()
    grown = True
    while grown:
        beside = (blank & ~row & (np.abs(y0 - top) <= rules.story_row_lines * body)
                  & (x0 <= right + rules.story_gutter_lines * body)
                  & (x1 >= left - rules.story_gutter_lines * body))
        beside[h] = False
        grown = bool(beside.any())
        row |= beside
        left, right = x0[row].min(), x1[row].max()
    return float(left), float(right), int(row.sum())


def column_stories(blocks: list[Block], boxes: np.ndarray, body: float,
                   rules: ReadingOrderRules = READING_ORDER) -> Iterator[tuple[int, float, float]]:
    """(headline, x0, x1 of its columns) of each story under a headline over two columns or
    more: two blocks side by side under it, or one block (a lead paragraph) as wide as
    rules.wide_lead_columns of the band's paragraphs; a one-column story is ordered by the column
    rules already."""
    column = column_width(blocks, rules)
    for h, block in enumerate(blocks):
        if not is_headline(block, body, rules.story_headline_size, rules):
            continue
        found = story_columns(h, boxes, body, rules)
        if found is not None and (found[2] >= 2 or (
                column > 0 and found[1] - found[0] >= rules.wide_lead_columns * column)):
            yield h, found[0], found[1]


def column_width(blocks: list[Block], rules: ReadingOrderRules = READING_ORDER) -> float:
    """The median width of the text blocks of `rules.column_lines` lines or more (0 when none)."""
    widths = sorted(b.box.width for b in blocks
                    if b.kind is BlockKind.TEXT and len(b.lines) >= rules.column_lines)
    return widths[len(widths) // 2] if widths else 0.0


def inside_columns(boxes: np.ndarray, left: float, right: float,
                   rules: ReadingOrderRules = READING_ORDER) -> np.ndarray:
    """Which blocks lie in the columns from `left` to `right` (`inside_share`
    of their width)."""
    x0, x1 = boxes[:, 0], boxes[:, 2]
    width = np.maximum(x1 - x0, 1e-6)
    return (np.minimum(x1, right) - np.maximum(x0, left)) > rules.inside_share * width


def following(before: np.ndarray, start: np.ndarray, story: np.ndarray) -> np.ndarray:
    """`start` and every block the rules put after one of them, the `story` excepted."""
    reached = start.copy()
    frontier = start.copy()
    while frontier.any():
        frontier = before[frontier].any(axis=0) & ~reached & ~story
        reached |= frontier
    return reached


def reaching_into(boxes: np.ndarray, left: float, right: float,
                  rules: ReadingOrderRules = READING_ORDER) -> np.ndarray:
    """Which blocks reach into the columns from `left` to `right` (`reach_share`
    of their width)."""
    x0, x1 = boxes[:, 0], boxes[:, 2]
    width = np.maximum(x1 - x0, 1e-6)
    return (np.minimum(x1, right) - np.maximum(x0, left)) > rules.reach_share * width


def story_precedence(blocks: list[Block], boxes: np.ndarray, before: np.ndarray,
                     body: float, rules: ReadingOrderRules = READING_ORDER) -> np.ndarray:
    """`before` with each stacked story's order added: what lies above its headline over its
    columns comes before the headline and everything under it there."""
    before = before.copy()
    x0, y0, x1, y1 = boxes.T
    for h, left, right in column_stories(blocks, boxes, body, rules):
        inside = inside_columns(boxes, left, right, rules)
        crossing = inside & (y1 > y0[h] - rules.story_gap_lines * body) & (y0 < y1[h])
        crossing[h] = False
        if crossing.any():
            continue
        above = inside & (y1 <= y0[h])
        below = inside & (y0 >= y0[h])
        below[h] = True
        before[np.ix_(above, below)] = True
        before[np.ix_(below, above)] = False
    return before


def starts_row(under: list[Block], body: float,
               rules: ReadingOrderRules = READING_ORDER) -> bool:
    """The blocks starting just under a blank stripe open a row of stories: each is a
    headline (a line or two set at least `story_headline_size` times the body)."""
    return bool(under) and all(is_headline(b, body, rules.story_headline_size, rules)
                               for b in under)


def heading_row(under: list[Block], body: float,
                rules: ReadingOrderRules = READING_ORDER) -> bool:
    """The blocks starting just under a blank stripe are all headings by the layout model, one
    at least `story_headline_size` times the body: a row of stories whose smaller headlines a
    scan's line boxes measure at body size or near it (a text layer's font sizes do not).
    Beside a paragraph that starts as high (a two-column paper's section heading) it is not."""
    return bool(under) and all(b.kind in (BlockKind.TITLE, BlockKind.SECTION_HEADER)
                               for b in under) and any(
        is_headline(b, body, rules.story_headline_size, rules) for b in under)


def story_end(h: int, blocks: list[Block], boxes: np.ndarray, inside: np.ndarray,
              body: float, rules: ReadingOrderRules = READING_ORDER) -> float | None:
    """The y where the story under headline `h` ends: the first blank stripe across its
    columns (the blocks `inside`) under which only headlines start; None when it runs on."""
    y0, y1 = boxes[:, 1], boxes[:, 3]
    below = [int(i) for i in np.argsort(y0, kind="stable") if inside[i] and y0[i] > y0[h]]
    reach = y1[h]
    for k, i in enumerate(below):
        if y0[i] - reach >= rules.end_gap_lines * body:
            under = [blocks[j] for j in below[k:] if y0[j] <= y0[i] + rules.row_reach_lines * body]
            if starts_row(under, body, rules):
                return float(y0[i])
        reach = max(reach, y1[i])
    return None


def story_end_precedence(blocks: list[Block], boxes: np.ndarray, before: np.ndarray,
                         body: float, rules: ReadingOrderRules = READING_ORDER) -> np.ndarray:
    """`before` with each story kept whole above the row that follows it in its columns.

    A story over several columns ends where a blank stripe crosses its columns with headlines
    under it. Everything in the story comes before everything under that stripe there, so the
    next row's left-hand article is not read before the story's right-hand columns (the column
    rules alone read a column down to the foot of the page when nothing spans it). Chosen with
    the row rule of reading_order.bands, on the randomised newspapers (docs/adr/0026)."""
    before = before.copy()
    x0, y0, x1, y1 = boxes.T
    for h, left, right in column_stories(blocks, boxes, body, rules):
        # The story runs under its headline's whole width too.
        left, right = min(left, x0[h]), max(right, x1[h])
        inside = inside_columns(boxes, left, right, rules)
        # The next row may start with a headline reaching into only some of the story's
        # columns, the rest of it lying under stories further left.
        touching = reaching_into(boxes, left, right, rules)
        end = story_end(h, blocks, boxes, touching, body, rules)
        if end is None:
            continue
        story = inside & (y0 >= y0[h]) & (y1 <= end)
        story[h] = True
        # What follows the next row follows the story too (the columns further left under
        # that row's headline read after it).
        after = following(before, touching & (y0 >= end) & ~story, story)
        before[np.ix_(story, after)] = True
        before[np.ix_(after, story)] = False
    return before
