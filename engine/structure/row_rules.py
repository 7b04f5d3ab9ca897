"""The thresholds that join pieces of one visual line (engine/structure/rows.py), in one frozen
set (STYLE habit 20), used by rows.py, paragraphs.py (through merge_fragments) and assembly.py
(a word beyond a region's box on one of its rows). Lengths are in line heights. Figures:
order-sensitive similarity on the generated structure set (`python -m tools.structure`, seed 1,
born-digital/scanned) unless said otherwise; how each was reached:
docs/adr/0026-rules-as-data.md."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class RowRules:
    max_word_gap: float = 1.5
    """Pieces of one line are at most this far apart (justified text stretches word gaps past
    one em; column gutters are wider). Set by hand with the justified word gaps; not swept."""
    justified_gap: float = 4.0
    """A justified narrow column's spread words are this far apart at most (scanned seed 1:
    GAP/REACH 3-5, BLANK 0.15-0.35 all 0.9811-0.9815, a plateau)."""
    justified_reach_lines: float = 4.0
    """The rows above and below a wide gap, and a column's full rows, are looked for this far
    (the same sweep)."""
    common_blank: float = 0.25
    """Rows around a wide gap leave no blank column in it wider than this (the same sweep)."""
    paragraph_indent: float = 2.0
    """A row's first piece begins this close to its column's full rows (a paragraph's first
    line is indented by about one; a running head's page number begins far inside). Set by
    hand on the generated broadsheets; not swept."""
    gutter_reach_lines: float = 2.5
    """A gap's neighbours are looked for this far above and below (set with the gutter cut that
    took scanned newspapers, seed 1, 0.876 -> 0.977; not swept alone)."""
    gutter_edge_slack: float = 0.2
    """A neighbour may reach this share of a gap into it and still end before it (real
    two-column pages, seed 1, born-digital: 0.908 with none, 0.938 at 0.2-0.45)."""
    same_height: float = 0.2
    """Lines within this share of the pieces' height are set in their size (set by hand; not
    swept)."""
    flush_lines: float = 0.5
    """A line ends (starts) flush with a piece within this share of its height (set by hand;
    not swept)."""
    flush_rows: int = 2
    """Rows flush with both pieces on the side no line crosses: a gutter (one row of a narrow
    justified column lines up with the next by chance)."""


ROWS = RowRules()
