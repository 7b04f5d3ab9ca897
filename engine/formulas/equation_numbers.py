"""Equation numbers: a "(13)" at the right end of a display formula's line belongs to the formula.

Read as part of the formula crop, the blank space between the formula and its number comes out as
\\qquad repeated up to the token cap; left out of the formula region, the number becomes a
paragraph of its own. So the number is found among the page's lines, kept out of the crop the
formula model reads, held by the formula region, and written as \\tag{13} in its LaTeX.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.types import Box, Line

EQUATION_NUMBER = re.compile(r"^\((\d+[a-z]?)\)$")
MAX_GAP_HEIGHTS = 20
"""How far right of the formula a number may stand, in heights of the number's line: a short
display formula centred in a column leaves half the column between itself and the number."""
CROP_CLEARANCE_PX = 6
"""Blank kept between the formula's crop and its number: more than the margin a page crop adds
around its box (engine.page.CROP_MARGIN_PX), so no pixel of the number reaches the crop."""


@dataclass(frozen=True)
class NumberedFormula:
    box: Box
    """The formula with its number: what the region holds and the image shows."""
    read_box: Box
    """The formula without its number: what the formula model reads."""
    number: str
    """The number without its parentheses: "13", "4a"."""


def number_text(line: Line) -> str:
    """The number of an equation-number line ("(13)" -> "13"), or ""."""
    match = EQUATION_NUMBER.match("".join(line.text.split()))
    return match.group(1) if match else ""


def _beside(formula: Box, number: Box) -> bool:
    """The number sits on the formula's line, at its right end: its middle within the formula's
    height, its left edge right of the formula's middle, and not far past its right edge."""
    return (formula.y0 <= number.center_y <= formula.y1 and number.x0 > formula.center_x
            and number.x0 - formula.x1 <= MAX_GAP_HEIGHTS * number.height)


def numbered_formula(formula: Box, lines: list[Line], taken: list[Box]) -> NumberedFormula | None:
    """The formula in `formula` with the equation number at the right end of its line, or None.
    A line mostly inside a box of `taken` (another region's) is not a candidate."""
    candidates = [ln for ln in lines if number_text(ln) and _beside(formula, ln.box)
                  and all(ln.box.share_inside(box) < 0.5 for box in taken)]
    if not candidates:
        return None
    number = min(candidates, key=lambda ln: ln.box.x0)
    read_x1 = min(formula.x1, number.box.x0 - CROP_CLEARANCE_PX)
    if read_x1 <= formula.x0:
        return None
    return NumberedFormula(formula.union(number.box), Box(formula.x0, formula.y0, read_x1,
                                                           formula.y1), number_text(number))


def tagged(latex: str, number: str) -> str:
    """The LaTeX of a formula with its equation number."""
    return f"{latex} \\tag{{{number}}}"
