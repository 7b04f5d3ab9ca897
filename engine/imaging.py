"""Pure image and geometry helpers shared by the model roles (no ONNX Runtime here)."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


def resize_to_limits(image: np.ndarray, min_side: int, max_side: int,
                     multiple: int = 32) -> tuple[np.ndarray, float, float]:
    """Scale so the short side reaches `min_side` (never the long side past `max_side`), then
    round both sides to `multiple`. Returns the image and the (y, x) scale factors applied."""
    height, width = image.shape[:2]
    scale = 1.0
    if min(height, width) < min_side:
        scale = min_side / min(height, width)
    if max(height, width) * scale > max_side:
        scale = max_side / max(height, width)
    new_h = max(multiple, int(round(height * scale / multiple)) * multiple)
    new_w = max(multiple, int(round(width * scale / multiple)) * multiple)
    if (new_h, new_w) != (height, width):
        image = cv2.resize(image, (new_w, new_h), interpolation=cv2.INTER_LINEAR)
    return image, new_h / height, new_w / width


def to_chw_normalized(image: np.ndarray, mean: tuple[float, float, float],
                      std: tuple[float, float, float]) -> np.ndarray:
    """HWC uint8 -> CHW float32 with (x/255 - mean) / std per channel.

    A uint8 channel has 256 levels: each channel's 256 values are worked out once, with the
    same float32 steps as before (x * 1/(255 std), then + -mean/std), and every pixel looks its
    value up, straight from the strided input into the channels-first output: no contiguous
    copy of a channel-reversed view, no full-size arithmetic (this runs on every detector and
    layout input)."""
    if image.dtype != np.uint8:
        raise TypeError(f"to_chw_normalized takes uint8 pixels, not {image.dtype}")
    height, width, channels = image.shape
    out = np.empty((channels, height, width), dtype=np.float32)
    levels = np.arange(256, dtype=np.float32)
    for c in range(channels):
        table = levels * np.float32(1.0 / (255.0 * std[c]))
        table += np.float32(-mean[c] / std[c])
        np.take(table, image[:, :, c], out=out[c])
    return out


IMAGENET_MEAN = (0.485, 0.456, 0.406)
IMAGENET_STD = (0.229, 0.224, 0.225)
"""ImageNet channel statistics on 0..1 values: the text detector, the PicoDet layout model and
the table model were trained with them."""
SIGNED_MEAN = (0.5, 0.5, 0.5)
SIGNED_STD = (0.5, 0.5, 0.5)
"""(x/255 - 0.5) / 0.5 maps 0..255 to [-1, 1]: the text direction and recognition models' input."""


def to_chw_imagenet(image: np.ndarray) -> np.ndarray:
    """HWC uint8 -> CHW float32 normalised with the ImageNet statistics."""
    return to_chw_normalized(image, IMAGENET_MEAN, IMAGENET_STD)


def to_chw_signed(image: np.ndarray) -> np.ndarray:
    """HWC uint8 -> CHW float32 in [-1, 1] (x * 2/255 - 1)."""
    return to_chw_normalized(image, SIGNED_MEAN, SIGNED_STD)


def order_quad(points: np.ndarray) -> np.ndarray:
    """Four points in clockwise order starting top-left (image coordinates, y down)."""
    pts = np.asarray(points, dtype=np.float32).reshape(4, 2)
    by_x = pts[np.argsort(pts[:, 0], kind="stable")]
    left, right = by_x[:2], by_x[2:]
    top_left, bottom_left = left[np.argsort(left[:, 1], kind="stable")]
    top_right, bottom_right = right[np.argsort(right[:, 1], kind="stable")]
    return np.array([top_left, top_right, bottom_right, bottom_left], dtype=np.float32)


