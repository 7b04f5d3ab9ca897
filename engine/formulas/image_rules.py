"""Whether an image input is one formula (ADR 0005): the thresholds of engine/formulas/
image_rule.py, in one frozen set (STYLE habit 20). Chosen on the generated set of
`python -m tools.formula_images` (seed 1: 250 formula images, 250 screenshots of text) and checked
on seed 2; shares are of the set's formula images kept with no text image taken. How each was
chosen: docs/adr/0026-rules-as-data.md."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class FormulaImageRules:
    dark_paper_level: int = 110
    """Paper (the frame's commonest grey) below this is a dark background, inverted before its
    ink is read (dark themes: 0-55, light: 230-255; seed 1's dark formulas 0 -> 0.82 read)."""
    frame_px: int = 2
    """The paper is judged on this many outer rows and columns (a formula crop can be mostly
    ink, its frame is still paper)."""
    max_regions: int = 3
    """More layout regions than this is a page or a screenshot of several blocks (seed 1's
    formulas: at most 3)."""
    max_words: int = 5
    """OCR words of four letters or more beyond this are prose (seed 1: 0.924 kept; 3: 0.912)."""
    min_confidence: float = 0.60
    """A doubtful reading (under reading.LOW_CONFIDENCE) is still taken this confident (seed 1:
    0.924 at 0.55-0.60; 0.50 takes a code line)."""
    max_spelled_share: float = 0.3
    """...and with at most this share of its tokens letters spelled out (0.3-0.4 alike; 0.5
    takes a code line)."""
    confident_max_spelled_share: float = 0.7
    """A confident reading more spelled out than this is text (seed 1: 0.916 kept, a TeX heading
    no more taken; the formula set spells out 0.42 at most)."""
    spelled_run: int = 3
    """Single letters in runs of this many or more are spelled out (`c a n h a v e`)."""
    math_lookalikes: frozenset[str] = frozenset("一二三十丨口工土人八干")
    """What the OCR recogniser makes of formula signs in its CJK alphabet ("=" -> 二, "+" -> 十,
    a fraction bar -> 一; formula-set images 582 and 860): not evidence of Chinese text."""


FORMULA_IMAGE = FormulaImageRules()
