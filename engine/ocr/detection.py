"""Text detection: the DB segmentation model and its post-processing to line quadrilaterals."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import pyclipper

from engine.imaging import order_quad, quad_bounds, resize_to_limits, to_chw_imagenet
from engine.runtime.sessions import ModelSession
from engine.runtime.steps import StepClock, timed_step


@dataclass(frozen=True)
class DbParams:
    threshold: float = 0.3
    """Probability above which a pixel is text."""
    box_threshold: float = 0.5
    """Mean probability inside a candidate box needed to keep it."""
    unclip_ratio: float = 1.6
    """DB shrinks text kernels during training; grow them back by area * ratio / perimeter."""
    min_size: float = 3.0
    max_candidates: int = 2000


@dataclass(frozen=True)
class TextRegion:
    quad: np.ndarray
    """(4, 2) float32 clockwise from top-left, in input-image pixels."""
    score: float

    @property
    def bounds(self) -> tuple[float, float, float, float]:
        return quad_bounds(self.quad)


def db_postprocess(prob: np.ndarray, scale_y: float, scale_x: float, image_shape: tuple[int, int],
                   params: DbParams = DbParams()) -> list[TextRegion]:
    """Probability map (H, W) of the resized image -> text quads in original image pixels."""
    bitmap = (prob > params.threshold).astype(np.uint8)
    contours, _ = cv2.findContours(bitmap, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    height, width = image_shape
    regions: list[TextRegion] = []
    for contour in contours[: params.max_candidates]:
        points, short_side = _min_area_quad(contour)
        if short_side < params.min_size:
            continue
        score = box_score(prob, points)
        if score < params.box_threshold:
            continue
        expanded = unclip(points, params.unclip_ratio)
        if expanded is None:
            continue
        quad, short_side = _min_area_quad(expanded)
        if short_side < params.min_size + 2:
            continue
        quad[:, 0] = np.clip(quad[:, 0] / scale_x, 0, width - 1)
        quad[:, 1] = np.clip(quad[:, 1] / scale_y, 0, height - 1)
        regions.append(TextRegion(quad=order_quad(quad), score=score))
    return regions


def _min_area_quad(points: np.ndarray) -> tuple[np.ndarray, float]:
    rect = cv2.minAreaRect(points.reshape(-1, 1, 2).astype(np.float32))
    quad = cv2.boxPoints(rect).astype(np.float32)
    return order_quad(quad), float(min(rect[1]))


def box_score(prob: np.ndarray, quad: np.ndarray) -> float:
    """Mean probability inside the quad (the box's own pixels, not its bounding rectangle)."""
    height, width = prob.shape
    x0 = int(np.clip(np.floor(quad[:, 0].min()), 0, width - 1))
    x1 = int(np.clip(np.ceil(quad[:, 0].max()), 0, width - 1))
    y0 = int(np.clip(np.floor(quad[:, 1].min()), 0, height - 1))
    y1 = int(np.clip(np.ceil(quad[:, 1].max()), 0, height - 1))
    mask = np.zeros((y1 - y0 + 1, x1 - x0 + 1), dtype=np.uint8)
    local = (quad - np.array([x0, y0], dtype=np.float32)).round().astype(np.int32)
    cv2.fillPoly(mask, [local], 1)
    return float(cv2.mean(prob[y0:y1 + 1, x0:x1 + 1], mask)[0])


def unclip(quad: np.ndarray, ratio: float) -> np.ndarray | None:
    """Offset the polygon outwards by area * ratio / perimeter (rounded joins)."""
    area = cv2.contourArea(quad)
    perimeter = cv2.arcLength(quad.reshape(-1, 1, 2), True)
    if perimeter <= 0:
        return None
    distance = area * ratio / perimeter
    offset = pyclipper.PyclipperOffset()
    offset.AddPath([tuple(map(float, p)) for p in quad], pyclipper.JT_ROUND,
                   pyclipper.ET_CLOSEDPOLYGON)
    grown = offset.Execute(distance)
    if not grown:
        return None
    return np.asarray(max(grown, key=len), dtype=np.float32)


def sort_reading_order(regions: list[TextRegion]) -> list[TextRegion]:
    """Top to bottom; regions whose tops are within half a line height read left to right."""
    ordered = sorted(regions, key=lambda r: (r.bounds[1], r.bounds[0]))
    result: list[TextRegion] = []
    for region in ordered:
        result.append(region)
        i = len(result) - 1
        while i > 0:
            prev = result[i - 1]
            tolerance = 0.5 * min(prev.bounds[3] - prev.bounds[1], region.bounds[3] - region.bounds[1])
            if abs(prev.bounds[1] - region.bounds[1]) <= tolerance and prev.bounds[0] > region.bounds[0]:
                result[i - 1], result[i] = result[i], result[i - 1]
                i -= 1
            else:
                break
    return result


class TextDetector:
    """Finds text lines in an RGB page image."""

    def __init__(self, session: ModelSession, min_side: int = 736, max_side: int = 2000,
                 params: DbParams = DbParams(), steps: StepClock | None = None) -> None:
        self._session = session
        self.steps = steps or StepClock()
        """Times the step `det` (the model set's clock, which a page's timings read)."""
        self._min_side = min_side
        self._max_side = max_side
        self._params = params

    def detect(self, image_rgb: np.ndarray) -> list[TextRegion]:
        return self.detect_with_map(image_rgb)[0]

    @timed_step("det")
    def detect_with_map(self, image_rgb: np.ndarray) -> tuple[list[TextRegion], np.ndarray]:
        """The text lines and where the model saw text: its probability map over the threshold
        (bool, at the model's input scale; the page's coverage check reads it)."""
        resized, scale_y, scale_x = resize_to_limits(image_rgb, self._min_side, self._max_side)
        tensor = to_chw_imagenet(resized[:, :, ::-1])[None]  # PP-OCR: ImageNet statistics on BGR
        prob = self._session.run(tensor)[0][0, 0]
        regions = db_postprocess(prob, scale_y, scale_x, image_rgb.shape[:2], self._params)
        return sort_reading_order(regions), prob > self._params.threshold
