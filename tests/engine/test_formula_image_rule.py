"""The rule that reads an image input as one formula (engine/formulas/image_rule.py), on small
arrays and made-up regions, lines and readings; and the formula-image stage with a fake
recogniser on a dark image and on an image the layout cut into formula pieces."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from engine.content.formulas import Formula
from engine.formulas.image_rule import (has_cjk_text, may_be_formula_image, on_light_paper,
                                        paper_level, prose_words, reads_as_formula,
                                        spelled_share)
from engine.formulas.image_rules import FORMULA_IMAGE
from engine.formulas.reading import LOW_CONFIDENCE, FormulaReading
from engine.formulas.stage import find_math_lines, recognize_formula_image, recognize_formulas
from engine.input.document import open_document
from engine.input.stage import render
from engine.options import ConvertOptions
from engine.page import PageState
from engine.types import BlockKind, Box, Line, Region
from formula_fakes import FakeModels, FakeRecognizer

MATH = "x ^ { 2 } + y ^ { 2 } = r ^ { 2 }"


def line(text: str, y: float = 10.0) -> Line:
    return Line(text, Box(10.0, y, 200.0, y + 20.0))


def test_the_paper_level_is_the_commonest_grey_of_the_frame():
    image = np.full((20, 40), 250, np.uint8)
    image[5:9, 5:30] = 0
    assert paper_level(image) >= 240
    assert paper_level(255 - image) < 16
    tinted = np.full((20, 40, 3), (253, 246, 227), np.uint8)
    assert paper_level(tinted) > 200
    bold = np.full((20, 40), 255, np.uint8)
    bold[3:17, 3:37] = 0  # a crop that is mostly ink, inside a frame of paper
    assert paper_level(bold) >= 240 and on_light_paper(bold) is bold
    empty = np.zeros((0, 5, 3), np.uint8)
    assert paper_level(empty) == 255 and on_light_paper(empty) is empty


def test_light_ink_on_dark_paper_is_inverted_and_dark_ink_left_alone():
    dark = np.full((12, 24, 3), (30, 30, 30), np.uint8)
    dark[4:8, 4:20] = (212, 212, 212)
    light = on_light_paper(dark)
    assert light[0, 0].tolist() == [225, 225, 225] and light[5, 5].tolist() == [43, 43, 43]
    page = 255 - dark
    assert on_light_paper(page) is page


def test_cjk_letters_count_unless_they_are_formula_signs_misread():
    assert not has_cjk_text([line("x"), line("二"), line("十 1")])  # "=" and "+" read as CJK
    assert not has_cjk_text([line("=(1干2)")])  # a minus-plus sign read as CJK
    assert has_cjk_text([line("读取文档")])
    assert has_cjk_text([line("在中国作家协会第三届")])


@pytest.mark.parametrize("regions", [
    (), (Region(BlockKind.FIGURE, Box(0, 0, 50, 20)),),
    (Region(BlockKind.FORMULA, Box(0, 0, 50, 20)), Region(BlockKind.FORMULA, Box(0, 25, 50, 45))),
    tuple(Region(BlockKind.TEXT, Box(0, 20 * i, 50, 20 * i + 15))
          for i in range(FORMULA_IMAGE.max_regions)),
])
def test_a_formula_image_may_have_up_to_a_few_layout_regions_of_any_kind_but_table(regions):
    assert may_be_formula_image(regions, (line("x = 5"),))


def test_what_keeps_the_formula_model_from_being_asked():
    few = (Region(BlockKind.TEXT, Box(0, 0, 50, 20)),)
    assert not may_be_formula_image(None, ())  # no layout
    assert not may_be_formula_image((Region(BlockKind.TABLE, Box(0, 0, 50, 20)),), ())
    assert not may_be_formula_image(tuple(Region(BlockKind.TEXT, Box(0, 20 * i, 50, 20 * i + 15))
                                          for i in range(FORMULA_IMAGE.max_regions + 1)), ())
    words = " ".join(["word"] * FORMULA_IMAGE.max_words)
    assert may_be_formula_image(few, (line(words),))
    assert not may_be_formula_image(few, (line(words + " more"),))
    assert not may_be_formula_image(few, (line("读取文档"),))
    # Matrix entries: many short lines are no prose.
    assert may_be_formula_image(few, tuple(line(str(i), 20.0 * i) for i in range(16)))


def test_the_spelled_share_counts_letters_in_runs_of_three():
    assert spelled_share(MATH) == 0.0
    assert spelled_share("\\text { o t h e r w i s e }") == pytest.approx(9 / 10)
    assert spelled_share("\\operatorname { K e r } ( \\varphi )") == pytest.approx(3 / 7)
    assert spelled_share("a b + c d") == 0.0
    assert spelled_share("") == 0.0


@pytest.mark.parametrize("reading, taken", [
    (FormulaReading(MATH, LOW_CONFIDENCE, 15), True),
    # doubtful, yet math and not text
    (FormulaReading(MATH, FORMULA_IMAGE.min_confidence, 15), True),
    (FormulaReading(MATH, FORMULA_IMAGE.min_confidence - 0.01, 15), False),
    (FormulaReading("\\text { E a c h } \\text { p a r t } = b", 0.7, 14), False),  # text
    (FormulaReading("\\text { l e a k y } ( x ) = x", 0.85, 12), True),  # confident
    (FormulaReading("\\text { C h a p t e r 3 }", 0.95, 10), False),  # no math
    # Confident, and math, yet a heading spelled out letter by letter.
    (FormulaReading("4 \\textup E x t e n d a p a c k a g e ^ { \\prime } s p a t h", 0.85, 24),
     False),
    (FormulaReading(MATH, 0.9, 15, guard="repetition"), False),
    (FormulaReading(MATH, 0.9, 200, truncated=True), False),
    (None, False),
])
def test_which_readings_of_the_whole_image_make_it_a_formula(reading, taken):
    assert reads_as_formula(reading) is taken


# ----------------------------------------------------------------- the stage, fake recogniser


def dark_image(tmp_path: Path) -> Path:
    """Light grey strokes on a dark theme's background."""
    image = np.full((120, 400, 3), (30, 30, 30), np.uint8)
    cv2.rectangle(image, (40, 30), (259, 69), (212, 212, 212), -1)
    path = tmp_path / "dark.png"
    cv2.imwrite(str(path), image)
    return path


