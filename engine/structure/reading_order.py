"""Reading order as a partial order over blocks, sorted topologically.

Two rules decide what must come before what (after Breuel, "High performance document layout
analysis", 2003), and every other pair is free:
1. of two blocks that share columns (they overlap horizontally), the upper one comes first;
2. a block entirely left of another comes first, unless a third block lies between them in
   height and reaches across both (a headline or a figure spanning the columns separates what
   is above it from what is below it).
Two blocks that reach into each other's width by less than rule 1 counts, one wholly above the
other with nothing level with either from the other's column, are stacked, not columns: the
upper one comes first (a centred display formula over a paragraph's short last line).
Spanning headlines over some of the columns, articles beside articles, figures that cut a page,
side notes and numbered lists in columns all follow from these two rules without a column
count or a page template. Of the blocks free to come next, the topmost is read first.

On the generated structure set (tools/structure, 8 pages per family) this order scored 0.984
order-sensitive similarity against 0.851 for the XY-cut it replaced. Its thresholds:
reading_order_rules.py."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

import numpy as np

from engine.structure.reading_order_rules import READING_ORDER, ReadingOrderRules
from engine.structure.stories import (heading_row, is_headline, starts_row, story_end_precedence,
                                      story_precedence)
from engine.structure.vertical import transpose
from engine.types import Block, BlockKind, Line

def order_blocks(blocks: list[Block], right_to_left: bool = False, vertical: bool = False,
                 rules: ReadingOrderRules = READING_ORDER) -> list[Block]:
    """Blocks in the order a person reads them. `right_to_left`: columns run right to left.
    `vertical`: a page of vertical CJK writing (engine/structure/vertical.py), read in the
    frame where its columns become lines: the same rules then read tiers top to bottom and the
    columns of each from the right."""
    if len(blocks) <= 1:
        return list(blocks)
    if vertical:
        turned = [replace(b, box=transpose(b.box), lines=tuple(
            replace(ln, box=transpose(ln.box)) for ln in b.lines)) for b in blocks]
        position = {id(t): i for i, t in enumerate(turned)}
        return [blocks[position[id(t)]] for t in order_blocks(turned, right_to_left, rules=rules)]
    ordered: list[Block] = []
    body = body_line_height(blocks)
    for band in bands(blocks, rules):
        boxes = np.array([[b.box.x0, b.box.y0, b.box.x1, b.box.y1] for b in band], dtype=float)
        if right_to_left:
            boxes[:, [0, 2]] = -boxes[:, [2, 0]]
        before = precedence(boxes, rules)
        if body > 0:
            before = story_end_precedence(
                band, boxes, story_precedence(band, boxes, before, body, rules), body, rules)
        ordered.extend(band[i] for i in topological(before, boxes))
    return ordered


def line_height(lines: Iterable[Line]) -> float:
    """The median height of `lines` (0 when none has a height)."""
    heights = sorted(line.box.height for line in lines if line.box.height > 0)
    return heights[len(heights) // 2] if heights else 0.0


def body_line_height(blocks: list[Block]) -> float:
    """The median height of the page's text lines (0 when none are known)."""
    return line_height(line for b in blocks for line in b.lines)


def bands(blocks: list[Block], rules: ReadingOrderRules = READING_ORDER) -> list[list[Block]]:
    """The page cut across its whole width where a blank stripe at least `band_gap_lines` text
    lines high crosses it and a row of stories starts under it (`starts_row`): stories stacked
    on a newspaper page, or rows of articles side by side, read one after the other."""
    body = body_line_height(blocks)
    if body <= 0 or rules.band_gap_lines <= 0:
        return [list(blocks)]
    spans = sorted(blocks, key=lambda b: b.box.y0)
    cuts, reach = [], spans[0].box.y1
    for i, block in enumerate(spans[1:], 1):
        if block.box.y0 - reach >= rules.band_gap_lines * body:
            reach_row = block.box.y0 + rules.row_reach_lines * body
            under = [b for b in spans[i:] if b.box.y0 <= reach_row]
            if is_headline(block, body, rules.headline_size, rules) or (
                    len(under) >= 2 and (starts_row(under, body, rules)
                                         or heading_row(under, body, rules))):
                cuts.append(i)
        reach = max(reach, block.box.y1)
    bounds = [0, *cuts, len(spans)]
    return [spans[a:b] for a, b in zip(bounds, bounds[1:])]


