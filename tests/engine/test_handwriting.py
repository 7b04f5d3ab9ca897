"""The handwriting measures and decision (engine/ocr/handwriting.py) on drawn arrays: strokes that
lean, wander and space themselves unevenly against upright strokes on one baseline."""

from __future__ import annotations

import math
import random
from dataclasses import replace

import cv2
import numpy as np
import pytest

from engine.ocr import handwriting
from engine.ocr.handwriting import (NORM_HEIGHT_PX, HandwritingEvidence, flag_handwriting,
                                    handwriting_score, looks_handwritten, page_evidence)
from engine.options import ConvertOptions
from engine.page import PageState
from engine.types import Box, Line, TextSource, Word

H = NORM_HEIGHT_PX


def strokes(shear: float = 0.0, wave_px: float = 0.0, count: int = 30) -> np.ndarray:
    """A line of ink at the scaled height: `count` strokes 2 px wide, leaning by `shear`, their
    feet following a wave of `wave_px`."""
    ink = np.zeros((H, count * 10 + 40), np.uint8)
    for i in range(count):
        foot = 24 + int(round(wave_px * math.sin(i / 2.5)))
        for y in range(foot - 14, foot):
            x = int(round(20 + i * 10 + shear * (foot - y)))
            ink[y, x:x + 2] = 1
    return ink


@pytest.mark.parametrize("shear", [0.0, 0.2, -0.2, 0.35])
def test_the_slant_is_how_far_strokes_lean(shear):
    assert handwriting._slant(strokes(shear)) == pytest.approx(shear, abs=0.1)


def test_a_steeper_lean_reads_as_a_larger_slant():
    slants = [handwriting._slant(strokes(s)) for s in (0.0, 0.15, 0.3, 0.45, 0.6)]
    assert slants == sorted(slants) and slants[0] == 0.0


def test_strokes_on_one_baseline_do_not_wobble_and_wandering_ones_do():
    assert handwriting._wobble(strokes()) < 0.005
    assert handwriting._wobble(strokes(wave_px=4)) > 0.05
    assert math.isnan(handwriting._wobble(strokes(count=3)))  # too short to say


def line_with_gaps(gaps: list[float], y: float = 100, x0: float = 50, height: float = 30,
                   score: float = 0.99) -> Line:
    words, x = [], x0
    for gap in gaps + [0]:
        words.append(Word("word", Box(x, y, x + 60, y + height)))
        x += 60 + gap
    return Line(text=" ".join(w.text for w in words), box=Box(x0, y, x - 0, y + height),
                score=score, words=tuple(words))


def test_even_word_gaps_have_no_spread_and_uneven_ones_a_large_one():
    assert handwriting._gap_spread(line_with_gaps([10, 10, 10, 10])) == pytest.approx(0)
    assert math.isnan(handwriting._gap_spread(line_with_gaps([10, 10, 90, 10])))  # a table row
    assert handwriting._gap_spread(line_with_gaps([4, 25, 8, 30, 12])) > 0.5
    assert math.isnan(handwriting._gap_spread(line_with_gaps([10])))


def test_lines_of_one_height_against_lines_of_many():
    printed = [line_with_gaps([10, 10], y=100 + 40 * k) for k in range(8)]
    rng = random.Random(3)
    written = [line_with_gaps([10, 10], y=100 + 40 * k, height=30 * rng.uniform(0.7, 1.4))
               for k in range(8)]
    assert handwriting._heights(printed) == 0.0
    assert handwriting._heights(written) > 0.2


PRINT = {"score": 0.995, "wobble": 0.018, "slant": 0.01, "gaps": 0.0, "heights": 0.05}
HAND = {"score": 0.90, "wobble": 0.05, "slant": 0.2, "gaps": 0.4, "heights": 0.3}


def evidence(**values: float) -> HandwritingEvidence:
    return HandwritingEvidence(lines=10, **values)


