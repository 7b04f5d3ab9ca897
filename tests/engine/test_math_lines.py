"""Display formulas the layout model missed: loose math-like lines grouped into formula regions."""

import numpy as np

from engine.formulas.reading import FormulaReading
from engine.formulas.loose_lines import display_lines, is_math_line, is_piece, math_groups
from engine.formulas.stage import find_math_lines
from engine.options import ConvertOptions
from engine.page import PageState
from engine.types import BlockKind, Box, Line, Region
from formula_fakes import FakeModels, FakeRecognizer


def line(text, x0, y0, x1, y1):
    return Line(text, Box(float(x0), float(y0), float(x1), float(y1)))


# The integral of a real text layer (olmOCR mathfuncs page): the sign, the integrand split in two,
# and the limits are five loose lines.
INTEGRAL = [line("\u200b f(x) dx =", 472, 991, 618, 1037), line("∫", 427, 997, 438, 1037),
            line("a", 438, 1043, 452, 1072), line("b", 456, 962, 470, 990),
            line("F(b) − F(a)", 629, 991, 825, 1037)]
PROSE = [line("Establishes that differentiation and integration are inverse", 203, 1124, 968, 1160),
         line("equals F(b) - F(a). Revolutionized mathematical problem-", 203, 1164, 961, 1200)]


def test_math_lines_and_pieces():
    assert is_math_line(line("e iπ + 1 = 0", 0, 0, 10, 10))
    assert not is_math_line(PROSE[1])  # a sign among prose words is prose
    assert not is_math_line(line("Chapter 3", 0, 0, 10, 10))
    assert is_piece(line("b", 0, 0, 1, 1)) and not is_piece(line("\u200b", 0, 0, 1, 1))


def test_the_pieces_of_one_formula_form_one_group_and_prose_stays_out():
    [box] = math_groups(INTEGRAL + PROSE, covered=[])
    assert box == Box(427.0, 962.0, 825.0, 1072.0)


def test_lines_inside_a_layout_region_are_left_to_it():
    assert math_groups(INTEGRAL, covered=[Box(400, 950, 850, 1080)]) == []


def test_pieces_alone_make_no_formula():
    assert math_groups([line("a", 0, 0, 10, 20), line("b", 12, 0, 22, 20)], covered=[]) == []


class FakePage(PageState):
    """A page whose crops are black boxes of the asked size, and whose margins are zero."""

    def crop(self, box):
        return np.zeros((int(box.y1 - box.y0), int(box.x1 - box.x0), 3), np.uint8)

    def crop_bounds(self, box):
        return int(box.x0), int(box.y0), int(box.x1), int(box.y1)


def FakeWork(lines, regions, kind=FakePage):
    return kind(document=None, page_number=1, options=ConvertOptions(),
                image=np.full((1400, 1400, 3), 255, np.uint8), lines=tuple(lines),
                regions=None if regions is None else tuple(regions))


def test_a_confident_math_reading_becomes_a_formula_region():
    latex = "\\int _ { a } ^ { b } f ( x ) d x = F ( b ) - F ( a )"
    work = FakeWork(INTEGRAL + PROSE, [Region(BlockKind.TEXT, Box(200, 1120, 1000, 1280))])
    work = find_math_lines(work, FakeModels(FakeRecognizer(FormulaReading(latex, 0.95, 20))))
    assert [r.kind for r in work.regions] == [BlockKind.TEXT, BlockKind.FORMULA]
    assert work.regions[1].box == Box(427.0, 962.0, 825.0, 1072.0)
    assert [r.formula and r.formula.latex for r in work.regions] == [None, latex]
    assert work.crops == ()


def test_doubtful_or_textual_readings_leave_the_lines_as_text():
    for reading in (FormulaReading("x = 1", 0.5, 3), FormulaReading("\\text { a b }", 0.95, 5),
                    None):
        work = find_math_lines(FakeWork(INTEGRAL, []), FakeModels(FakeRecognizer(reading)))
        assert work.regions == ()


def test_no_layout_or_no_math_costs_no_reading():
    recognizer = FakeRecognizer(FormulaReading("x", 0.99, 1))
    find_math_lines(FakeWork(INTEGRAL, None), FakeModels(recognizer))
    find_math_lines(FakeWork(PROSE, []), FakeModels(recognizer))
    assert recognizer.crops == []


def two_equations(height=120, width=200) -> np.ndarray:
    """White crop with two dark lines of ink, 30 and 50 px high (the second has a fraction)."""
    crop = np.full((height, width, 3), 255, np.uint8)
    crop[10:40, 20:170] = 0
    crop[60:110, 5:195] = 0
    return crop


def test_a_group_of_two_stacked_equations_is_two_lines_on_the_page():
    group = Box(1433.0, 1077.0, 1648.0, 1250.0)
    boxes = display_lines(group, two_equations(), origin=(1429, 1073))
    assert boxes == [Box(1449, 1083, 1599, 1113), Box(1434, 1133, 1624, 1183)]


def test_a_group_of_one_line_stays_whole():
    crop = np.full((60, 200, 3), 255, np.uint8)
    crop[10:50, 10:190] = 0
    group = Box(0.0, 0.0, 200.0, 60.0)
    assert display_lines(group, crop, origin=(0, 0)) == [group]
    assert display_lines(group, np.full((60, 200, 3), 255, np.uint8), origin=(0, 0)) == [group]


def test_two_stacked_equations_become_two_formula_regions():
    class TwoLinePage(FakePage):
        def crop(self, box):
            return two_equations(int(box.y1 - box.y0), int(box.x1 - box.x0))

    recognizer = FakeRecognizer(FormulaReading("x = 1", 0.95, 3))
    work = find_math_lines(FakeWork(INTEGRAL, [], TwoLinePage), FakeModels(recognizer))
    assert [r.kind for r in work.regions] == [BlockKind.FORMULA, BlockKind.FORMULA]
    assert work.regions[0].box.y1 <= work.regions[1].box.y0
