"""Scripts the OCR read flat, found in a line's ink: a line drawn with a lowered small letter
(Y_i) and a raised small digit (10^8), its words boxed as the OCR boxes them."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from engine.formulas.inline_rules import INLINE_SPANS
from engine.formulas.inline_scripts import Script, line_ink, script_of, scripted_latex
from engine.page import PageState
from engine.types import Block, BlockKind, Box, Line, Word

FONT, SCALE, THICK, BASELINE = cv2.FONT_HERSHEY_SIMPLEX, 1.0, 2, 60


def _drawn(pieces: list[list[tuple[str, float, int]]], turn: float = 0.0):
    """A grey page with one line of words, each word pieces of (text, scale, lift in pixels
    over the baseline), and the Line the OCR would give for it: its words' boxes, its text
    written flat."""
    image = np.full((100, 900), 255, np.uint8)
    words, x = [], 12
    for word in pieces:
        left, top, bottom = x, BASELINE, BASELINE
        for text, scale, lift in word:
            (width, height), below = cv2.getTextSize(text, FONT, scale, THICK)
            cv2.putText(image, text, (x, BASELINE - lift), FONT, scale, 0, THICK, cv2.LINE_AA)
            top, bottom = min(top, BASELINE - lift - height), max(bottom, BASELINE - lift + 2)
            x += width + 1
        words.append(Word("".join(p[0] for p in word), Box(left, top, x, bottom), 0.9))
        x += 16
    if turn:
        matrix = cv2.getRotationMatrix2D((450, 50), turn, 1.0)
        image = cv2.warpAffine(image, matrix, (900, 100), borderValue=255)
    text = " ".join(w.text for w in words)
    line = Line(text, Box(words[0].box.x0, BASELINE - 32, words[-1].box.x1, BASELINE + 10),
                words=tuple(words))
    return image, line


def _plain(*texts: str) -> list[list[tuple[str, float, int]]]:
    return [[(t, SCALE, 0)] for t in texts]


SUB = [("Y", SCALE, 0), ("i", 0.65, -8)]
POWER = [("10", SCALE, 0), ("8", 0.65, 12)]


def _scripts(image, line) -> dict[str, Script]:
    ink = line_ink(image, line)
    assert ink is not None
    return {w.text: s for w in line.words if (s := script_of(w, ink)) is not None}


def test_a_lowered_small_letter_and_a_raised_small_digit_are_scripts():
    image, line = _drawn(_plain("the", "value") + [SUB] + _plain("grows", "as")
                         + [POWER] + _plain("more", "cases", "run"))
    assert _scripts(image, line) == {"Yi": Script(1, "sub"), "108": Script(2, "sup")}


def test_the_same_words_written_flat_and_a_turned_scan_keep_their_reading():
    image, line = _drawn(_plain("the", "value", "Yi", "grows", "as", "108", "more", "run",
                                "ended,"))
    assert _scripts(image, line) == {}
    turned, line = _drawn(_plain("the", "value") + [SUB] + _plain("grows", "as", "more",
                                                                   "cases", "run"), turn=1.0)
    assert _scripts(turned, line) == {"Yi": Script(1, "sub")}


def test_a_scripted_words_latex_sets_the_script():
    spell = lambda text: text  # noqa: E731 - the characters as they stand
    assert scripted_latex("Yi,", Script(1, "sub"), spell) == "Y_{i},"
    assert scripted_latex("108", Script(2, "sup"), spell) == "10^{8}"


@pytest.mark.parametrize("scripts", [True, False])
def test_a_scripted_word_alone_in_prose_becomes_a_formula_span(scripts):
    """On a page with math, "Yi" and "108" read flat are prose by their characters (a word of
    letters, bare digits); their ink makes them Y_i and 10^8, and not without it."""
    from engine.formulas.inline_ocr import find_ocr_inline_math

    image, line = _drawn(_plain("so") + [SUB] + _plain("grows", "as") + [POWER]
                         + _plain("when", "a", "=", "b", "holds"))
    block = Block(BlockKind.TEXT, line.box, lines=(line,), text=line.text)
    page = PageState(None, 0, None, image=cv2.cvtColor(image, cv2.COLOR_GRAY2RGB),
                     blocks=(block,))
    rules = replace(INLINE_SPANS, latex_from="characters", scripts=scripts)
    spans = find_ocr_inline_math(page, None, rules).blocks[0].spans
    formulas = [s.latex for s in spans if s.latex]
    if scripts:
        assert "Y_i" in formulas and "10^8" in formulas
    else:
        assert not any("Y" in f or "10" in f for f in formulas)


def test_an_item_number_whose_digit_the_scan_broke_is_not_a_power():
    """A scan broke the 9 of "19." in two, a small bowl high up and its stroke, and lost the
    stop: the bowl is not a power, since the stroke after it sits on the baseline; only a
    small glyph at the baseline is taken for the stop after a word."""
    from engine.formulas.inline_scripts import LineInk

    one, bowl, stroke = Box(496, 899, 500, 912), Box(504, 899, 508, 907), Box(506, 899, 512, 912)
    letters = tuple(Box(520 + 8 * i, 903, 526 + 8 * i, 912) for i in range(6))
    ink = LineInk((one, bowl, stroke) + letters, 0.0, 912.0, 8.6)
    word = Word("19.", Box(495.8, 898.7, 516.0, 912.5), 0.9)
    assert script_of(word, ink) is None
    # With its stop there, the stop alone is set aside, and a true power still reads as one.
    stop = Box(513, 910, 515, 912)
    assert script_of(word, replace(ink, glyphs=(one, bowl, stroke, stop) + letters)) is None
    raised = Box(504, 899, 509, 906)
    power = Word("28", Box(495.8, 898.7, 510.0, 912.5), 0.9)
    assert script_of(power, replace(ink, glyphs=(one, raised) + letters)) == Script(1, "sup")


def test_a_digit_whose_foot_the_scan_lost_is_not_a_power():
    """"45" on a scanned exercise list: the 5 lost its foot, so its bottom sits a third of an
    x-height over the baseline; a power's is raised further (about half its height)."""
    from engine.formulas.inline_scripts import LineInk

    four, five = Box(274, 899, 282, 912), Box(284, 899, 291, 909.3)
    letters = tuple(Box(300 + 8 * i, 903, 306 + 8 * i, 912) for i in range(6))
    ink = LineInk((four, five) + letters, 0.0, 912.0, 8.6)
    assert script_of(Word("45", Box(272.5, 898.5, 292.0, 912.5), 0.9), ink) is None