def precedence(boxes: np.ndarray, rules: ReadingOrderRules = READING_ORDER) -> np.ndarray:
    """before[a, b]: block a must be read before block b."""
    x0, y0, x1, y1 = boxes.T
    width = np.maximum(x1 - x0, 1e-6)
    cy = (y0 + y1) / 2
    overlap = np.minimum(x1[:, None], x1[None, :]) - np.maximum(x0[:, None], x0[None, :])
    shared = overlap > rules.shared_column_share * np.minimum(width[:, None], width[None, :])
    above = cy[:, None] < cy[None, :]
    stacked = _stacked(boxes, overlap, shared)
    before = (shared | stacked) & above
    left_of = ~shared & ~stacked & ((x0 + x1)[:, None] < (x0 + x1)[None, :])
    np.fill_diagonal(shared, False)
    for a, b in zip(*np.nonzero(left_of)):
        low, high = sorted((cy[a], cy[b]))
        between = (cy > low) & (cy < high) & shared[:, a] & shared[:, b]
        if not between.any():
            before[a, b] = True
    np.fill_diagonal(before, False)
    return before


def _stacked(boxes: np.ndarray, overlap: np.ndarray, shared: np.ndarray) -> np.ndarray:
    """stacked[a, b]: two blocks one above the other, reaching into each other's width by
    less than `shared_column_share`, with nothing beside either of them: a display formula
    centred over the last short line of a paragraph, one wide indented line under a short
    one. Side by side in columns, some block of the one's column stands level with the other
    (a column's text above a heading that reaches into the gutter); here none does, so the
    upper is read first. Rule 2 alone read the short line before the formula above it (a
    Word document printed by LibreOffice, tools/officeset)."""
    y0, y1 = boxes[:, 1], boxes[:, 3]
    level = (np.minimum(y1[:, None], y1[None, :]) - np.maximum(y0[:, None], y0[None, :])) > 0
    np.fill_diagonal(level, False)
    candidates = (overlap > 0) & ~shared & ~level
    np.fill_diagonal(candidates, False)
    stacked = np.zeros_like(candidates)
    for a, b in zip(*np.nonzero(candidates)):
        beside = (level[:, a] & shared[:, b]) | (level[:, b] & shared[:, a])
        beside[[a, b]] = False
        stacked[a, b] = not beside.any()
    return stacked


def topological(before: np.ndarray, boxes: np.ndarray) -> list[int]:
    """Kahn's algorithm, the topmost (then leftmost) free block first. Should the rules form a
    cycle (on scans, a word cut off a line can straddle a gutter and tie two columns in a
    loop), the remaining block waiting on the fewest others breaks it, the topmost of those:
    the topmost remaining block of all would jump to the head of a column far away, not yet
    reached (broadsheet scans, tools/structure seed 1, 20 pages: 0.841 -> 0.890; every other
    family the same)."""
    waiting = before.sum(axis=0).astype(int)
    done = np.zeros(len(boxes), dtype=bool)
    key = sorted(range(len(boxes)), key=lambda i: (boxes[i, 1], boxes[i, 0]))
    order: list[int] = []
    while len(order) < len(boxes):
        free = next((i for i in key if not done[i] and waiting[i] == 0), None)
        if free is None:
            free = min((i for i in key if not done[i]), key=lambda i: waiting[i])
        done[free] = True
        order.append(free)
        waiting -= before[free].astype(int)
    return order
