"""engine.imaging: pure geometry and pixel helpers on tiny arrays."""

from __future__ import annotations

import numpy as np
import pytest

from engine.imaging import (INK, composite_on_white, crop_quad, ink_bounds, ink_map,
                            letterbox, order_quad, resize_averaging, resize_to_limits,
                            to_chw_imagenet, to_chw_normalized, to_chw_signed)


def test_resize_to_limits_grows_short_side_to_min_and_rounds_to_multiple():
    image = np.zeros((10, 20, 3), dtype=np.uint8)
    resized, scale_y, scale_x = resize_to_limits(image, min_side=64, max_side=256)
    assert resized.shape == (64, 128, 3)
    assert (scale_y, scale_x) == pytest.approx((6.4, 6.4))


def test_resize_to_limits_caps_long_side():
    image = np.zeros((100, 300), dtype=np.uint8)
    resized, scale_y, scale_x = resize_to_limits(image, min_side=32, max_side=128)
    height, width = resized.shape
    assert height % 32 == 0 and width % 32 == 0
    assert max(height, width) <= 128
    assert scale_y == pytest.approx(height / 100) and scale_x == pytest.approx(width / 300)


def test_resize_to_limits_keeps_an_image_already_in_bounds():
    image = np.arange(64 * 96, dtype=np.uint8).reshape(64, 96)
    resized, scale_y, scale_x = resize_to_limits(image, min_side=32, max_side=128)
    assert resized is image
    assert (scale_y, scale_x) == (1.0, 1.0)


def test_resize_to_limits_never_below_one_multiple():
    resized, _, _ = resize_to_limits(np.zeros((4, 4), dtype=np.uint8), min_side=1, max_side=8)
    assert resized.shape == (32, 32)


def shoelace(quad: np.ndarray) -> float:
    x, y = quad[:, 0], quad[:, 1]
    return float(np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y))


def test_order_quad_sorts_shuffled_rectangle_clockwise_from_top_left():
    shuffled = np.array([[30, 10], [2, 12], [2, 3], [30, 1]], dtype=np.float32)
    ordered = order_quad(shuffled)
    np.testing.assert_array_equal(ordered, [[2, 3], [30, 1], [30, 10], [2, 12]])
    assert shoelace(ordered) > 0  # clockwise on screen (y grows downwards)


def test_order_quad_slightly_rotated_box():
    # A text line tilted by ~6 degrees, corners given counter-clockwise from the bottom right.
    quad = np.array([[102, 20], [100, 0], [0, 10], [2, 30]], dtype=np.float32)
    np.testing.assert_array_equal(order_quad(quad), [[0, 10], [100, 0], [102, 20], [2, 30]])


def gradient_image(height: int, width: int) -> np.ndarray:
    """Each pixel's value is its x coordinate, so a crop tells where it came from."""
    return np.tile(np.arange(width, dtype=np.uint8), (height, 1))


def test_crop_quad_axis_aligned_is_a_plain_crop():
    image = gradient_image(20, 40)
    quad = np.array([[5, 4], [35, 4], [35, 14], [5, 14]], dtype=np.float32)
    crop = crop_quad(image, quad)
    assert crop.shape == (10, 30)
    np.testing.assert_allclose(crop[5], np.arange(5, 35), atol=1)


def test_crop_quad_turns_tall_crops_so_their_top_reads_first():
    image = np.zeros((40, 20), dtype=np.uint8)
    image[2:6, :] = 255  # a bright band at the top of a vertical line
    quad = np.array([[5, 2], [15, 2], [15, 32], [5, 32]], dtype=np.float32)
    crop = crop_quad(image, quad)
    assert crop.shape == (10, 30)  # 10 wide x 30 tall came out lying down
    columns = crop.mean(axis=0)
    assert columns[:3].mean() > 200 and columns[-10:].mean() < 10  # top of the line is at the left


def test_crop_quad_keeps_moderately_tall_crops_upright():
    image = gradient_image(40, 40)
    quad = np.array([[5, 5], [15, 5], [15, 19], [5, 19]], dtype=np.float32)  # 14 / 10 < 1.5
    assert crop_quad(image, quad).shape == (14, 10)


def test_composite_on_white():
    rgba = np.zeros((2, 2, 4), dtype=np.uint8)
    rgba[0, 0] = (10, 20, 30, 255)  # opaque: its own colour
    rgba[0, 1] = (10, 20, 30, 0)  # transparent: paper
    rgba[1, 0] = (0, 0, 0, 128)  # half-transparent black: mid grey
    rgba[1, 1] = (200, 0, 0, 0)
    out = composite_on_white(rgba)
    assert out.shape == (2, 2, 3) and out.dtype == np.uint8
    np.testing.assert_array_equal(out[0, 0], (10, 20, 30))
    np.testing.assert_array_equal(out[0, 1], (255, 255, 255))
    assert np.all(np.abs(out[1, 0].astype(int) - 127) <= 1)
    np.testing.assert_array_equal(out[1, 1], (255, 255, 255))


