"""The rules of reading a code listing cell by cell (engine/structure/code_cells.py,
code_reread.py), as data: chosen on generated code screenshots (tools/uishots, seed 7), not on
the set the README reports (seed 1)."""

from __future__ import annotations

from dataclasses import dataclass

LIGATURES = frozenset({"fi", "fl", "ff"})


@dataclass(frozen=True)
class CellRules:
    centre_share: float = 0.6
    """A cell is inked when ink lies in its middle this share of its width (a wide glyph's
    serif reaches into the next cell, a narrow one, "|" or ".", sits mid-cell)."""
    min_ink_share: float = 0.015
    """... covering at least this share of that middle."""
    foot_top: float = 0.72
    """A foot cell's ink starts no higher than this share of the row's height down."""
    foot_width: float = 0.6
    """... and spans at least this share of the cell's width (a full stop does not)."""
    dash_thin: float = 0.12
    """A dash cell's ink is one run of rows at most this share of the row's height, ..."""
    dash_middle: tuple[float, float] = (0.3, 0.8)
    """... its centre this far down the row, ..."""
    dash_width: float = 0.35
    """... and it spans at least this share of the cell's width (a hyphen is narrower than an
    underscore)."""
    foot_below: float = 0.15
    """Rows are searched this share of their height below their box (an underscore hangs
    under the baseline, where a detector's box may end)."""
    space_on_ink: float = 1.5
    char_on_empty: float = 1.5
    space_on_foot: float = 0.3
    """A space the recogniser read where a cell holds an underscore: read as "_"."""
    char_on_foot: float = 0.6
    underscore_on_ink: float = 0.5
    insert_space: float = 0.4
    insert_underscore: float = 0.6
    drop_space: float = 0.4
    unread_ink: float = 1.0
    """Each inked cell past the row's last character (a character nobody read)."""
    short_row: int = 3
    """Rows of at most this many characters are read again when they hold a letter or digit
    (a lone "}" read as "1", "};" as "}i": a crop a glyph or two wide is where the recogniser
    errs most)."""
    ligature: float = 0.1
    """Two characters of LIGATURES on one inked cell: some monospaced fonts (Nimbus Mono PS)
    set "fi" and "ff" as one glyph one cell wide, and browsers use it."""
    band_ink: float = 0.05
    """A blank row between read rows whose band (the rows' median height, inside the listing's
    box) holds ink of at least this share of a cell, ..."""
    band_tall: float = 0.4
    """... standing at least this share of the band's height (not a neighbour's descender),
    holds a row the detector missed (a lone "}")."""
    case_samples: int = 8
    """A listing decides a letter's case by height when it shows at least this many cells of
    x-height letters and of capitals or digits, ..."""
    cap_ratio: float = 1.2
    """... and its capitals stand at least this many times its x-height."""
    missed_length: float = 0.1
    """A missed row's reading is kept when its length is within this share of its ink's
    cells (one character either way on short rows); the row after the last only when it is
    brackets and punctuation as many as its cells."""
    comma_tail: tuple[float, float] = (1.2, 3.2)
    """A last cell whose ink is a dot over a mark this many times the dot's height is a
    semicolon (a comma's tail); an "i" or "j" has a stem four or more dots long."""


CELL_RULES = CellRules()
