"""Vertical CJK writing's thresholds (engine/structure/vertical.py), in one frozen set (STYLE
habit 20). Lengths are in character sizes. Chosen on the generated vertical pages
(`python -m tools.structure`, seed 1, ten pages born-digital and ten scanned, order-sensitive
similarity digital/scanned) and checked on seed 2 (0.999/0.985) and the dev set; how:
docs/adr/0026-rules-as-data.md."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class VerticalRules:
    tall_ratio: float = 1.5
    """An OCR line is a column when its box is this much taller than wide (the ratio at which
    engine/imaging.crop_quad turns a crop to read it as a column)."""
    vertical_page_share: float = 0.5
    """A page is vertical when this share of its characters stand in columns (vertical pages:
    0.998-1.0, every other page 0.0)."""
    column_gap_chars: float = 1.1
    """Pieces of one column follow each other with at most this gap (0.6-1.5 all read
    0.999/0.988)."""
    space_gap_chars: float = 0.5
    """A gap this large inside a column is a space between Latin words."""
    column_pitch_chars: float = 0.9
    """Neighbouring columns of a paragraph stand at most 1 + this apart, centre to centre
    (0.3: 0.981/0.973, 0.6: 0.998/0.988, 0.9-2.0: 0.999/0.988)."""
    same_size: float = 0.3
    """...and are set in the same size within this share (0.1-0.5: 0.999/0.987-0.988)."""
    indent_chars: float = 1.0
    """A column starting this far below its paragraph's top starts a new paragraph (0.5-1.5:
    0.999/0.988, 2.5: 0.991/0.981)."""
    heading_max_columns: int = 3
    """A heading is a paragraph of at most this many columns..."""
    heading_max_chars: int = 60
    """...and characters..."""
    heading_size_ratio: float = 1.15
    """...set this much larger than the body."""


VERTICAL = VerticalRules()
