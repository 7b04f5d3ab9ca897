"""How a generated image is finished, the same for every renderer: its colours (white, tinted,
dark or transparent background), its margin (none, a few pixels, or a screen-sized window with the
content somewhere in it), screenshot scaling and JPEG. Pure functions on arrays; the choices are
drawn from a seeded random.Random by `draw_look`."""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass

import cv2
import numpy as np

BACKGROUNDS = ("white", "tinted", "dark", "transparent")
MARGINS = ("none", "small", "window")
# Colours of real themes: (background, ink). Tinted: GitHub code, Solarized light, grey, paper.
TINTED = (((246, 248, 250), (36, 41, 47)), ((253, 246, 227), (88, 110, 117)),
          ((238, 238, 238), (17, 17, 17)), ((255, 251, 230), (40, 40, 40)))
# Dark: GitHub dark, VS Code, One Dark, black, IntelliJ Darcula, Solarized dark.
DARK = (((13, 17, 23), (201, 209, 217)), ((30, 30, 30), (212, 212, 212)),
        ((40, 44, 52), (171, 178, 191)), ((0, 0, 0), (255, 255, 255)),
        ((43, 43, 43), (169, 183, 198)), ((0, 43, 54), (147, 161, 161)))
WHITE = (((255, 255, 255), (0, 0, 0)), ((255, 255, 255), (34, 34, 34)))


@dataclass(frozen=True)
class Look:
    background: str
    """One of BACKGROUNDS."""
    paper: tuple[int, int, int]
    ink: tuple[int, int, int]
    margin: str
    """One of MARGINS."""
    scale: float
    """Resampling after rendering (1.0: none): a screenshot shown at another zoom."""
    jpeg_quality: int
    """0: saved as PNG."""

    @property
    def family_background(self) -> str:
        """The background as families are reported: light ink on a transparent background
        (made for a dark theme) apart from dark ink on one."""
        if self.background == "transparent" and min(self.ink) > 128:
            return "transparent-light"
        return self.background

    def record(self) -> dict:
        return asdict(self)


def draw_look(rng: random.Random, light_ink_on_transparent: float = 0.0) -> Look:
    """Background 35% white, 15% tinted, 30% dark, 20% transparent; margin a third each;
    a third resampled; a quarter of the opaque ones saved as JPEG."""
    background = rng.choices(BACKGROUNDS, weights=(35, 15, 30, 20))[0]
    if background == "transparent":
        ink = (235, 235, 235) if rng.random() < light_ink_on_transparent else rng.choice(WHITE)[1]
        paper = (255, 255, 255)
    else:
        paper, ink = rng.choice({"white": WHITE, "tinted": TINTED, "dark": DARK}[background])
    scale = 1.0
    if rng.random() < 1 / 3:
        scale = round(rng.choice([rng.uniform(0.5, 0.85), rng.uniform(1.2, 2.0)]), 2)
    jpeg = rng.randint(55, 92) if background != "transparent" and rng.random() < 0.25 else 0
    return Look(background, tuple(paper), tuple(ink), rng.choice(MARGINS), scale, jpeg)


def colourise(grey: np.ndarray, look: Look) -> np.ndarray:
    """A black-on-white grey render -> RGB in the look's colours, or RGBA (ink colour, alpha =
    ink coverage) for a transparent background. Anti-aliased edges blend as a renderer's do."""
    coverage = (255.0 - grey.astype(np.float32))[..., None] / 255.0
    ink = np.array(look.ink, np.float32)
    if look.background == "transparent":
        rgb = np.broadcast_to(ink, grey.shape + (3,))
        return np.dstack([rgb, coverage[..., 0] * 255.0]).round().astype(np.uint8)
    paper = np.array(look.paper, np.float32)
    return (paper * (1.0 - coverage) + ink * coverage).round().astype(np.uint8)


