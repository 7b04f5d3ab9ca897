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
order-sensitive similarity against 0.851 for the XY-cut it replaced (newspapers 0.753 -> 0.999
born-digital, 0.473 -> 0.876 scanned; two-column papers 0.796 -> 1.000)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

import numpy as np

from engine.structure.stories import (ROW_REACH_LINES, heading_row, is_headline, starts_row,
                                      story_end_precedence, story_precedence)
from engine.structure.vertical import transpose
from engine.types import Block, BlockKind, Line

# Two blocks share columns when they overlap horizontally by more than this share of the
# narrower one: less is a heading or a figure edge reaching into the gutter.
SHARED_COLUMN_SHARE = 0.1


# A newspaper stacks stories: a blank stripe across the whole page above a headline (a heading
# set this much larger than the body) starts a new story, read after everything above it. Chosen
# on the generated structure set (tools/structure, 8 pages per family, born-digital and scanned):
# without the cut newspapers scored 0.617/0.638 (digital/scanned); gap 0.3 line: 0.999/0.876,
# every other family unchanged; gap 1.0: 0.763/0.801. With OCR lines cut at gutters
# (engine/ocr/gutters.py) scanned newspapers read 0.927 at gap 0.3 and 0.977 at any gap from
# 0.01 to 0.2 (a scan's skew of up to 1.2 degrees makes a column's box a few pixels taller and
# eats the stripe); every other family the same at all of them. 0.1 is the middle of that
# plateau; the seed-2 pages (held out) and the dev set were checked after.
BAND_GAP_LINES = 0.1
HEADLINE_SIZE = 1.5
# Under such a stripe a new band starts with a headline HEADLINE_SIZE times the body, or with a
# row of stories: two blocks or more start within ROW_REACH_LINES of the first, and every one is
# a headline (stories.starts_row). On the randomised newspapers (tools/structure `broadsheet`,
# seed 1, 20 pages), where rows of articles sit under stories of other widths, the headline alone
# read 0.895/0.804 (digital/scanned); with rows and the story ends of
# stories.story_end_precedence 0.948/0.833. A row of one headline as wide as a third of the page
# gave the same there but cut two-column papers whose left column has a section heading under a
# stripe across the page (journal scans straightened by engine/ocr/skew.py: 0.998 -> 0.983); one
# narrow heading alone cut a textbook's exercises from the side note beside them (Chinese
# textbook scans 0.938 -> 0.866). Every other family (6 pages each, seed 1) the same or better.
# A scan's row of stories often starts with headings its line boxes measure near body size, the
# topmost by a pixel among them: a row of headings (stories.heading_row: every block starting
# under the stripe a heading by the layout model, one at least 1.25 times the body) starts a
# band too. Generated set, seed 1 (8 pages per family, measured together with the
# justified-column lines of paragraphs.py): scanned broadsheets 0.902 -> 0.955, born-digital
# broadsheets 0.991 -> 0.998, every other family the same; seed 2 (held out, 5 families):
# scanned broadsheets 0.843 -> 0.887, the rest the same or better, no page lower; the real
# pages of tools/structure published (seed 1) born-digital 0.947 -> 0.947, scanned 0.868 ->
# 0.870 (one page lower: the Elsevier page whose display formula overprints the next column,
# born-digital 0.642 -> 0.625); the dev set the same, all 40 items. HEADLINE_SIZE 1.4 with any
# block under the stripe instead read the broadsheets alike but cut a two-column paper at a
# section heading beside a paragraph (0.994 -> 0.721).


def order_blocks(blocks: list[Block], right_to_left: bool = False, vertical: bool = False
                 ) -> list[Block]:
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
        return [blocks[position[id(t)]] for t in order_blocks(turned, right_to_left)]
    ordered: list[Block] = []
    body = body_line_height(blocks)
    for band in bands(blocks):
        boxes = np.array([[b.box.x0, b.box.y0, b.box.x1, b.box.y1] for b in band], dtype=float)
        if right_to_left:
            boxes[:, [0, 2]] = -boxes[:, [2, 0]]
        before = precedence(boxes)
        if body > 0:
            before = story_end_precedence(band, boxes, story_precedence(band, boxes, before, body),
                                          body)
        ordered.extend(band[i] for i in topological(before, boxes))
    return ordered


def line_height(lines: Iterable[Line]) -> float:
    """The median height of `lines` (0 when none has a height)."""
    heights = sorted(line.box.height for line in lines if line.box.height > 0)
    return heights[len(heights) // 2] if heights else 0.0


def body_line_height(blocks: list[Block]) -> float:
    """The median height of the page's text lines (0 when none are known)."""
    return line_height(line for b in blocks for line in b.lines)


def bands(blocks: list[Block]) -> list[list[Block]]:
    """The page cut across its whole width where a blank stripe at least BAND_GAP_LINES text
    lines high crosses it and a row of stories starts under it (`starts_row`): stories stacked
    on a newspaper page, or rows of articles side by side, read one after the other."""
    body = body_line_height(blocks)
    if body <= 0 or BAND_GAP_LINES <= 0:
        return [list(blocks)]
    spans = sorted(blocks, key=lambda b: b.box.y0)
    cuts, reach = [], spans[0].box.y1
    for i, block in enumerate(spans[1:], 1):
        if block.box.y0 - reach >= BAND_GAP_LINES * body:
            under = [b for b in spans[i:] if b.box.y0 <= block.box.y0 + ROW_REACH_LINES * body]
            if is_headline(block, body, HEADLINE_SIZE) or (
                    len(under) >= 2 and (starts_row(under, body) or heading_row(under, body))):
                cuts.append(i)
        reach = max(reach, block.box.y1)
    bounds = [0, *cuts, len(spans)]
    return [spans[a:b] for a, b in zip(bounds, bounds[1:])]


def precedence(boxes: np.ndarray) -> np.ndarray:
    """before[a, b]: block a must be read before block b."""
    x0, y0, x1, y1 = boxes.T
    width = np.maximum(x1 - x0, 1e-6)
    cy = (y0 + y1) / 2
    overlap = np.minimum(x1[:, None], x1[None, :]) - np.maximum(x0[:, None], x0[None, :])
    shared = overlap > SHARED_COLUMN_SHARE * np.minimum(width[:, None], width[None, :])
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
    less than SHARED_COLUMN_SHARE, with nothing beside either of them: a display formula
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
    reached (broadsheet scans, tools/structure seed 1, 20 pages: 0.841 -> 0.890; 0.854 -> 0.910
    straightened by engine/ocr/skew.py; every other family the same)."""
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
