"""Whether a table region is a table: a grid needs evidence, two columns of prose are not one.

The layout model calls some column-set text a table: a numbered exercise list in two columns, a
transcript with its line numbers in a gutter. Kept as a table, its sentences are cut into cells.
A region is taken as text when no ruling lines cross it and the table model found one column
(a justified paragraph in capitals, on a generated newspaper page), or two whose cells read
like prose (several words each), or more columns whose cells hold whole paragraphs. An index
or a table of contents (entries, dot leaders, page numbers, in two to five columns) is text too:
a grid of its pieces reads as soup. So is a grid that cuts through most of the text lines under
it: a table's cells hold its lines, a newspaper's columns the table model splits do not."""

from __future__ import annotations

import re
from collections.abc import Sequence

import cv2
import numpy as np

from engine.tables.cells import boxes_array, row_cells
from engine.tables.recognizer import TableResult
from engine.types import Line

# A ruling line runs across at least this share of the region (horizontal) or down it (vertical).
RULE_SHARE = 0.6
# Cells holding this many words on average read as prose. On the generated textbooks' two-column
# exercise lists (8 pages) cells held 6-10 words; the dev set's tables (12 crops and pages) keep
# their ruling lines or at least three columns, so none is touched (make eval, table category).
PROSE_WORDS = 4.0
# With three or more columns and no ruling lines, cells holding this many words on average are
# paragraphs. Chosen on the dev set (15 tables) and the 80 real pages of `python -m tools.structure
# published` (14 tables, born-digital and scanned): no table there of three or more columns
# averages more than 3.5 words a cell, ruled or not (unruled: 2.8 at most); a full-size
# broadsheet page (tools/structure, `broadsheet_full`) boxed as one four-column "table" held 131.
PROSE_WORDS_WIDE = 8.0
# A grid cuts through the text when at least this share of the region's lines of two or more
# words each reach into two or more cells of their row (by a line height or more), counted over
# at least CUT_MIN_LINES such lines. On the same sets every real table with ten or more lines
# cuts at most 0.4 of them (a dev table whose OCR lines run across its narrow cells, 35 lines);
# most cut none. A full-size broadsheet read as one 15-column table cut 0.65 of its 124 lines.
CUT_SHARE = 0.55
CUT_MIN_LINES = 10
INK_LEVEL = 128
# Dot leaders: four or more dots, spaced or not, or an ellipsis character.
LEADER = re.compile(r"(?:\. ?){4,}|\u2026")
# A table is an index or a table of contents when at least LEADER_CELLS of its cells, and
# LEADER_SHARE of those holding text, carry leaders. Chosen on the 40 real pages of
# `python -m tools.structure published` (seed 1, born-digital and scanned) and the dev set: none
# of the 15 dev tables and none of the 14 real tables of the published pages has a leader cell;
# of the 85 index, contents and list regions the layout model called tables there, 43 were text
# by the prose rules alone, 79 are with this one (the 6 left have at most one leader cell).
LEADER_CELLS = 2
LEADER_SHARE = 0.05


def ruled(crop: np.ndarray) -> bool:
    """Two or more long straight dark lines across the region, or one down it."""
    gray = crop if crop.ndim == 2 else cv2.cvtColor(crop, cv2.COLOR_RGB2GRAY)
    ink = (gray < INK_LEVEL).astype(np.uint8)
    height, width = ink.shape
    across = cv2.morphologyEx(ink, cv2.MORPH_OPEN,
                              np.ones((1, max(2, int(RULE_SHARE * width))), np.uint8))
    down = cv2.morphologyEx(ink, cv2.MORPH_OPEN,
                            np.ones((max(2, int(RULE_SHARE * height)), 1), np.uint8))
    rows = np.flatnonzero(across.any(axis=1))
    lines_across = 0 if rows.size == 0 else 1 + int(np.count_nonzero(np.diff(rows) > 1))
    return lines_across >= 2 or bool(down.any())


def is_prose_columns(result: TableResult, crop: np.ndarray) -> bool:
    """Columns of prose without ruling lines: a single column of anything (no grid), two whose
    cells read like sentences, or more whose cells hold paragraphs."""
    if not result.ok:
        return False
    if result.n_cols == 1:  # a justified paragraph in capitals was a one-column "table"
        return not ruled(crop)
    texts = [cell.text for cell in result.cells if cell.text.strip()]
    needed = PROSE_WORDS if result.n_cols == 2 else PROSE_WORDS_WIDE
    if not texts or sum(len(t.split()) for t in texts) / len(texts) < needed:
        return False
    return not ruled(crop)


def cuts_through_lines(result: TableResult, lines: Sequence[Line]) -> bool:
    """The table's cells split most of the region's text lines (see CUT_SHARE)."""
    if not result.ok or len(result.cells) < 2:
        return False
    cells = boxes_array([cell.box for cell in result.cells])
    counted = cut = 0
    for line in lines:
        if len(line.text.split()) < 2:
            continue
        box = line.box
        reached = row_cells(box, cells)
        overlaps = np.minimum(cells[reached, 2], box.x1) - np.maximum(cells[reached, 0], box.x0)
        counted += 1
        cut += int(np.count_nonzero(overlaps >= box.height) >= 2)
    return counted >= CUT_MIN_LINES and cut >= CUT_SHARE * counted


def is_leader_list(result: TableResult, lines: Sequence[str] = ()) -> bool:
    """An index or a table of contents: dot leaders between entries and their page numbers, in
    its cells, or in its text `lines` when the table model could not parse it (a page-long
    index is too large for it; kept as a table, it became an image with its lines read across
    its columns)."""
    texts = [cell.text for cell in result.cells] if result.ok else list(lines)
    texts = [text for text in texts if text.strip()]
    leaders = sum(1 for text in texts if LEADER.search(text))
    return leaders >= LEADER_CELLS and leaders >= LEADER_SHARE * len(texts)