def test_print_like_measures_are_print_and_hand_like_ones_handwriting():
    assert not looks_handwritten(evidence(**PRINT))
    assert looks_handwritten(evidence(**HAND))
    assert not looks_handwritten(None)


@pytest.mark.parametrize("name", list(PRINT))
def test_every_measure_moved_towards_a_hand_raises_the_score(name):
    moved = dict(PRINT, **{name: HAND[name]})
    assert handwriting_score(evidence(**moved)) > handwriting_score(evidence(**PRINT))


def test_a_measure_that_could_not_be_taken_counts_as_print():
    assert handwriting_score(evidence(**dict(HAND, gaps=float("nan")))) == \
        handwriting_score(evidence(**dict(HAND, gaps=0.0)))


def draw_page(written: bool, seed: int = 5) -> tuple[np.ndarray, list[Line]]:
    """A page of 12 lines of 'words' (runs of strokes) drawn with OpenCV: leaning, wandering,
    unevenly spaced and sized when `written`, upright and regular otherwise."""
    rng = random.Random(seed)
    image = np.full((1400, 1000, 3), 255, np.uint8)
    lines = []
    for k in range(12):
        size = 28 * (rng.uniform(0.75, 1.3) if written else 1.0)
        left = 80 + (rng.uniform(-30, 30) if written else 0)
        top, x, words = 80 + 95 * k + (rng.uniform(-12, 12) if written else 0), left, []
        phase = rng.uniform(0, 6)
        for _ in range(6):
            start = x
            for _ in range(rng.randint(3, 7)):
                wave = 9 * math.sin(x / 70 + phase) if written else 0
                foot = top + size + wave + (rng.uniform(-3, 3) if written else 0)
                lean = 0.35 * size if written else 0
                cv2.line(image, (int(x), int(foot)), (int(x + lean), int(foot - size * 0.6)),
                         (20, 30, 120), 3)
                x += size * 0.45
            words.append(Word("abcd", Box(start - 2, top, x, top + size * 1.4)))
            x += size * (rng.uniform(0.3, 1.6) if written else 0.6)
        lines.append(Line(text=" ".join("abcd" for _ in words),
                          box=Box(left - 4, top - 4, x, top + size * 1.4 + 14),
                          score=0.8 if written else 0.99, words=tuple(words)))
    return image, lines


def page_state(image: np.ndarray, lines: list[Line], source: TextSource) -> PageState:
    return PageState(document=None, page_number=1, options=ConvertOptions(), image=image,
                     text_source=source, lines=tuple(lines))


def test_the_stage_marks_a_written_page_and_leaves_its_lines_as_they_are():
    image, lines = draw_page(written=True)
    before = page_state(image, lines, TextSource.OCR)
    after = flag_handwriting(before, None)
    assert after.handwriting, page_evidence(image, lines)
    assert after.lines is before.lines
    assert len(after.warnings) == 1 and "handwritten" in after.warnings[0]
    assert after.result().handwriting


def test_the_stage_leaves_print_and_text_layer_pages_unmarked():
    image, lines = draw_page(written=False)
    printed = flag_handwriting(page_state(image, lines, TextSource.OCR), None)
    assert not printed.handwriting and printed.warnings == (), page_evidence(image, lines)
    image, lines = draw_page(written=True)
    layer = page_state(image, lines, TextSource.TEXT_LAYER)
    assert flag_handwriting(layer, None) is layer


def test_too_few_lines_are_never_judged():
    image, lines = draw_page(written=True)
    assert page_evidence(image, lines[:handwriting.MIN_LINES - 1]) is None
    few = page_state(image, lines[:2], TextSource.OCR)
    assert flag_handwriting(few, None) is few


def test_the_json_carries_the_mark():
    image, lines = draw_page(written=True)
    result = replace(page_state(image, lines, TextSource.OCR), handwriting=True).result()
    from engine.types import DocumentResult

    page = DocumentResult(path="x.png", kind="png", page_count=1, pages=(result,)).to_json()
    assert page["pages"][0]["handwriting"] is True
