"""The page in a photo: its outline on a contrasting background (a desk, a table), and the
photo warped so that the outline becomes an upright rectangle with the page's proportions.
Pure functions on arrays; a picture with no clear background around a page is left alone."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from engine.imaging import order_quad
from engine.photo.rules import RULES, PhotoRules


@dataclass(frozen=True)
class PageOutline:
    quad: np.ndarray
    """(4, 2) float32 corners in the photo's pixels, clockwise from top-left."""
    contrast: float
    """Grey levels between the page's median and the background's."""


def find_page_outline(image: np.ndarray, rules: PhotoRules = RULES) -> PageOutline | None:
    """The outline of a bright page lying on a darker background, or None when there is none:
    no bright shape of a page's size, one that is not four-cornered, one that runs off the
    picture, or too little contrast with what lies around it."""
    height, width = image.shape[:2]
    scale = rules.work_side_px / max(height, width)
    small = cv2.resize(image, (max(1, round(width * scale)), max(1, round(height * scale))),
                       interpolation=cv2.INTER_AREA)
    grey = cv2.cvtColor(small, cv2.COLOR_RGB2GRAY) if small.ndim == 3 else small
    grey = cv2.GaussianBlur(grey, (0, 0), 2)
    _, bright = cv2.threshold(grey, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    # Close the page's text and holes so the page is one shape.
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (15, 15))
    bright = cv2.morphologyEx(bright, cv2.MORPH_CLOSE, kernel)
    contours, _ = cv2.findContours(bright, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return None
    shape = max(contours, key=cv2.contourArea)
    area = cv2.contourArea(shape)
    frame = grey.shape[0] * grey.shape[1]
    if not rules.min_page_share <= area / frame <= rules.max_page_share:
        return None
    hull = cv2.convexHull(shape)
    corners = cv2.approxPolyDP(hull, 0.02 * cv2.arcLength(hull, True), True)
    if len(corners) != 4:
        return None
    quad = order_quad(corners.reshape(4, 2).astype(np.float32))
    if area / max(cv2.contourArea(quad), 1.0) < rules.min_fill:
        return None
    mask = np.zeros(grey.shape, np.uint8)
    cv2.fillPoly(mask, [quad.round().astype(np.int32)], 1)
    border = np.concatenate([mask[0], mask[-1], mask[:, 0], mask[:, -1]])
    if 1 - border.mean() < rules.min_border_background:
        return None
    # The background just outside the page, not the far corners of the picture.
    ring = cv2.dilate(mask, kernel, iterations=3) - mask
    if not ring.any():
        return None
    contrast = float(np.median(grey[mask > 0]) - np.median(grey[ring > 0]))
    if contrast < rules.min_contrast:
        return None
    return PageOutline(quad=quad / np.float32(scale), contrast=contrast)


def rectify(image: np.ndarray, outline: PageOutline) -> np.ndarray:
    """The photo warped so the outline fills an upright rectangle: as wide as the outline's
    longer horizontal edge, as tall as its longer vertical one (the page's own proportions to
    within the foreshortening that is left)."""
    tl, tr, br, bl = outline.quad.astype(np.float64)
    width = max(np.linalg.norm(tr - tl), np.linalg.norm(br - bl))
    height = max(np.linalg.norm(bl - tl), np.linalg.norm(br - tr))
    width, height = int(round(width)), int(round(height))
    target = np.float32([[0, 0], [width - 1, 0], [width - 1, height - 1], [0, height - 1]])
    homography = cv2.getPerspectiveTransform(outline.quad.astype(np.float32), target)
    return cv2.warpPerspective(image, homography, (width, height), flags=cv2.INTER_CUBIC,
                               borderMode=cv2.BORDER_REPLICATE)