def content_bounds(image: np.ndarray, look: Look) -> tuple[int, int, int, int]:
    """(x0, y0, x1, y1) of what differs from the background (alpha for RGBA)."""
    if image.shape[2] == 4:
        mask = image[..., 3] > 8
    else:
        mask = np.abs(image.astype(np.int16) - np.array(look.paper, np.int16)).max(axis=2) > 24
    rows, cols = np.flatnonzero(mask.any(axis=1)), np.flatnonzero(mask.any(axis=0))
    if rows.size == 0:
        return 0, 0, image.shape[1], image.shape[0]
    return int(cols[0]), int(rows[0]), int(cols[-1]) + 1, int(rows[-1]) + 1


def _canvas(height: int, width: int, image: np.ndarray, look: Look) -> np.ndarray:
    canvas = np.zeros((height, width, image.shape[2]), np.uint8)
    if image.shape[2] == 3:
        canvas[:] = look.paper
    else:
        canvas[..., :3] = look.ink
    return canvas


def with_margin(content: np.ndarray, look: Look, rng: random.Random) -> np.ndarray:
    """Content (cropped to its ink) with a margin: "none" 0-1 px around it, "small" 3-40 px per
    side, "window" placed in a screen-sized canvas (800-1400 x 500-900, at most 6 x 8 times the
    content), top-left more often."""
    h, w = content.shape[:2]
    if look.margin == "window":
        # A screen's size, yet the content no smaller than a sixth of it across or an eighth
        # down: a formula lost in a whole screen is no longer a screenshot of that formula.
        height = max(h + 8, min(rng.randint(500, 900), 8 * h))
        width = max(w + 8, min(rng.randint(800, 1400), 6 * w))
        if rng.random() < 0.5:
            top, left = rng.randint(0, min(40, height - h)), rng.randint(0, min(40, width - w))
        else:
            top, left = rng.randint(0, height - h), rng.randint(0, width - w)
    else:
        low, high = (0, 1) if look.margin == "none" else (3, 40)
        top, bottom, left, right = (rng.randint(low, high) for _ in range(4))
        height, width = h + top + bottom, w + left + right
    canvas = _canvas(height, width, content, look)
    canvas[top:top + h, left:left + w] = content
    return canvas


def resampled(image: np.ndarray, scale: float) -> np.ndarray:
    if scale == 1.0:
        return image
    h, w = image.shape[:2]
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    return cv2.resize(image, size, interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_CUBIC)


MIN_SCALED_HEIGHT_PX = 20
"""Scaling down never leaves the content lower than this: smaller is no longer legible."""


def finish(image: np.ndarray, look: Look, rng: random.Random) -> tuple[np.ndarray, float]:
    """A rendered RGB(A) image (content on the look's background) cropped to its content,
    scaled (a screenshot at another zoom) and given its margin; also the scale applied."""
    x0, y0, x1, y1 = content_bounds(image, look)
    content = image[y0:y1, x0:x1]
    scale = look.scale
    if scale < 1 and content.shape[0] * scale < MIN_SCALED_HEIGHT_PX:
        scale = min(1.0, round(MIN_SCALED_HEIGHT_PX / content.shape[0], 2))
    return with_margin(resampled(content, scale), look, rng), scale


def encode(image: np.ndarray, look: Look) -> tuple[bytes, str]:
    """The file's bytes and suffix: JPEG at the look's quality, else PNG (RGBA kept)."""
    if image.shape[2] == 4:
        bgr = cv2.cvtColor(image, cv2.COLOR_RGBA2BGRA)
    else:
        bgr = cv2.cvtColor(image, cv2.COLOR_RGB2BGR)
    if look.jpeg_quality:
        ok, data = cv2.imencode(".jpg", bgr, [cv2.IMWRITE_JPEG_QUALITY, look.jpeg_quality])
        suffix = ".jpg"
    else:
        ok, data = cv2.imencode(".png", bgr)
        suffix = ".png"
    if not ok:
        raise ValueError("could not encode a generated image")
    return data.tobytes(), suffix