def crop_quad(image: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """Perspective-warp the quad (clockwise from top-left) to an upright rectangle.

    Text lines are wider than tall; a crop that comes out taller than 1.5x its width is a
    vertical line and is turned 90 degrees so the recogniser reads it left to right."""
    quad = np.asarray(quad, dtype=np.float32)
    width = int(max(np.linalg.norm(quad[0] - quad[1]), np.linalg.norm(quad[2] - quad[3])))
    height = int(max(np.linalg.norm(quad[0] - quad[3]), np.linalg.norm(quad[1] - quad[2])))
    width, height = max(width, 1), max(height, 1)
    target = np.array([[0, 0], [width, 0], [width, height], [0, height]], dtype=np.float32)
    matrix = cv2.getPerspectiveTransform(quad, target)
    crop = cv2.warpPerspective(image, matrix, (width, height), borderMode=cv2.BORDER_REPLICATE,
                               flags=cv2.INTER_CUBIC)
    if height / width >= 1.5:
        crop = np.rot90(crop)
    return np.ascontiguousarray(crop)


def quad_bounds(quad: np.ndarray) -> tuple[float, float, float, float]:
    xs, ys = quad[:, 0], quad[:, 1]
    return float(xs.min()), float(ys.min()), float(xs.max()), float(ys.max())


def composite_on_white(image: np.ndarray) -> np.ndarray:
    """BGRA/RGBA -> 3 channels over a white background (transparent pixels become paper)."""
    if image.ndim != 3 or image.shape[2] != 4:
        return image
    alpha = image[:, :, 3:4].astype(np.float32) / 255.0
    color = image[:, :, :3].astype(np.float32)
    return (color * alpha + 255.0 * (1.0 - alpha)).round().astype(np.uint8)


def resize_averaging(image: np.ndarray, width: int, height: int) -> np.ndarray:
    """Resize to width x height; when shrinking 2x or more, first average whole f x f pixel blocks.

    Thin strokes survive as grey instead of vanishing between samples (what INTER_AREA gives),
    at about a tenth of INTER_AREA's cost for non-integer factors. The last (size mod f) rows and
    columns, fewer than f pixels, are left out of the averaging step."""
    src_h, src_w = image.shape[:2]
    factor = min(src_h // height, src_w // width)
    if factor >= 2:
        kept_h, kept_w = src_h - src_h % factor, src_w - src_w % factor
        image = cv2.resize(image[:kept_h, :kept_w], (kept_w // factor, kept_h // factor),
                           interpolation=cv2.INTER_AREA)
    if image.shape[:2] == (height, width):
        return image
    return cv2.resize(image, (width, height), interpolation=cv2.INTER_LINEAR)


def letterbox(image: np.ndarray, size: int, pad_value: int) -> tuple[np.ndarray, float, int, int]:
    """Fit the image into a `size` x `size` square keeping its aspect ratio, centred on a
    `pad_value` background. Returns the square, the scale applied and the (x, y) padding, so a
    point p in the square is (p - pad) / scale in the original image."""
    height, width = image.shape[:2]
    scale = size / max(height, width)
    new_w = min(size, max(1, int(round(width * scale))))
    new_h = min(size, max(1, int(round(height * scale))))
    pad_x, pad_y = (size - new_w) // 2, (size - new_h) // 2
    canvas = np.full((size, size) + image.shape[2:], pad_value, dtype=image.dtype)
    canvas[pad_y:pad_y + new_h, pad_x:pad_x + new_w] = resize_averaging(image, new_w, new_h)
    return canvas, scale, pad_x, pad_y


def pad_on_white(image: np.ndarray, factor: float) -> tuple[np.ndarray, int, int]:
    """The image centred on a white canvas `factor` times its size; returns the canvas and the
    image's (x, y) offset in it."""
    height, width = image.shape[:2]
    canvas_h, canvas_w = int(round(height * factor)), int(round(width * factor))
    canvas = np.full((canvas_h, canvas_w, image.shape[2]), 255, dtype=image.dtype)
    y, x = (canvas_h - height) // 2, (canvas_w - width) // 2
    canvas[y:y + height, x:x + width] = image
    return canvas, x, y


MIN_INK_CONTRAST = 40.0
"""Paper and darkest ink closer than this (grey levels) is a blank image: no ink at all."""


@dataclass(frozen=True)
class InkRules:
    """What counts as ink on an `ink_map` (0 paper .. 1 darkest ink), one frozen set (STYLE
    habit 20) for every module that thresholds ink: engine/formulas' crops, line bands and shared
    ink, engine/ocr's gutter cuts, column edges and dot leaders."""

    level: float = 0.3
    """A pixel is ink when it lies this far from the paper to the ink."""
    mark: float = 0.5
    """Ink this far or further is a mark (a stroke, a leader's dot), not a speck or the blur
    around one: what the gutter cuts, column edges and dot leaders look for."""


INK = InkRules()


def grey_levels(image: np.ndarray) -> np.ndarray:
    """RGB(A) or grey image -> one grey channel (the grey image itself)."""
    if image.ndim == 2:
        return image
    return cv2.cvtColor(np.ascontiguousarray(image[..., :3]), cv2.COLOR_RGB2GRAY)


def paper_and_ink(grey: np.ndarray, min_contrast: float = MIN_INK_CONTRAST,
                  step: int = 1) -> tuple[float, float] | None:
    """The paper level (the 90th percentile of brightness, over every `step`-th row and column)
    and the darkest ink (the darkest pixel); None when they are less than `min_contrast` apart."""
    paper = float(np.percentile(grey[::step, ::step], 90))
    dark = float(grey.min())
    if paper - dark < min_contrast:
        return None
    return paper, dark


def ink_map(image: np.ndarray | None, min_contrast: float = MIN_INK_CONTRAST) -> np.ndarray | None:
    """RGB or grey image -> float32 ink in 0..1 (ink bright), contrast stretched between the
    paper and the darkest ink; None for an empty or blank image."""
    if image is None or image.size == 0:
        return None
    grey = grey_levels(image).astype(np.float32)
    levels = paper_and_ink(grey, min_contrast)
    if levels is None:
        return None
    paper, dark = levels
    return np.clip((paper - grey) / (paper - dark), 0.0, 1.0)


def ink_bounds(image: np.ndarray, min_contrast: float = MIN_INK_CONTRAST, rules: InkRules = INK
               ) -> tuple[int, int, int, int] | None:
    """(x0, y0, x1, y1), ends exclusive, of the ink (`rules.level`, as in `ink_map`); None for a
    blank image. Works on whole pages: no float copy, and the paper level from a sample."""
    grey = grey_levels(image)
    step = max(1, max(grey.shape) // 1024)  # the paper level needs no more than a sample
    levels = paper_and_ink(grey, min_contrast, step)
    if levels is None:
        return None
    paper, dark = levels
    ink = grey < paper - rules.level * (paper - dark)
    rows = np.flatnonzero(ink.any(axis=1))
    cols = np.flatnonzero(ink.any(axis=0))
    return int(cols[0]), int(rows[0]), int(cols[-1]) + 1, int(rows[-1]) + 1


def turn_image(image: np.ndarray, rotation: int) -> np.ndarray:
    """The image turned clockwise by `rotation` degrees (a multiple of 90), C-contiguous."""
    k = (rotation // 90) % 4
    return np.ascontiguousarray(np.rot90(image, k=-k) if k else image)