def test_composite_on_white_leaves_three_channels_alone():
    rgb = np.full((3, 3, 3), 7, dtype=np.uint8)
    assert composite_on_white(rgb) is rgb


def test_letterbox_centres_the_scaled_image_on_the_pad_value():
    image = np.full((10, 20, 3), 7, dtype=np.uint8)
    square, scale, pad_x, pad_y = letterbox(image, 8, 114)
    assert square.shape == (8, 8, 3) and (scale, pad_x, pad_y) == (0.4, 0, 2)
    assert (square[:2] == 114).all() and (square[6:] == 114).all()
    assert (square[2:6] == 7).all()


def test_letterbox_of_a_tall_image_pads_left_and_right():
    square, scale, pad_x, pad_y = letterbox(np.zeros((32, 16), dtype=np.uint8), 16, 255)
    assert (scale, pad_x, pad_y) == (0.5, 4, 0)
    assert (square[:, :4] == 255).all() and (square[:, 4:12] == 0).all()


def test_resize_averaging_keeps_a_one_pixel_stroke_as_grey():
    image = np.full((32, 32), 255, dtype=np.uint8)
    image[:, 12] = 0  # a thin rule that plain bilinear sampling steps over
    small = resize_averaging(image, 8, 8)
    assert small.shape == (8, 8)
    assert small.min() < 220  # averaged into the column, not skipped between samples
    assert resize_averaging(image, 64, 48).shape == (48, 64)


def test_to_chw_signed_maps_0_255_to_minus_one_one():
    image = np.array([[[0, 255, 51]]], dtype=np.uint8)
    out = to_chw_signed(image)
    assert out.shape == (3, 1, 1) and out.dtype == np.float32
    assert out[:, 0, 0] == pytest.approx([-1.0, 1.0, 51 / 127.5 - 1], abs=1e-6)


def test_to_chw_imagenet_uses_the_imagenet_statistics():
    out = to_chw_imagenet(np.full((2, 2, 3), 255, dtype=np.uint8))
    expected = [(1 - 0.485) / 0.229, (1 - 0.456) / 0.224, (1 - 0.406) / 0.225]
    assert out[:, 1, 1] == pytest.approx(expected, rel=1e-6)


def test_to_chw_normalized_gives_the_float32_arithmetic_bit_for_bit():
    # Every level in every channel, read through a channel-reversed view as the detector does:
    # the looked-up values are the ones x * 1/(255 std) + -mean/std gives in float32.
    levels = np.arange(256, dtype=np.uint8)
    image = np.stack([levels, levels[::-1], np.roll(levels, 77)], axis=1).reshape(16, 16, 3)
    view = image[:, :, ::-1]
    mean, std = (0.485, 0.456, 0.406), (0.229, 0.224, 0.225)
    expected = np.empty((3, 16, 16), dtype=np.float32)
    for c in range(3):
        expected[c] = view[:, :, c]
        expected[c] *= np.float32(1.0 / (255.0 * std[c]))
        expected[c] += np.float32(-mean[c] / std[c])
    out = to_chw_normalized(view, mean, std)
    assert out.dtype == np.float32 and out.flags.c_contiguous
    assert np.array_equal(out, expected)


def test_to_chw_normalized_refuses_pixels_that_are_not_bytes():
    with pytest.raises(TypeError, match="uint8"):
        to_chw_normalized(np.zeros((2, 2, 3), dtype=np.float32), (0, 0, 0), (1, 1, 1))


def test_ink_map_and_ink_bounds_agree_on_what_is_ink():
    image = np.full((20, 40), 240, dtype=np.uint8)
    image[5:9, 10:30] = 20  # ink
    image[12:14, 2:38] = 200  # faint: less than INK.level of the way from paper to ink
    ink = ink_map(np.repeat(image[..., None], 3, axis=2))
    assert ink.dtype == np.float32 and ink.max() == 1.0 and ink.min() == 0.0
    rows, cols = np.nonzero(ink > INK.level)
    assert ink_bounds(image) == (cols.min(), rows.min(), cols.max() + 1, rows.max() + 1) == (10, 5, 30, 9)


def test_ink_map_of_a_blank_or_empty_image_is_none():
    assert ink_map(np.full((10, 10), 200, dtype=np.uint8)) is None
    assert ink_map(np.zeros((0, 5), dtype=np.uint8)) is None
    assert ink_map(None) is None
