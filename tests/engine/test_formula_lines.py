"""Finding the lines of a multi-line formula image, and not mistaking limits, fraction parts or
accents for lines."""

from __future__ import annotations

import numpy as np

from engine.formulas.line_split import formula_lines, ink_bands
from engine.types import Box


def ink_with(*boxes: tuple[int, int, int, int], shape=(120, 400)) -> np.ndarray:
    """An ink map with solid boxes (top, bottom, left, right)."""
    ink = np.zeros(shape, np.float32)
    for top, bottom, left, right in boxes:
        ink[top:bottom, left:right] = 1.0
    return ink


def test_bands_are_runs_of_inked_rows_with_their_columns():
    ink = ink_with((10, 30, 5, 300), (40, 62, 20, 390))
    assert ink_bands(ink) == [Box(5, 10, 300, 30), Box(20, 40, 390, 62)]


def test_three_left_aligned_lines_are_lines():
    ink = ink_with((5, 30, 10, 390), (40, 65, 10, 320), (75, 100, 10, 250))
    lines = formula_lines(ink)
    assert lines is not None
    assert [(b.y0, b.y1) for b in lines.bands] == [(5, 30), (40, 65), (75, 100)]
    assert lines.align == "l"


def test_centred_and_right_aligned_lines_say_so():
    centred = formula_lines(ink_with((5, 30, 10, 390), (40, 65, 60, 340)))
    right = formula_lines(ink_with((5, 30, 10, 390), (40, 65, 150, 390)))
    assert centred.align == "c"
    assert right.align == "r"


def test_a_one_line_formula_has_no_lines():
    assert formula_lines(ink_with((20, 60, 10, 390))) is None
    assert formula_lines(np.zeros((50, 50), np.float32)) is None


def test_limits_above_and_below_stay_with_their_line():
    # "n" over a sum, "i=1" under it: narrow bands join the line they are closest to.
    ink = ink_with((5, 15, 40, 60), (20, 60, 10, 390), (65, 75, 30, 80))
    assert formula_lines(ink) is None


def test_a_fraction_is_one_line_even_with_wide_numerator_and_denominator():
    # numerator, bar, denominator: the low wide bar binds both.
    ink = ink_with((5, 35, 20, 380), (40, 42, 10, 390), (47, 77, 20, 380))
    assert formula_lines(ink) is None


def test_an_overline_on_the_first_of_two_lines_stays_on_it():
    ink = ink_with((2, 4, 10, 300), (8, 35, 10, 390), (45, 72, 10, 390))
    lines = formula_lines(ink)
    assert lines is not None
    assert [(b.y0, b.y1) for b in lines.bands] == [(2, 35), (45, 72)]


def test_a_short_low_line_is_not_a_line_of_its_own():
    # A small second band (a footnote mark, subscripts hanging below) joins the line above.
    ink = ink_with((5, 60, 10, 390), (66, 80, 10, 390))
    assert formula_lines(ink) is None
