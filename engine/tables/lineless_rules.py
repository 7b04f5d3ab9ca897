"""Lineless tables on a text layer (engine/tables/lineless.py): the thresholds, in one frozen set
(STYLE habit 20). Lengths are in the page's line heights (a text layer's line box, about 1.3
em). Chosen on the generated tables of `python -m tools.xtables` and the structure set's pages
that must stay text (`python -m tools.structure`), and checked on the dev set."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class LinelessRules:
    cell_gap: float = 0.4
    """Two pieces of a row are two cells when this far apart: a word space is a sixth of a line
    height, a cell's padding either side of a column edge (generated tables: 0.75) more."""
    same_row: float = 0.5
    """Lines share a row when they overlap by this share of the shorter one's height."""
    min_rows: int = 4
    """A table has at least this many rows..."""
    min_cols: int = 3
    """...and this many columns."""
    max_row_step: float = 2.6
    """Rows follow one another: the step from one to the next is at most this many lines."""
    min_filled: float = 0.75
    """Every row fills at least this share of the columns (a blank cell now and then)."""
    max_cell_words: float = 4.0
    """A table's cells are short: at most this many words on average."""
    numeric_share: float = 0.6
    """A column of numbers: this share of the rows below the first hold one there (a Chinese
    newspaper page set in five columns of short lines aligns as a table does, without one)."""
    taken_share: float = 0.6
    """Text, list and table regions this much inside the table are taken into it."""
    min_text_lines: int = 3
    """The table holds at least this many lines of text or list regions (fewer: the layout
    model's table regions hold it, and the table model reads it)."""


LINELESS = LinelessRules()
