"""How a table crop's text lines are laid into its cells (engine/tables/cells.py), in one
frozen set (STYLE habit 20), used by cells.py, the table recogniser (recognizer.py) and the
table evidence (evidence.py: a grid cutting through the lines under it). Set by hand with the
table model's cell filling (tools/table_check.py) and kept since; none swept."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TableCellRules:
    keep_whole_share: float = 0.9
    """A line whose best cell holds at least this share of it is kept whole: cell boxes are
    regressed, not exact, and a word poking past a predicted border is no reason to split."""
    same_row_overlap: float = 0.5
    """Cells sharing at least this share of the shorter height with a line are on its row."""
    tightness_weight: float = 1e-3
    """The weight of a cell's IoU with a line beside the share of the line inside it: near
    ties go to the tighter cell."""


TABLE_CELLS = TableCellRules()
