"""engine.ocr.detection: DB post-processing on synthetic probability maps (no ONNX Runtime)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from engine.ocr.detection import DbParams, TextRegion, box_score, db_postprocess, unclip


def two_line_map() -> np.ndarray:
    prob = np.zeros((64, 64), dtype=np.float32)
    prob[10:20, 5:41] = 0.9  # a long line near the top
    prob[40:50, 10:31] = 0.8  # a shorter one below
    return prob


def test_db_postprocess_finds_two_lines_in_original_coordinates():
    # The map is of an image resized by 0.25 horizontally and 0.5 vertically from 256 x 128.
    regions = db_postprocess(two_line_map(), scale_y=0.5, scale_x=0.25, image_shape=(128, 256))
    assert len(regions) == 2
    top, bottom = sorted(regions, key=lambda r: r.bounds[1])
    # Unclip grows a box by area * 1.6 / perimeter: ~5.7 map pixels for the top line, ~4.9
    # for the bottom one; divided by the scale that is up to 23 px in x and 12 px in y.
    for region, (x0, y0, x1, y1) in ((top, (5, 10, 40, 19)), (bottom, (10, 40, 30, 49))):
        bx0, by0, bx1, by1 = region.bounds
        assert x0 / 0.25 - 24 <= bx0 <= x0 / 0.25, region.bounds
        assert x1 / 0.25 <= bx1 <= min(x1 / 0.25 + 24, 255), region.bounds
        assert y0 / 0.5 - 12 <= by0 <= y0 / 0.5, region.bounds
        assert y1 / 0.5 <= by1 <= y1 / 0.5 + 12, region.bounds
        assert region.quad.shape == (4, 2) and region.quad.dtype == np.float32
    assert top.score == pytest.approx(0.9, abs=0.02)
    assert bottom.score == pytest.approx(0.8, abs=0.02)


def test_db_postprocess_quads_are_clockwise_from_top_left():
    regions = db_postprocess(two_line_map(), 1.0, 1.0, (64, 64))
    for region in regions:
        tl, tr, br, bl = region.quad
        assert tl[0] < tr[0] and bl[0] < br[0]
        assert tl[1] < bl[1] and tr[1] < br[1]


def test_db_postprocess_clips_to_the_image():
    prob = np.zeros((32, 32), dtype=np.float32)
    prob[0:8, 0:32] = 0.95  # touches three edges: unclip pushes it outside
    (region,) = db_postprocess(prob, 1.0, 1.0, (32, 32))
    x0, y0, x1, y1 = region.bounds
    assert x0 >= 0 and y0 >= 0 and x1 <= 31 and y1 <= 31


def test_db_postprocess_drops_weak_and_tiny_candidates():
    prob = np.zeros((64, 64), dtype=np.float32)
    prob[10:20, 5:41] = 0.4  # above the pixel threshold, below the box threshold
    prob[40:42, 40:42] = 0.99  # 2 x 2: smaller than min_size
    assert db_postprocess(prob, 1.0, 1.0, (64, 64)) == []
    loose = DbParams(box_threshold=0.3)
    assert len(db_postprocess(prob, 1.0, 1.0, (64, 64), loose)) == 1


def test_db_postprocess_empty_map():
    assert db_postprocess(np.zeros((16, 16), dtype=np.float32), 1.0, 1.0, (16, 16)) == []


def test_box_score_is_the_mean_inside_the_quad():
    prob = np.zeros((12, 12), dtype=np.float32)
    prob[2:6, 2:6] = 1.0
    exact = np.array([[2, 2], [5, 2], [5, 5], [2, 5]], dtype=np.float32)
    assert box_score(prob, exact) == pytest.approx(1.0)
    twice_as_wide = np.array([[2, 2], [9, 2], [9, 5], [2, 5]], dtype=np.float32)
    assert box_score(prob, twice_as_wide) == pytest.approx(0.5)


def test_box_score_counts_only_the_quads_own_pixels():
    # A diamond inside a square of ones, with zeros in the square's corners outside the diamond.
    prob = np.zeros((21, 21), dtype=np.float32)
    diamond = np.array([[10, 0], [20, 10], [10, 20], [0, 10]], dtype=np.int32)
    cv2.fillPoly(prob, [diamond], 1.0)
    assert box_score(prob, diamond.astype(np.float32)) == pytest.approx(1.0)


def test_unclip_grows_a_box_by_area_ratio_over_perimeter():
    square = np.array([[0, 0], [10, 0], [10, 10], [0, 10]], dtype=np.float32)
    grown = unclip(square, 1.5)
    distance = 100 * 1.5 / 40  # 3.75
    assert grown.min(axis=0) == pytest.approx((-distance, -distance), abs=0.6)
    assert grown.max(axis=0) == pytest.approx((10 + distance, 10 + distance), abs=0.6)
    assert cv2.contourArea(grown) > 100


def test_unclip_of_a_degenerate_quad_is_none():
    point = np.zeros((4, 2), dtype=np.float32)
    assert unclip(point, 1.6) is None


def test_text_region_bounds():
    region = TextRegion(quad=np.array([[1, 2], [9, 3], [8, 7], [0, 6]], dtype=np.float32),
                        score=0.9)
    assert region.bounds == (0.0, 2.0, 9.0, 7.0)
