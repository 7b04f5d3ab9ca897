"""One block per formula: a layout formula region and a loose math-line group over the same ink
merge into one region read once; an equation number at the right end of a formula's line is
kept out of the crop, held by the formula, and written as \\tag{..}."""

from __future__ import annotations

import numpy as np

from engine.formulas.equation_numbers import numbered_formula, number_text
from engine.formulas.loose_lines import shared_ink
from engine.formulas.reading import FormulaReading
from engine.formulas.stage import find_math_lines, recognize_formulas
from engine.options import ConvertOptions
from engine.output.markdown import render_markdown
from engine.page import PageState
from engine.structure.stage import assemble_blocks
from engine.types import BlockKind, Box, Line, Region
from formula_fakes import FakeModels, FakeRecognizer

EQUATION = Box(300.0, 200.0, 700.0, 240.0)
NUMBER = Box(1100.0, 205.0, 1160.0, 235.0)
LATEX = "E = m c ^ { 2 }"


def line(text: str, box: Box) -> Line:
    return Line(text, box)


def page_image() -> np.ndarray:
    """A page with one display equation (a dark bar) and its number far to the right."""
    image = np.full((1000, 1400, 3), 255, np.uint8)
    image[int(EQUATION.y0):int(EQUATION.y1), int(EQUATION.x0):int(EQUATION.x1)] = 0
    image[int(NUMBER.y0):int(NUMBER.y1), int(NUMBER.x0):int(NUMBER.x1)] = 0
    return image


LINES = (line("E = mc²", EQUATION), line("(13)", NUMBER))


def run(regions, reading=FormulaReading(LATEX, 0.95, 7)):
    recognizer = FakeRecognizer(reading)
    models = FakeModels(recognizer)
    page = PageState(document=None, page_number=1, options=ConvertOptions(), image=page_image(),
                     lines=LINES, regions=tuple(regions), image_prefix="doc-p1")
    for stage in (find_math_lines, recognize_formulas, assemble_blocks):
        page = stage(page, models)
    return page, recognizer


def ink_columns(crop: np.ndarray) -> np.ndarray:
    return np.flatnonzero((crop.min(axis=2) < 128).any(axis=0))


def test_a_layout_formula_and_a_loose_group_on_the_same_ink_are_one_region_read_once():
    # The layout box holds less than half of the equation's line, so the line is loose too.
    layout = Region(BlockKind.FORMULA, Box(295.0, 195.0, 480.0, 245.0), 0.8, "formula")
    page, recognizer = run([layout])
    formulas = [r for r in page.regions if r.kind is BlockKind.FORMULA]
    assert len(formulas) == 1 and len(recognizer.crops) == 1
    assert formulas[0].box.x0 == 295.0 and formulas[0].box.x1 >= EQUATION.x1
    assert [b.kind for b in page.blocks] == [BlockKind.FORMULA]
    assert render_markdown_of(page).count("E=mc^2") == 1


def test_boxes_touching_over_blank_paper_share_no_ink():
    image = page_image()
    assert shared_ink(image, EQUATION, Box(295.0, 195.0, 480.0, 245.0)) == 1.0
    # boxes with blank margins that overlap only over paper
    equation, number = Box(250.0, 150.0, 750.0, 290.0), Box(720.0, 150.0, 1170.0, 290.0)
    assert shared_ink(image, equation, number) == 0.0
    assert shared_ink(image, EQUATION, NUMBER) == 0.0


def test_the_equation_number_stays_with_its_formula_as_a_tag():
    layout = Region(BlockKind.FORMULA, Box(295.0, 195.0, 1165.0, 245.0), 0.8, "formula")
    page, recognizer = run([layout])
    [crop] = recognizer.crops
    assert ink_columns(crop).max() < 420  # only the equation's 400 px of ink (and margin)
    [formula] = page.regions
    assert formula.formula.latex == LATEX + " \\tag{13}"
    assert [b.kind for b in page.blocks] == [BlockKind.FORMULA]
    assert "(13)" not in render_markdown_of(page).replace("\\tag{13}", "")


def test_a_number_outside_the_formula_box_or_in_its_own_text_region_joins_the_formula():
    for extra in ([], [Region(BlockKind.TEXT, Box(1095.0, 200.0, 1165.0, 240.0), 0.7, "text")]):
        layout = Region(BlockKind.FORMULA, Box(295.0, 195.0, 705.0, 245.0), 0.8, "formula")
        page, recognizer = run([layout, *extra])
        [formula] = page.regions
        assert formula.box.x1 >= NUMBER.x1 and formula.formula.latex.endswith("\\tag{13}")
        assert [b.kind for b in page.blocks] == [BlockKind.FORMULA]
        assert ink_columns(recognizer.crops[0]).max() < 420


def test_a_loose_formula_found_on_its_own_keeps_its_number():
    page, recognizer = run([])
    [formula] = page.regions
    assert formula.formula.latex == LATEX + " \\tag{13}" and formula.box.x1 >= NUMBER.x1
    assert ink_columns(recognizer.crops[0]).max() < 420
    assert [b.kind for b in page.blocks] == [BlockKind.FORMULA]


def test_what_counts_as_an_equation_number():
    assert [number_text(line(t, NUMBER)) for t in ("(13)", "( 4a )", "(3.1)", "13", "(x)")] == [
        "13", "4a", "", "", ""]
    # left of the formula's middle, or on another line: not its number
    assert numbered_formula(EQUATION, [line("(2)", Box(310.0, 205.0, 350.0, 235.0))], []) is None
    assert numbered_formula(EQUATION, [line("(2)", Box(1100.0, 300.0, 1160.0, 330.0))], []) is None
    # a number inside another region (a list item of the next column) is not this formula's
    column = Box(1000.0, 100.0, 1300.0, 400.0)
    assert numbered_formula(EQUATION, [line("(2)", NUMBER)], [column]) is None


def render_markdown_of(page: PageState) -> str:
    return render_markdown([page.result()])
