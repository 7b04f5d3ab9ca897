"""Column edges seen in the lines themselves, for lines joined across a narrow gutter where the
layout model drew one region over several columns (an index or a glossary in three narrow
columns, a table of contents): there no pair of side-by-side regions shows the gutter.

A column's left edge is where several lines in the rows around start, one under the other,
while lines of the column before end just left of it. A line that runs across such an edge, with
blank paper at the edge wider than a word space, is two columns' lines read as one; it is cut
there. A cut made in error (a paragraph's line across a list's indent) costs little: the parts
are joined again when the page's paragraphs are built, since the lines around run across the
same place (engine/structure/paragraphs.py, `_gutter_between`)."""

from __future__ import annotations

import statistics

import numpy as np

from engine.imaging import INK, InkRules, ink_map
from engine.types import Line

# Set from the index pages among the real pages of `python -m tools.structure published`, whose
# gutters are 0.35-0.65 line heights wide where a scanned word space is about a fifth, and
# checked as a whole (scanned pages, order-sensitive similarity): seed 1, 40 pages, 0.790 ->
# 0.794 (two index pages 0.438 -> 0.532 and 0.466 -> 0.534, no page lower); seed 2, held out,
# 0.758 -> 0.766 (five pages up, none lower); the generated set (seed 1, 8 pages per family)
# 0.975 -> 0.976 (two broadsheets and a journal page up, none lower); the dev set the same.
# The rows looked at around a line, in line heights above and below.
WINDOW_LINES = 6.0
# Line starts this close (in line heights) share a column edge ...
EDGE_TOLERANCE = 0.75
# ... and at least this many lines start there ...
MIN_STARTS = 3
# ... while at least this many lines of text (no bullet or number: MIN_END_WIDTH line heights or
# wider) end less than END_REACH line heights left of it.
MIN_ENDS = 2
MIN_END_WIDTH = 3.0
END_REACH = 2.5
# The blank at the edge is at least this many line heights wide (a word space in a scanned line
# is about a fifth of its height), found at most EDGE_SEARCH line heights left of the edge.
MIN_BLANK = 0.35
EDGE_SEARCH = 1.5
# An edge is looked for at least this many line heights inside the line's ends: one word of a
# column (its row's last, "of") can stand before the gutter (two heights missed it there).
EDGE_INSET = 1.0


def column_edge_cuts(image: np.ndarray, lines: list[Line], rules: InkRules = INK
                     ) -> dict[int, list[float]]:
    """Page x of each cut, by index into `lines`."""
    flat = [ln for ln in lines if not ln.vertical and ln.text.strip()]
    if len(flat) < MIN_STARTS + MIN_ENDS:
        return {}
    height = statistics.median(ln.box.height for ln in flat)
    cuts: dict[int, list[float]] = {}
    for index, line in enumerate(lines):
        if line.vertical or line.box.width < 4 * height:
            continue
        edges = _edges(line, flat, height)
        xs: list[float] = []
        for x in sorted(x for x in (_blank_at(image, line, e, height, rules) for e in edges)
                        if x is not None):
            if not xs or x - xs[-1] > height:  # two edges found at the same blank: one cut
                xs.append(x)
        if xs:
            cuts[index] = xs
    return cuts


def _edges(line: Line, lines: list[Line], height: float) -> list[float]:
    """The column edges the line runs across."""
    box = line.box
    near = [other for other in lines if other is not line
            and abs(other.box.center_y - box.center_y) <= WINDOW_LINES * height
            and min(other.box.y1, box.y1) - max(other.box.y0, box.y0)
            < 0.5 * min(other.box.height, box.height)]
    starts = sorted(o.box.x0 for o in near if box.x0 + EDGE_INSET * height < o.box.x0
              < box.x1 - EDGE_INSET * height)
    found, i = [], 0
    while i < len(starts):
        j = i
        while j + 1 < len(starts) and starts[j + 1] - starts[i] <= EDGE_TOLERANCE * height:
            j += 1
        if j - i + 1 >= MIN_STARTS:
            edge = statistics.median(starts[i:j + 1])
            ends = sum(edge - END_REACH * height < o.box.x1 < edge - 0.15 * height
                       and o.box.width >= MIN_END_WIDTH * height for o in near)
            if ends >= MIN_ENDS:
                found.append(edge)
        i = j + 1
    return found


def _blank_at(image: np.ndarray, line: Line, edge: float, height: float,
              rules: InkRules = INK) -> float | None:
    """The middle of the blank run nearest the edge, in the line's middle band (its box reaches
    into the ascenders and descenders of the rows above and below)."""
    box = line.box
    x0 = max(int(box.x0), 0)
    y0, y1 = max(int(box.y0 + 0.2 * box.height), 0), int(np.ceil(box.y1 - 0.2 * box.height))
    ink = ink_map(image[y0:y1, x0:int(np.ceil(box.x1))])
    if ink is None:
        return None
    blank = ~(ink > rules.mark).any(axis=0)
    lo = max(int(edge - EDGE_SEARCH * height) - x0, 0)
    hi = min(int(edge + 0.2 * height) - x0, blank.size)
    best, k = None, lo
    while k < hi:
        if not blank[k]:
            k += 1
            continue
        end = k
        while end < blank.size and blank[end]:
            end += 1
        middle = x0 + (k + end) / 2
        if end - k >= MIN_BLANK * height and (best is None or abs(middle - edge) < abs(best - edge)):
            best = middle
        k = end
    return best
