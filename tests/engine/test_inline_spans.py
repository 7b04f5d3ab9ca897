"""Inline formulas on scans: the span classifier we trained (resources/formula/
inline-spans.onnx) over OCR words of a line drawn at scan resolution, the spans it makes and
how their LaTeX is chosen between the characters and the formula model's reading."""

from __future__ import annotations

import cv2
import numpy as np
import pymupdf
import pytest

from engine.formulas.inline import spans_text
from engine.formulas.inline_ocr import classified_runs, find_ocr_inline_math, word_latex
from engine.formulas.inline_spans import line_features, math_probabilities, page_grey
from engine.formulas.reading import FormulaReading
from engine.page import PageState
from engine.types import Block, BlockKind, Box, Line, Word

PROSE = "the cache if it does not contain"
AFTER = "an entry for this file"


def _rendered(parts: list[tuple[str, str]], dpi: int = 200,
              width: float = 400) -> tuple[np.ndarray, Line]:
    """One line typeset by MuPDF (Times roman and italic), drawn in grey at `dpi` and softened
    as a scanner does, with its words' boxes from the PDF."""
    with pymupdf.open() as document:
        page = document.new_page(width=width, height=60)
        x = 10.0
        for text, font in parts:
            page.insert_text((x, 35), text, fontname=font, fontsize=11)
            x += pymupdf.get_text_length(text, fontname=font, fontsize=11) + 3
        pix = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY)
        found = page.get_text("words")
    image = np.frombuffer(pix.samples, np.uint8).reshape(pix.height, pix.width)
    image = cv2.GaussianBlur(image, (0, 0), 0.7)
    scale = dpi / 72
    words = tuple(Word(w[4], Box(w[0] * scale, w[1] * scale, w[2] * scale, w[3] * scale), 0.95)
                  for w in found)
    box = Box(min(w.box.x0 for w in words), min(w.box.y0 for w in words),
              max(w.box.x1 for w in words), max(w.box.y1 for w in words))
    return cv2.cvtColor(image, cv2.COLOR_GRAY2RGB), Line(
        " ".join(w.text for w in words), box, 0.95, words=words)


@pytest.fixture(scope="module")
def formula_line() -> tuple[np.ndarray, Line]:
    return _rendered([(PROSE, "tiro"), ("F(x)", "tiit"), ("=", "tiro"), ("0,", "tiro"),
                      (AFTER, "tiro")])


class _Recognizer:
    def __init__(self, reading: FormulaReading) -> None:
        self.reading, self.crops = reading, []

    def read(self, crops):
        self.crops += crops
        return [self.reading for _ in crops]


class _Models:
    def __init__(self, recognizer=None) -> None:
        self.recognizer = recognizer

    def formula_recognizer(self):
        return self.recognizer


def _page(image: np.ndarray, line: Line) -> PageState:
    block = Block(BlockKind.TEXT, line.box, lines=(line,), text=line.text)
    return PageState(None, 0, None, image=image, blocks=(block,))


def test_the_classifier_tells_formula_words_from_prose(formula_line):
    image, line = formula_line
    chances = dict(zip((w.text for w in line.words),
                       math_probabilities(line_features(page_grey(image), line))))
    assert all(0.0 <= p <= 1.0 for p in chances.values())
    assert min(chances["F(x)"], chances["="], chances["0,"]) > 0.5
    assert max(chances[w] for w in (PROSE + " " + AFTER).split()) < 0.5


def test_a_classified_span_is_cut_out_of_the_line_with_the_characters_latex(formula_line):
    page = find_ocr_inline_math(_page(*formula_line), _Models())
    assert spans_text(page.blocks[0]) == f"{PROSE} $F(x)=0$, {AFTER}"


def test_a_confident_reading_of_the_span_pixels_spells_it_and_a_doubtful_one_does_not(
        formula_line):
    sure = _Recognizer(FormulaReading("F(x)=0", 0.95, 6))
    page = find_ocr_inline_math(_page(*formula_line), _Models(sure))
    assert len(sure.crops) == 1 and sure.crops[0].shape[0] > 10
    assert "$F(x)=0$" in spans_text(page.blocks[0])
    page = find_ocr_inline_math(_page(*formula_line),
                                _Models(_Recognizer(FormulaReading("G(y)=1", 0.95, 6))))
    assert "$G(y)=1$" in spans_text(page.blocks[0])
    page = find_ocr_inline_math(_page(*formula_line),
                                _Models(_Recognizer(FormulaReading("G(y)=1", 0.4, 6))))
    assert "$F(x)=0$" in spans_text(page.blocks[0])


def test_commas_inside_a_formula_are_kept():
    assert word_latex("v1,") == "v_{1},"
    assert word_latex("(2,") == "(2,"


def test_prose_words_with_brackets_or_stops_are_not_formulas_alone():
    texts = "see (or in GMT) so e.g. f(x) the cos(z) and a b".split()
    words = tuple(Word(w, Box(20 * i, 0, 20 * i + 15, 12), 0.9) for i, w in enumerate(texts))
    line = Line(" ".join(texts), Box(0, 0, 20 * len(words), 12), words=words)
    runs = classified_runs(line, [0.9 if w in ("(or", "GMT)", "e.g.", "f(x)", "cos(z)", "a")
                                  else 0.1 for w in texts], math_page=False)
    assert [" ".join(w.text for w in run) for run in runs] == ["f(x)", "cos(z)"]


def test_settings_quantities_and_bare_numbers_in_prose_stay_text():
    image, line = _rendered([
        ("the best model (enc=6, dec=6, heads=8) ran 2x faster on", "tiro"),
        ("PubTabNet (395k samples) and 1,5 of", "tiro"), ("F(x)", "tiit"), ("=", "tiro"),
        ("0,", "tiro"), ("so", "tiro")], width=600)
    spanned = find_ocr_inline_math(_page(image, line), _Models()).blocks[0]
    assert spans_text(spanned) == ("the best model (enc=6, dec=6, heads=8) ran 2x faster on "
                                   "PubTabNet (395k samples) and 1,5 of $F(x)=0$, so")
