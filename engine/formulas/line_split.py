"""The lines of a multi-line formula image: bands of ink with blank rows between them.

The formula model sees a 64 px high image, so a four-line array gets 16 px per line and reads
poorly; each line alone gets all 64. Not every horizontal gap is a line break, though: limits
above and below a sum, a fraction's numerator and denominator, an accent, a speck. A band counts
as a line only when it is at least `MIN_HEIGHT_SHARE` as tall as the tallest band and spans at
least `MIN_WIDTH_SHARE` of the formula's width. A low band as wide as that (a fraction bar, an
overline, a brace) joins the bands above and below it; any other band joins the neighbour it is
closest to; what is left are the lines. Whether the lines are read one by one is then the model's
call (engine.formulas.model): the split reading must be more confident than the whole.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engine.imaging import INK, InkRules
from engine.types import Box

MIN_HEIGHT_SHARE = 0.3
MIN_WIDTH_SHARE = 0.4


@dataclass(frozen=True)
class FormulaLines:
    bands: list[Box]
    """Top to bottom, in the pixel coordinates (whole rows and columns) of the ink map they were
    found in."""
    align: str
    """The array column spec that lines them up as drawn: "l", "c" or "r"."""


def ink_bands(ink: np.ndarray, rules: InkRules = INK) -> list[Box]:
    """Runs of rows holding ink (`rules.level`), each with the columns its ink spans."""
    rows = ink.max(axis=1) > rules.level
    bands = []
    top = None
    for y, inked in enumerate([*rows, False]):
        if inked and top is None:
            top = y
        elif not inked and top is not None:
            cols = np.flatnonzero(ink[top:y].max(axis=0) > rules.level)
            bands.append(Box(int(cols[0]), top, int(cols[-1]) + 1, y))
            top = None
    return bands


def _merge_non_lines(bands: list[Box], width: int) -> list[Box]:
    bands = list(bands)
    while len(bands) > 1:
        tallest = max(b.height for b in bands)
        weak = next((i for i, b in enumerate(bands)
                     if b.height < MIN_HEIGHT_SHARE * tallest
                     or b.width < MIN_WIDTH_SHARE * width), None)
        if weak is None:
            break
        band = bands[weak]
        neighbours = []
        if weak > 0:
            neighbours.append((band.y0 - bands[weak - 1].y1, weak - 1))
        if weak + 1 < len(bands):
            neighbours.append((bands[weak + 1].y0 - band.y1, weak + 1))
        if band.width >= MIN_WIDTH_SHARE * width:
            # Low but wide: a fraction bar, an overline or a brace binds what is above and below.
            group = [weak, *(index for _, index in neighbours)]
        else:
            group = [weak, min(neighbours)[1]]
        first, last = min(group), max(group)
        joined = bands[first]
        for other in bands[first + 1:last + 1]:
            joined = joined.union(other)
        bands[first:last + 1] = [joined]
    return bands


def _alignment(bands: list[Box], width: int) -> str:
    """The edge (or centre) the lines agree on best."""
    def spread(values: list[float]) -> float:
        return (max(values) - min(values)) / max(1, width)
    return min([(spread([b.x0 for b in bands]), "l"),
                (spread([b.center_x for b in bands]), "c"),
                (spread([b.x1 for b in bands]), "r")])[1]


def formula_lines(ink: np.ndarray, rules: InkRules = INK) -> FormulaLines | None:
    """The lines of an ink map (see the module docstring), or None for a one-line formula."""
    bands = ink_bands(ink, rules)
    if len(bands) < 2:
        return None
    width = max(b.x1 for b in bands) - min(b.x0 for b in bands)
    lines = _merge_non_lines(bands, width)
    if len(lines) < 2:
        return None
    return FormulaLines(lines, _alignment(lines, width))
