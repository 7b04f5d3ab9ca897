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


def _printed(rows: int, width: int = 400, row_px: int = 40) -> np.ndarray:
    """A page of `rows` printed lines, each "coverage check" in 20 px type."""
    import cv2

    image = np.full((rows * row_px + 20, width, 3), 255, np.uint8)
    for row in range(rows):
        cv2.putText(image, "coverage check text", (10, 30 + row * row_px),
                    cv2.FONT_HERSHEY_SIMPLEX, 0.7, (20, 20, 20), 2)
    return image


def _printed_line(row: int, row_px: int = 40) -> Line:
    return Line(text="coverage check text", box=Box(6, 10 + row * row_px, 270, 36 + row * row_px),
                score=0.9)


def test_ink_no_line_holds_and_the_detector_missed_is_unseen_text():
    image = _printed(3)
    seen = np.zeros(image.shape[:2], bool)
    seen[10:36, 6:270] = True  # the detector saw the first line only
    coverage = measure_coverage(seen, image.shape[:2], [_printed_line(0).box], [], image=image)
    assert coverage.ink_places == 2
    assert coverage.kept_share < 0.5


def test_ink_of_read_lines_rules_specks_and_figures_is_no_unseen_text():
    import cv2

    image = _printed(2)
    cv2.line(image, (5, 95), (395, 95), (0, 0, 0), 2)         # a rule under the text
    image[5:7, 380:382] = 0                                    # a speck
    cv2.circle(image, (300, 60), 25, (0, 0, 0), -1)            # a figure's ink ...
    seen = np.zeros(image.shape[:2], bool)
    lines = [_printed_line(0).box, _printed_line(1).box]
    for box in lines:
        seen[int(box.y0):int(box.y1), int(box.x0):int(box.x1)] = True
    coverage = measure_coverage(seen, image.shape[:2], lines, [], image=image,
                                elsewhere=[Box(270, 30, 330, 90)])  # ... in its region
    assert coverage.ink_places == 0 and coverage.kept_share == 1.0


def test_a_page_whose_ink_shows_lost_text_is_partial_and_says_so():
    image = _printed(3)
    seen = np.zeros((image.shape[0] // 2, image.shape[1] // 2), bool)
    seen[5:18, 3:135] = True
    page = PageState(document=None, page_number=1, options=ConvertOptions(), image=image,
                     lines=(_printed_line(0),), text_mask=seen)
    page = check_coverage(page, None)
    assert page.result().status is Status.PARTIAL
    assert "the page's ink shows text in 2 places where no line was read" in page.warnings
