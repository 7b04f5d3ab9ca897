"""OCR lines that run across a column gutter, cut at the gutter.

On scans with narrow gutters the text detector can join a line of one column with the line
beside it in the next column. The joined line lies across two columns, belongs to neither, and
its words land in the wrong place in reading order (on generated newspaper scans, order
similarity 0.58-0.86 where the words were 0.95-0.99 right). The layout model sees the columns:
a line lying across side-by-side text regions is cut at the emptiest pixel column of each
gutter, and the parts are read again."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engine.imaging import INK, InkRules, ink_map
from engine.ocr.column_edges import column_edge_cuts
from engine.types import BlockKind, Box, Line, Region

# The regions that are columns of running text; a heading across columns is one region, so a
# line inside it is never cut.
COLUMN_KINDS = frozenset({BlockKind.TEXT, BlockKind.LIST_ITEM, BlockKind.CAPTION,
                          BlockKind.FOOTNOTE, BlockKind.REFERENCE, BlockKind.SECTION_HEADER,
                          BlockKind.TITLE})
# A line is cut only when over each of two regions lies at least this share of the line's width
# or of the region's, whichever is narrower: a line that only grazes its neighbour column (a
# region drawn a little wide) stays whole, and a line joined across five columns (the first
# lines of an article's columns, side by side under its headline) is cut, though no column
# holds a fifth of it. Measured on the randomised newspapers (tools/structure `broadsheet`,
# seed 1, 20 scanned pages): the share of the line's width alone read 0.833, this 0.841; the
# unit tests keep a graze of a few pixels whole.
MIN_PART_SHARE = 0.2
# Two regions are side by side when their widths overlap by at most this much of the narrower.
MAX_COLUMN_OVERLAP = 0.15
# A part narrower than this many line heights is a stray mark, not text. A two-letter word is
# about half a line height wide ("of", 14 px in a 27 px line): at 0.8 a justified row's last
# word, joined by the detector onto the next column's first line, stayed there and opened that
# column's paragraph (a generated newspaper scan, seed 1, newspaper-006: 0.875 -> 1.000).
MIN_PART_HEIGHTS = 0.4


@dataclass(frozen=True)
class Cut:
    line: Line
    parts: tuple[Box, ...]


def column_parts(line: Line, regions: list[Region]) -> list[Region]:
    """The column regions a line lies across, left to right (empty or one: nothing to cut)."""
    box = line.box
    width = max(box.width, 1.0)
    mid_y = box.center_y
    over = [r for r in regions
            if r.kind in COLUMN_KINDS and r.box.y0 <= mid_y <= r.box.y1
            and _overlap(box.x0, box.x1, r.box.x0, r.box.x1)
            >= MIN_PART_SHARE * min(width, r.box.width)]
    over.sort(key=lambda r: r.box.center_x)
    parts: list[Region] = []
    for region in over:
        if parts and _overlap(parts[-1].box.x0, parts[-1].box.x1, region.box.x0, region.box.x1) \
                > MAX_COLUMN_OVERLAP * min(parts[-1].box.width, region.box.width):
            continue  # nested or stacked regions, not a gutter between them
        parts.append(region)
    return parts


def gutter_x(ink: np.ndarray, line: Line, left: Box, right: Box) -> float:
    """Page x of the cut between two columns: in the middle of the widest run of the emptiest
    pixel columns of the line's ink, searched between the two regions' facing edges (widened by
    half a line height, since a region's edge can sit a few pixels into its text)."""
    pad = 0.5 * line.box.height
    lo = max(line.box.x0, min(left.x1, right.x0) - pad)
    hi = min(line.box.x1, max(left.x1, right.x0) + pad)
    a, b = int(lo - line.box.x0), int(np.ceil(hi - line.box.x0))
    profile = ink.sum(axis=0)[max(a, 0):max(b, a + 1)]
    if profile.size == 0:
        return (lo + hi) / 2
    emptiest = profile <= profile.min() + 1e-3 * max(ink.shape[0], 1)
    best_start, best_len, start = 0, 0, None
    for i, empty in enumerate(np.append(emptiest, False)):
        if empty and start is None:
            start = i
        elif not empty and start is not None:
            if i - start > best_len:
                best_start, best_len = start, i - start
            start = None
    return line.box.x0 + max(a, 0) + best_start + best_len / 2


def plan_cuts(image: np.ndarray, lines: list[Line], regions: list[Region],
              rules: InkRules = INK) -> list[Cut]:
    """The lines to cut and the boxes of their parts, in page pixels: at the gutters between
    side-by-side regions and at the column edges the lines around show
    (engine/ocr/column_edges.py). Each part is narrowed to its ink, so that the gutter between
    two parts stays open for the paragraph builder to see."""
    cuts = []
    at_edges = column_edge_cuts(image, lines, rules)
    for index, line in enumerate(lines):
        parts = column_parts(line, regions)
        if len(parts) < 2 and index not in at_edges:
            continue
        box = line.box
        x0, y0 = max(int(box.x0), 0), max(int(box.y0), 0)
        ink = ink_map(image[y0:int(np.ceil(box.y1)), x0:int(np.ceil(box.x1))])
        if ink is None:
            continue
        inside = [gutter_x(ink, line, a.box, b.box) for a, b in zip(parts, parts[1:])]
        inside += [x for x in at_edges.get(index, [])
                   if all(abs(x - other) > box.height for other in inside)]
        edges = [box.x0, *sorted(inside), box.x1]
        pieces = tuple(piece for left, right in zip(edges, edges[1:])
                       if (piece := _inked(ink, box, left, right, rules)).width
                       >= MIN_PART_HEIGHTS * box.height)
        if len(pieces) >= 2:
            cuts.append(Cut(line, pieces))
    return cuts


def _inked(ink: np.ndarray, box: Box, left: float, right: float, rules: InkRules = INK) -> Box:
    """The part of the line between two page x, narrowed to the pixel columns holding ink."""
    a = max(int(left - box.x0), 0)
    columns = np.flatnonzero((ink[:, a:int(np.ceil(right - box.x0))] > rules.mark).any(axis=0))
    if columns.size == 0:
        return Box(left, box.y0, right, box.y1)
    start = max(int(box.x0), 0) + a
    return Box(max(left, float(start + columns[0])), box.y0,
               min(right, float(start + columns[-1] + 1)), box.y1)


def _overlap(a0: float, a1: float, b0: float, b1: float) -> float:
    return max(0.0, min(a1, b1) - max(a0, b0))
