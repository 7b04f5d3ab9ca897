"""When a table region is a table: the grid evidence's thresholds, in one frozen set (STYLE
habit 20), used by engine/tables/evidence.py and, for ruling lines, engine/tables/lineless.py.
Chosen on the dev set's tables (15) and the real pages of `python -m tools.structure published`
(seed 1: 14 tables, 85 index, contents and list regions the layout model called tables); how:
docs/adr/0026-rules-as-data.md."""

from __future__ import annotations

import re
from dataclasses import dataclass, field


@dataclass(frozen=True)
class TableEvidenceRules:
    rule_share: float = 0.6
    """A ruling line runs across at least this share of the region (horizontal) or down it
    (vertical)."""
    ink_level: int = 128
    """Grey levels below this are a ruling line's ink."""
    prose_words: float = 4.0
    """Two columns whose cells hold this many words on average read as prose (generated
    textbooks' two-column exercise lists: 6-10 words a cell)."""
    prose_words_wide: float = 8.0
    """Three or more unruled columns whose cells hold this many words on average are paragraphs
    (real tables: 3.5 at most; a broadsheet boxed as one table: 131)."""
    cut_share: float = 0.55
    """A grid cuts through the text when this share of the region's lines of two words or more
    reach into two cells of their row or more (real tables: 0.4 at most; a broadsheet: 0.65)."""
    cut_min_lines: int = 10
    """...counted over at least this many such lines."""
    leader: re.Pattern[str] = field(default=re.compile(r"(?:\. ?){4,}|\u2026"))
    """Dot leaders: four or more dots, spaced or not, or an ellipsis character."""
    leader_cells: int = 2
    """A table is an index or a table of contents when at least this many of its cells carry
    leaders (no real table has one; 79 of the 85 index and contents regions do)..."""
    leader_share: float = 0.05
    """...and this share of the cells holding text."""


TABLE_EVIDENCE = TableEvidenceRules()
