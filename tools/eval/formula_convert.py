"""The formula set as a user meets it: each image through a plain conversion (`Engine.convert`
with default options, what `paperlens-cli convert formula.png` does), the LaTeX taken from the
formula blocks of the result. An image the conversion reads as text or as a figure has no
reading, which scores 0, so this is the recogniser's figure minus what the decision to read an
image as a formula costs."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.types import BlockKind
from tools.eval.formula_items import FormulaItem


@dataclass(frozen=True)
class ConvertedReading:
    """The part of a formula reading that scoring looks at."""

    latex: str
    confidence: float | None


def read_through_convert(engine, items: Sequence[FormulaItem]) -> list[ConvertedReading | None]:
    """One reading per item: the formula blocks' LaTeX (rows joined by \\\\ when the image
    came out as several), or None when the conversion found no formula."""
    from engine.options import ConvertOptions

    readings: list[ConvertedReading | None] = []
    for item in items:
        if item.span is not None:
            raise ValueError(f"{item.id} is a render inside a chunk file; convert reads files")
        result = engine.convert(item.image_path, ConvertOptions())
        formulas = [b.formula for page in result.pages for b in page.blocks
                    if b.kind is BlockKind.FORMULA and b.formula and b.formula.latex]
        if not formulas:
            readings.append(None)
            continue
        confidences = [f.confidence for f in formulas if f.confidence is not None]
        readings.append(ConvertedReading(
            latex=" \\\\ ".join(f.latex for f in formulas),
            confidence=min(confidences) if confidences else None))
    return readings
