"""No silent loss: the share of the seen text an OCR page's kept lines hold, the lines it could
not read and the places where text was seen and nothing read (engine/ocr/coverage.py)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from engine.ocr.coverage import CoverageRules, check_coverage, measure_coverage
from engine.options import ConvertOptions
from engine.page import PageState
from engine.types import Box, Line, Status, TextSource


def _mask() -> np.ndarray:
    """A 40 x 40 detector map of a 80 x 80 page: three text lines, 8 x 30 pixels each."""
    mask = np.zeros((40, 40), bool)
    for top in (4, 16, 28):
        mask[top:top + 8, 5:35] = True
    return mask


def _line(y0: float) -> Line:
    return Line(text="text", box=Box(8, y0, 72, y0 + 18), score=0.9)


def test_lines_holding_every_place_cover_it_all():
    coverage = measure_coverage(_mask(), (80, 80), [_line(7).box, _line(31).box, _line(55).box],
                                [])
    assert coverage.kept_share == 1.0
    assert coverage.unread_lines == 0 and coverage.unseen_places == 0


def test_a_place_no_line_touches_is_unseen_text():
    coverage = measure_coverage(_mask(), (80, 80), [_line(7).box, _line(31).box], [])
    assert coverage.unseen_places == 1
    assert abs(coverage.kept_share - 2 / 3) < 0.01


def test_an_unread_line_is_counted_and_not_kept():
    coverage = measure_coverage(_mask(), (80, 80), [_line(7).box, _line(31).box],
                                [_line(55).box])
    assert coverage.unread_lines == 1 and coverage.unseen_places == 0
    assert abs(coverage.kept_share - 2 / 3) < 0.01


def test_specks_are_no_text():
    mask = _mask()
    mask[38:40, 0:3] = True  # 6 pixels
    coverage = measure_coverage(mask, (80, 80), [_line(7).box, _line(31).box, _line(55).box],
                                [])
    assert coverage.kept_share == 1.0 and coverage.unseen_places == 0
    strict = measure_coverage(mask, (80, 80), [_line(7).box, _line(31).box, _line(55).box], [],
                              CoverageRules(min_place_px=1))
    assert strict.unseen_places == 1


def _page(lines: list[Line], unread: tuple[Box, ...] = ()) -> PageState:
    return PageState(document=None, page_number=1, options=ConvertOptions(),
                     image=np.full((80, 80, 3), 255, np.uint8), lines=tuple(lines),
                     unread=unread, text_mask=_mask())


def test_a_page_keeping_too_little_is_partial_and_says_why():
    page = check_coverage(_page([_line(7)], (_line(31).box,)), None)
    assert page.result().status is Status.PARTIAL
    assert page.errors[0].stage == "coverage"
    assert "1 text line could not be read" in page.warnings
    assert "text was seen in 1 place where no line was read" in page.warnings


def test_a_page_keeping_its_text_stays_ok_and_silent():
    page = check_coverage(_page([_line(7), _line(31), _line(55)]), None)
    assert page.result().status is Status.OK and page.warnings == ()


def test_text_layer_pages_are_not_checked():
    page = replace(_page([]), text_source=TextSource.TEXT_LAYER)
    assert check_coverage(page, None) is page