def page_of(path: Path, models, regions=(), lines=()) -> PageState:
    with open_document(path) as document:
        page = PageState(document=document, page_number=1, options=ConvertOptions(),
                         image_prefix="doc-p1")
        return replace(render(page, models), regions=tuple(regions), lines=tuple(lines))


def test_a_dark_image_is_read_on_its_ink_inverted(tmp_path):
    recognizer = FakeRecognizer(FormulaReading(MATH, 0.9, 15))
    models = FakeModels(recognizer)
    page = recognize_formula_image(page_of(dark_image(tmp_path), models), models)
    [region] = page.regions
    assert region.kind is BlockKind.FORMULA and region.formula.latex == MATH
    assert region.box == Box(40.0, 30.0, 260.0, 70.0)  # the light strokes, not the background


def test_formula_pieces_from_the_layout_give_way_to_one_reading_holding_the_ocr_lines(tmp_path):
    recognizer = FakeRecognizer(FormulaReading(MATH, 0.9, 15))
    models = FakeModels(recognizer)
    pieces = [Region(BlockKind.FORMULA, Box(40, 30, 150, 70)),
              Region(BlockKind.FORMULA, Box(150, 30, 260, 70))]
    # A detected line reaches past the ink: the region takes it in.
    lines = [Line("x2 + y2 二 r2", Box(34.0, 24.0, 266.0, 76.0))]
    page = page_of(dark_image(tmp_path), models, pieces, lines)
    for stage in (recognize_formula_image, find_math_lines, recognize_formulas):
        page = stage(page, models)
    [region] = page.regions
    assert region.formula.latex == MATH and region.box == Box(34.0, 24.0, 266.0, 76.0)
    assert len(recognizer.crops) == 1  # read once: no loose math line read again


class UprightRecognizer(FakeRecognizer):
    """Confident only on crops whose heavier ink is on the left, as the test formula's is
    upright."""

    def read(self, crops):
        self.crops.extend(crops)
        out = []
        for crop in crops:
            ink = 255 - crop.mean(axis=2)
            half = ink.shape[1] // 2
            upright = ink[:, :half].sum() > ink[:, half:].sum()
            out.append(FormulaReading(MATH, 0.9 if upright else 0.5, 15))
        return out


def test_a_formula_image_the_ocr_turned_over_is_read_the_way_it_came(tmp_path):
    image = np.full((80, 300, 3), 255, np.uint8)
    cv2.rectangle(image, (20, 20), (120, 60), (0, 0, 0), -1)  # heavy on the left ...
    cv2.line(image, (130, 40), (280, 40), (0, 0, 0), 2)        # ... light on the right
    path = tmp_path / "formula.png"
    cv2.imwrite(str(path), image)
    recognizer = UprightRecognizer(None)
    models = FakeModels(recognizer)
    given = page_of(path, models)
    turned = given.turned(180, np.ascontiguousarray(given.image[::-1, ::-1]))
    turned = replace(turned, lines=(line("- =)"),))
    page = recognize_formula_image(turned, models)
    [region] = page.regions
    assert region.formula == Formula(MATH, 0.9)
    assert page.rotation == 0 and page.warnings == () and page.lines == ()
    assert np.array_equal(page.image, given.image)
    assert region.box.x0 < 25 and region.box.x1 > 275  # the ink as given
    # Turned by the OCR and right to be: the turn stays.
    page = recognize_formula_image(replace(given.turned(180, given.image), lines=()), models)
    assert page.rotation == 180 and page.regions[0].formula.confidence == 0.9


def test_words_keep_their_vowel_signs_so_a_hindi_page_is_prose():
    hindi = "भारत एक विशाल देश है जहाँ अनेक भाषाएँ बोली जाती हैं और लोग"
    few = (Region(BlockKind.TEXT, Box(0, 0, 50, 20)),)
    assert prose_words("भारत") == 1
    assert prose_words("x = a + b") == 0 and prose_words("word word2 wor") == 2
    assert not may_be_formula_image(few, (line(hindi),))
