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
    grow: float = 0.3
    """A word beside a math word is math when the classifier gives it at least this
    (`choose_spans.py --grow`: 0.1-0.5 alike on seed 3)."""
    functions_join: bool = True
    """A function's name between two math words joins them as a sign does ("2 cos t";
    `choose_spans.py --grow`)."""
    join_lines: bool = True
    """A formula the OCR cut between two lines of a block, a sign at the cut, is one span
    (`choose_spans.py --grow`, found on training seed 11)."""
    crop_rows: str = "ink"
    """How much of a span's height the formula model reads: "words" (its words' boxes) or "ink"
    (the rows of ink joined to them in its line's band, which hold an inline fraction's rows;
    `choose_spans.py --crops`: docs/results/mathset_spans_crops.json)."""
    ink_pixels: int = 2
    """A row of a span's crop holds ink when this many of its pixels are darker than halfway
    between paper and ink (set by hand; not swept)."""
    prose_runs: tuple[str, ...] = ("settings", "words", "quantities", "numbers", "glued")
    """Which shapes of a found run are prose, not math: named settings, English words at its
    ends, a quantity with a unit, bare numbers, a prose word glued to a formula
    (`choose_spans.py --prose`: every one kept)."""
    scripts: bool = True
    """A short word whose ink shows a subscript or power the OCR wrote flat ("Yi" for Y_i,
    "108" for 10^8; engine/formulas/inline_scripts.py) is math, its script written as one
    (`choose_spans.py --scripts`)."""
    min_characters: int = 2
    """A classified run of fewer characters than this stays text (set by hand; not swept)."""
    pad: float = 0.2
    """A span's box reaches this share of the line's height past its words (scripts, bars;
    set by hand; not swept)."""
    crop_pad: float = 0.05
    """Around a span's words, this share of the line's height is read with it by the formula
    model (set by hand; not swept)."""


INLINE_SPANS = InlineSpanRules()
