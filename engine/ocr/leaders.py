"""Dot leaders on scans: the row of dots between an index entry (or a contents line) and its
page numbers. The text detector finds the words on either side and not the dots, so the entry
and its numbers come out as two lines several line heights apart; the paragraph builder then
sees two columns (the names, the numbers) and reads one after the other. Two lines of one row
with nothing between them but a run of small dots, evenly spaced on the baseline, are one line,
the dots written as the page shows them (". . . .")."""

from __future__ import annotations

import re
import statistics

import cv2
import numpy as np

from engine.imaging import INK, InkRules, ink_map
from engine.types import Box, Line, Word

# Set from the leaders of the index and contents pages among the real pages of `python -m
# tools.structure published` (on the scans the dots are under a tenth of a line height across,
# about half a line height apart) and checked as a whole on scanned pages (order-sensitive
# similarity): seed 1, 40 pages, 0.794 -> 0.868 (14 pages up, none lower); seed 2, held out,
# 0.766 -> 0.836 (16 up, none lower); the generated set (seed 1, 8 pages per family) and the
# dev set the same.
# A dot is at most this many line heights wide and tall ...
MAX_DOT = 0.3
# ... and a leader has at least this many, none further apart than MAX_DOT_SPACING line
# heights or twice their usual step, the first and last within two steps of the words they join.
MIN_DOTS = 3
MAX_DOT_SPACING = 2.0
# The dots sit on one baseline: their centres lie within this many line heights of each other.
MAX_DOT_SPREAD = 0.25
# A leader leads to a page number (an index, a table of contents) or a price: what follows the
# dots starts with a digit, a roman numeral or a currency sign. An entry whose numbers go on the
# next row has no right-hand piece on its row but the next column's entry, which does not.
LEADS_TO = re.compile(r"^\W{0,2}(\d|[ivxlcdm]+\b|[IVXLCDM]+\b|[$€£¥])")
# Two lines are pieces of one row when they overlap by this share of the lower one's height.
ROW_OVERLAP = 0.5


def join_at_leaders(image: np.ndarray, lines: list[Line], rules: InkRules = INK) -> list[Line]:
    """The lines with each pair that a dot leader joins made one, in the first one's place."""
    flat = [ln for ln in lines if not ln.vertical]
    if len(flat) < 2:
        return list(lines)
    height = statistics.median(ln.box.height for ln in flat)
    merged = list(lines)
    changed = True
    while changed:
        changed = False
        for left in merged:
            right = _next_on_row(left, merged)
            if right is None or right.box.x0 - left.box.x1 < MAX_DOT_SPACING * height / 2 \
                    or not LEADS_TO.match(right.text):
                continue  # close pieces are the paragraph builder's to join
            dots = leader_dots(image, left, right, height, rules)
            if dots:
                joined = _join(left, right, dots)
                merged = [joined if ln is left else ln for ln in merged if ln is not right]
                changed = True
                break
    return merged


def _next_on_row(line: Line, lines: list[Line]) -> Line | None:
    """The nearest line to the right that shares the row."""
    best = None
    for other in lines:
        if other is line or other.vertical or line.vertical or other.box.x0 < line.box.x1:
            continue
        overlap = min(other.box.y1, line.box.y1) - max(other.box.y0, line.box.y0)
        if overlap < ROW_OVERLAP * min(other.box.height, line.box.height):
            continue
        if best is None or other.box.x0 < best.box.x0:
            best = other
    return best


def leader_dots(image: np.ndarray, left: Line, right: Line, height: float,
                rules: InkRules = INK) -> list[Box]:
    """The dots between two lines of a row, in page pixels; empty when what lies between them
    is not a dot leader (nothing, a word, a rule, a figure's edge)."""
    # The rows both lines share, less their top third: the dots sit on the baseline, and the
    # boxes' edges can reach into the descenders and ascenders of the rows around.
    top, bottom = max(left.box.y0, right.box.y0), min(left.box.y1, right.box.y1)
    y0 = int(max(top + (bottom - top) / 3, 0))
    y1 = int(np.ceil(bottom))
    x0, x1 = int(max(left.box.x0, 0)), int(np.ceil(right.box.x1))
    ink = ink_map(image[y0:y1, x0:x1])
    if ink is None:
        return []
    a, b = int(left.box.x1) - x0, int(np.ceil(right.box.x0)) - x0
    if b - a < 1:
        return []
    gap = (ink[:, a:b] > rules.mark).astype(np.uint8)
    count, _, stats, centres = cv2.connectedComponentsWithStats(gap, connectivity=8)
    dots = []
    for k in range(1, count):
        gx, gy, w, h, _ = stats[k]
        if w > MAX_DOT * height or h > MAX_DOT * height:
            return []  # something other than a dot lies between the words
        dots.append((x0 + a + gx, y0 + gy, w, h, centres[k][1]))
    if len(dots) < MIN_DOTS:
        return []
    dots.sort()
    xs = [d[0] + d[2] / 2 for d in dots]
    steps = [b2 - a2 for a2, b2 in zip(xs, xs[1:])]
    pitch = statistics.median(steps)
    # Evenly spaced, and reaching the words on both sides within two of its steps: a leader
    # that stops at a column's edge, with the gutter and the next column beyond, does not.
    if max(steps) > MAX_DOT_SPACING * height or max(steps) > 2 * pitch \
            or xs[0] - left.box.x1 > 2 * pitch + 0.3 * height \
            or right.box.x0 - xs[-1] > 2 * pitch + 0.3 * height:
        return []
    centres_y = [d[4] for d in dots]
    if max(centres_y) - min(centres_y) > MAX_DOT_SPREAD * height:
        return []
    return [Box(float(x), float(y), float(x + w), float(y + h)) for x, y, w, h, _ in dots]


def _join(left: Line, right: Line, dots: list[Box]) -> Line:
    leader = " ".join("." for _ in dots)
    words = ()
    if left.words and right.words:
        words = left.words + tuple(Word(".", dot) for dot in dots) + right.words
    return Line(text=f"{left.text} {leader} {right.text}", box=left.box.union(right.box),
                score=min(left.score, right.score), font_size=left.font_size, bold=left.bold,
                words=words)
