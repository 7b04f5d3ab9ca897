"""Curled pages flattened as classic page dewarping does: the text lines' centres are traced in
the ink, a smooth model of how the page's surface lifts them is fitted to all lines at once,
and the page is remapped so that every line lies straight and level. Pure functions on arrays.

The model: a point at (x, y) on the picture lies f(x, y) above where it would lie on a flat,
level page, with f a polynomial of degree 4 in x whose coefficients change linearly down the
page (a page bent about a vertical axis, like an open book, seen from above at a slant; the
x term also holds a tilt). Each traced line piece has its own level."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from engine.photo.rules import RULES, PhotoRules

DEGREE = 4


@dataclass(frozen=True)
class Surface:
    coefficients: np.ndarray
    """(2 * DEGREE,) weights of x^k and x^k * y (k = 1..DEGREE), x and y in page sizes."""
    width: int
    height: int
    line_height_px: float
    """The median height of the text's letters, the unit the bend is judged in."""
    text_box: tuple[float, float, float, float]
    """x0, y0, x1, y1 of the traced lines: f is known there and held at its edge beyond."""
    pieces: int
    """Line pieces it was fitted to: more on a page read the right way round."""
    traced_letters: float = 0.0
    """The pieces' lengths added up, in letter heights: along the lines of a page they run a
    column wide; across them (square Chinese characters stand in columns too) a few letters."""

    def lift(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        """f(x, y) in pixels for pixel coordinates."""
        x0, y0, x1, y1 = self.text_box
        reach = 3 * self.line_height_px  # a line's last word lies beyond its traced centre
        x, y = np.clip(x, x0 - reach, x1 + reach), np.clip(y, y0, y1)
        return _terms(x / self.width, y / self.height) @ self.coefficients * self.height

    def bend_px(self) -> float:
        """How far the surface bends a line beyond a straight slant: the largest departure of
        f from its chord across the page, over rows down the page."""
        x0, y0, x1, y1 = self.text_box
        x = np.linspace(x0, x1, 41)
        worst = 0.0
        for y in np.linspace(y0, y1, 9):
            lift = self.lift(x, np.full_like(x, y))
            chord = np.interp(x, [x[0], x[-1]], [lift[0], lift[-1]])
            worst = max(worst, float(np.abs(lift - chord).max()))
        return worst

    def slant_px(self) -> float:
        """How far the surface lifts a line's right end above its left end, at most."""
        x0, y0, x1, y1 = self.text_box
        return max(abs(float(self.lift(np.array([x1]), np.array([y]))[0]
                             - self.lift(np.array([x0]), np.array([y]))[0]))
                   for y in np.linspace(y0, y1, 9))


def _terms(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    powers = [x ** k for k in range(1, DEGREE + 1)]
    return np.stack(powers + [p * y for p in powers], axis=-1)


def trace_lines(grey: np.ndarray) -> tuple[list[np.ndarray], float]:
    """Pieces of text lines in the ink, each as (n, 2) points (x, y) along its centre, and the
    letters' median height. Letters are joined sideways across word gaps, never up or down, so
    a piece follows its own line however it curves."""
    block = max(15, (min(grey.shape) // 40) | 1)
    ink = cv2.adaptiveThreshold(grey, 1, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV,
                                block, 12)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    heights = stats[1:, cv2.CC_STAT_HEIGHT]
    widths = stats[1:, cv2.CC_STAT_WIDTH]
    letters = (heights >= 6) & (heights <= grey.shape[0] / 20) & (widths <= 4 * heights)
    if letters.sum() < 20:
        return [], 0.0
    letter_px = float(np.median(heights[letters]))
    keep = np.zeros(count, np.uint8)
    keep[1:][letters] = 1
    letter_ink = keep[labels]
    joined = cv2.dilate(letter_ink, np.ones((1, max(3, int(letter_px))), np.uint8))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(joined, connectivity=8)
    step = max(2, int(letter_px / 2))
    pieces = []
    for index in range(1, count):
        x, y, w, h = stats[index, :4]
        if w < 6 * letter_px:
            continue  # a word alone says little of the curve
        inside = (labels[y:y + h, x:x + w] == index) & (letter_ink[y:y + h, x:x + w] > 0)
        points, extents = [], []
        for c in range(0, w, step):
            rows = np.nonzero(inside[:, c:c + step].any(axis=1))[0]
            if len(rows):
                points.append((x + c + step / 2, y + (rows[0] + rows[-1]) / 2))
                extents.append(rows[-1] - rows[0] + 1)
        # Thicker than a line with its ascenders and descenders: lines touching, not one line.
        if len(points) >= 4 and np.percentile(extents, 90) <= 2.2 * letter_px:
            pieces.append(np.array(points, np.float64))
    return pieces, letter_px


def fit_surface(pieces: list[np.ndarray], width: int, height: int, letter_px: float
                ) -> Surface | None:
    """The surface that best levels every piece (least squares, each piece at its own level),
    fitted twice: the second time without the points the first fit left furthest off."""
    if not pieces:
        return None
    points = np.concatenate(pieces)
    owner = np.concatenate([np.full(len(p), i) for i, p in enumerate(pieces)])
    keep = np.ones(len(points), bool)
    solution = None
    for _ in range(2):
        levels = np.zeros((keep.sum(), len(pieces)))
        levels[np.arange(keep.sum()), owner[keep]] = 1
        design = np.hstack([levels, _terms(points[keep, 0] / width, points[keep, 1] / height)])
        target = points[keep, 1] / height
        solution, *_ = np.linalg.lstsq(design, target, rcond=None)
        full = np.zeros((len(points), len(pieces)))
        full[np.arange(len(points)), owner] = 1
        residual = np.abs(np.hstack([full, _terms(points[:, 0] / width, points[:, 1] / height)])
                          @ solution - points[:, 1] / height) * height
        spread = np.median(residual) * 3 + 1.0
        keep = residual <= spread
    box = (float(points[:, 0].min()), float(points[:, 1].min()), float(points[:, 0].max()),
           float(points[:, 1].max()))
    traced = float(sum(piece[-1, 0] - piece[0, 0] for piece in pieces)) / max(letter_px, 1.0)
    return Surface(solution[len(pieces):], width, height, letter_px, box, len(pieces), traced)


def find_surface(image: np.ndarray, rules: PhotoRules = RULES) -> Surface | None:
    """The page's fitted surface, or None when too few line pieces are found."""
    grey = cv2.cvtColor(image, cv2.COLOR_RGB2GRAY) if image.ndim == 3 else image
    pieces, letter_px = trace_lines(grey)
    if len(pieces) < rules.min_spans:
        return None
    return fit_surface(pieces, grey.shape[1], grey.shape[0], letter_px)


def runs_along(surface: Surface, other: Surface, rules: PhotoRules = RULES) -> bool:
    """Whether the text runs along `surface`'s lines rather than `other`'s (the picture turned a
    quarter): its pieces trace clearly more of the page."""
    return surface.traced_letters >= rules.min_traced_ratio * other.traced_letters


def is_curled(surface: Surface, rules: PhotoRules = RULES) -> bool:
    return surface.bend_px() >= rules.min_curl_px_per_height * surface.line_height_px


def flatten(image: np.ndarray, surface: Surface) -> np.ndarray:
    """The picture remapped so each line lies level: the pixel shown at (u, v) comes from
    (u, y) with y - f(u, y) = v, solved by a few fixed-point steps (f changes slowly in y)."""
    height, width = image.shape[:2]
    u = np.arange(width, dtype=np.float64)
    v = np.arange(height, dtype=np.float64)
    # The map on a coarse grid, then resized: f is smooth, and a full-size solve is slow.
    step = 8
    gu, gv = np.meshgrid(u[::step], v[::step])
    centre = surface.lift(np.array([width / 2]), np.array([height / 2]))
    y = gv.copy()
    for _ in range(4):
        y = gv + surface.lift(gu, y) - centre
    map_y = cv2.resize(y.astype(np.float32), (width, height), interpolation=cv2.INTER_LINEAR)
    map_x = np.broadcast_to(u.astype(np.float32)[None, :], (height, width))
    return cv2.remap(image, np.ascontiguousarray(map_x), map_y, cv2.INTER_CUBIC,
                     borderMode=cv2.BORDER_REPLICATE)
