"""Which words of an OCR line are an inline formula and where its LaTeX comes from
(engine/formulas/inline_ocr.py), in one frozen set (STYLE habit 20). The switches were chosen
by `python -m tools.mathset.choose_spans` (docs/results/mathset_spans_choice.json and
mathset_spans_prose.json: scanned pages of math-set seed 3, scored as tools/mathset scores
them); how: docs/adr/0026-rules-as-data.md."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class InlineSpanRules:
    span_source: str = "both"
    """Where spans come from: "classifier" (engine/formulas/inline_spans.py), "rules" (the
    character rules alone) or "both", a word either calls math being math (choose_spans.py)."""
    threshold: float = 0.6
    """A word the span classifier gives at least this probability of math is math
    (choose_spans.py: 0.4-0.7 tried)."""
    latex_from: str = "confident"
    """A span's LaTeX: "characters" (spelled from the recognised characters), "model" (the
    formula model's reading of its pixels where it looks like math) or "confident" (that
    reading when it is confident) (choose_spans.py)."""
    prose_runs: tuple[str, ...] = ("settings", "words", "quantities", "numbers")
    """Which shapes of a found run are prose, not math: named settings, English words at its
    ends, a quantity with a unit, bare numbers (`choose_spans.py --prose`: every one kept)."""
    min_characters: int = 2
    """A classified run of fewer characters than this stays text (set by hand; not swept)."""
    pad: float = 0.2
    """A span's box reaches this share of the line's height past its words (scripts, bars;
    set by hand; not swept)."""
    crop_pad: float = 0.05
    """Around a span's words, this share of the line's height is read with it by the formula
    model (set by hand; not swept)."""


INLINE_SPANS = InlineSpanRules()
