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

from collections.abc import Sequence

import cv2
import numpy as np

from engine.tables.cell_rules import TABLE_CELLS, TableCellRules
from engine.tables.cells import boxes_array, row_cells
from engine.tables.evidence_rules import TABLE_EVIDENCE, TableEvidenceRules
from engine.tables.recognizer import TableResult
from engine.types import Line

def ruled(crop: np.ndarray, rules: TableEvidenceRules = TABLE_EVIDENCE) -> bool:
    """Two or more long straight dark lines across the region, or one down it."""
    gray = crop if crop.ndim == 2 else cv2.cvtColor(crop, cv2.COLOR_RGB2GRAY)
    ink = (gray < rules.ink_level).astype(np.uint8)
    height, width = ink.shape
    across = cv2.morphologyEx(ink, cv2.MORPH_OPEN,
                              np.ones((1, max(2, int(rules.rule_share * width))), np.uint8))
    down = cv2.morphologyEx(ink, cv2.MORPH_OPEN,
                            np.ones((max(2, int(rules.rule_share * height)), 1), np.uint8))
    rows = np.flatnonzero(across.any(axis=1))
    lines_across = 0 if rows.size == 0 else 1 + int(np.count_nonzero(np.diff(rows) > 1))
    return lines_across >= 2 or bool(down.any())


def is_prose_columns(result: TableResult, crop: np.ndarray,
                     rules: TableEvidenceRules = TABLE_EVIDENCE) -> bool:
    """Columns of prose without ruling lines: a single column of anything (no grid), two whose
    cells read like sentences, or more whose cells hold paragraphs."""
    if not result.ok:
        return False
    if result.n_cols == 1:  # a justified paragraph in capitals was a one-column "table"
        return not ruled(crop, rules)
    texts = [cell.text for cell in result.cells if cell.text.strip()]
    needed = rules.prose_words if result.n_cols == 2 else rules.prose_words_wide
    if not texts or sum(len(t.split()) for t in texts) / len(texts) < needed:
        return False
    return not ruled(crop, rules)


def cuts_through_lines(result: TableResult, lines: Sequence[Line],
                       rules: TableEvidenceRules = TABLE_EVIDENCE,
                       cell_rules: TableCellRules = TABLE_CELLS) -> bool:
    """The table's cells split most of the region's text lines (`cut_share` of them); a line
    reaches the cells of its row (`cell_rules`: engine/tables/cell_rules.py)."""
    if not result.ok or len(result.cells) < 2:
        return False
    cells = boxes_array([cell.box for cell in result.cells])
    counted = cut = 0
    for line in lines:
        if len(line.text.split()) < 2:
            continue
        box = line.box
        reached = row_cells(box, cells, cell_rules)
        overlaps = np.minimum(cells[reached, 2], box.x1) - np.maximum(cells[reached, 0], box.x0)
        counted += 1
        cut += int(np.count_nonzero(overlaps >= box.height) >= 2)
    return counted >= rules.cut_min_lines and cut >= rules.cut_share * counted


def is_leader_list(result: TableResult, lines: Sequence[str] = (),
                   rules: TableEvidenceRules = TABLE_EVIDENCE) -> bool:
    """An index or a table of contents: dot leaders between entries and their page numbers, in
    its cells, or in its text `lines` when the table model could not parse it (a page-long
    index is too large for it; kept as a table, it became an image with its lines read across
    its columns)."""
    texts = [cell.text for cell in result.cells] if result.ok else list(lines)
    texts = [text for text in texts if text.strip()]
    leaders = sum(1 for text in texts if rules.leader.search(text))
    return leaders >= rules.leader_cells and leaders >= rules.leader_share * len(texts)
