"""A page "photographed in software": the page's pixels laid on a desk, curled like an open book,
seen at a slant, lit unevenly, turned, blurred and saved as JPEG. Pure functions on arrays with
the strength as an argument, so a photo is the same for the same page, effects and strength."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

EFFECTS = ("flat", "perspective", "curl", "light", "turn", "blur", "all")
"""Each effect alone on a page lying flat on a desk ("flat": the desk alone), and all at once."""
STRENGTHS = (1, 2)
"""Mild and strong; the turn has one strength (a quarter turn)."""


@dataclass(frozen=True)
class Shot:
    effect: str
    strength: int

    @property
    def name(self) -> str:
        return self.effect if self.effect in ("flat", "turn") else f"{self.effect}-{self.strength}"


def shots() -> list[Shot]:
    """Every (effect, strength) the set photographs each page with."""
    return [Shot(effect, strength) for effect in EFFECTS
            for strength in ((1,) if effect in ("flat", "turn") else STRENGTHS)]


def desk(height: int, width: int, seed: int) -> np.ndarray:
    """A brown wooden desk: a grain of slow stripes and noise, darker than paper."""
    rng = np.random.default_rng(seed)
    y = np.arange(height, dtype=np.float32)[:, None]
    x = np.arange(width, dtype=np.float32)[None, :]
    grain = (np.sin(y / 23.0 + 3 * np.sin(x / 310.0)) * 10
             + np.sin(y / 7.3 + x / 900.0) * 4)
    noise = cv2.GaussianBlur(rng.normal(0, 12, (height, width)).astype(np.float32), (0, 0), 2)
    base = np.array([118, 82, 52], np.float32)  # RGB of a mid-brown wood
    shade = (grain + noise)[:, :, None]
    return np.clip(base + shade * np.array([1.0, 0.8, 0.6], np.float32), 0, 255).astype(np.uint8)


def curl(page: np.ndarray, strength: int) -> tuple[np.ndarray, np.ndarray]:
    """The page bent like the right-hand page of an open book: its surface rises from the spine
    (left edge) to a crest and falls towards the free edge, so each column of pixels moves up
    by the surface height, more towards the foot of the page (the camera looks down at it from
    above the middle), and the slopes foreshorten it across. Returns the bent page and its
    mask (255 on paper) on a canvas with room for the lift."""
    height, width = page.shape[:2]
    amplitude = (0.035, 0.07)[strength - 1] * height
    x = np.arange(width, dtype=np.float64) / width
    surface = amplitude * np.sin(np.pi * np.clip(x * 1.15, 0, 1)) * (1 - 0.35 * x)
    slope = np.gradient(surface, 1.0)
    # Foreshortening: a unit of paper seen at slope s spans cos(atan(s)) across.
    across = np.concatenate([[0.0], np.cumsum(np.cos(np.arctan(slope[1:])))])
    lift = int(np.ceil(amplitude * 1.6)) + 4
    out_w = int(np.ceil(across[-1])) + 1
    out_h = height + lift
    u = np.arange(out_w, dtype=np.float64)
    src_x = np.interp(u, across, np.arange(width, dtype=np.float64))
    rise = np.interp(src_x, np.arange(width), surface)
    v = np.arange(out_h, dtype=np.float64)[:, None]
    # The row at source y lies rise * (0.6 + 0.8 y / H) higher; solved for y per output row.
    src_y = (v - lift + 0.6 * rise[None, :]) / (1 - 0.8 * rise[None, :] / height)
    map_x = np.broadcast_to(src_x[None, :], (out_h, out_w)).astype(np.float32)
    map_y = src_y.astype(np.float32)
    bent = cv2.remap(page, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                     borderValue=(0, 0, 0))
    mask = cv2.remap(np.full((height, width), 255, np.uint8), map_x, map_y, cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    return bent, mask


def lay_on_desk(page: np.ndarray, mask: np.ndarray, tilt: float, seed: int) -> np.ndarray:
    """The page seen from above on a desk: its corners moved by a homography that leans it back
    by `tilt` (0: straight above; 0.2: the top edge a fifth narrower) and turns it a little, in a
    frame with desk showing on every side."""
    rng = np.random.default_rng(seed)
    height, width = page.shape[:2]
    margin = int(0.12 * max(height, width))
    frame_h, frame_w = height + 2 * margin, width + 2 * margin
    inset = tilt * width / 2
    corners = np.float32([[0, 0], [width, 0], [width, height], [0, height]])
    target = np.float32([[margin + inset, margin + tilt * height * 0.25],
                         [margin + width - inset * 0.7, margin],
                         [margin + width, margin + height],
                         [margin, margin + height - tilt * height * 0.1]])
    angle = np.deg2rad(rng.uniform(-2, 2) + (6 if tilt else 0))
    centre = target.mean(axis=0)
    turn = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    target = ((target - centre) @ turn.T + centre).astype(np.float32)
    homography = cv2.getPerspectiveTransform(corners, target)
    seen = cv2.warpPerspective(page, homography, (frame_w, frame_h), flags=cv2.INTER_AREA)
    seen_mask = cv2.warpPerspective(mask, homography, (frame_w, frame_h),
                                    flags=cv2.INTER_LINEAR).astype(np.float32)[:, :, None] / 255
    background = desk(frame_h, frame_w, seed)
    # A soft shadow under the page's edge.
    shadow = cv2.GaussianBlur(seen_mask[:, :, 0], (0, 0), 12)[:, :, None]
    background = (background * (1 - 0.45 * shadow)).astype(np.float32)
    return np.clip(seen * seen_mask + background * (1 - seen_mask), 0, 255).astype(np.uint8)


def light(image: np.ndarray, strength: int, seed: int) -> np.ndarray:
    """Uneven light: a lamp to one side (a gradient down to 0.75 or 0.55 of full light) and the
    soft shadow of a hand or phone over one corner."""
    rng = np.random.default_rng(seed + 7)
    height, width = image.shape[:2]
    low = (0.75, 0.55)[strength - 1]
    y, x = np.mgrid[0:height, 0:width].astype(np.float32)
    angle = rng.uniform(0, 2 * np.pi)
    ramp = (np.cos(angle) * x / width + np.sin(angle) * y / height)
    ramp = (ramp - ramp.min()) / max(float(np.ptp(ramp)), 1e-6)
    gain = low + (1 - low) * ramp
    cx, cy = rng.uniform(0.6, 0.9) * width, rng.uniform(0.6, 0.9) * height
    blob = np.exp(-(((x - cx) / (0.3 * width)) ** 2 + ((y - cy) / (0.25 * height)) ** 2))
    gain *= 1 - (0.15, 0.3)[strength - 1] * blob
    tint = np.array([1.0, 0.97, 0.9], np.float32)  # warm lamp light
    return np.clip(image * gain[:, :, None] * tint, 0, 255).astype(np.uint8)


def blur(image: np.ndarray, strength: int) -> np.ndarray:
    """A little out of focus: Gaussian blur of sigma 1.2 or 2.0 pixels."""
    return cv2.GaussianBlur(image, (0, 0), (1.2, 2.0)[strength - 1])


def jpeg(image: np.ndarray, quality: int = 82) -> bytes:
    ok, data = cv2.imencode(".jpg", cv2.cvtColor(image, cv2.COLOR_RGB2BGR),
                            [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    return data.tobytes()


def photograph(page: np.ndarray, shot: Shot, seed: int) -> bytes:
    """The page (RGB) photographed as `shot` says, as JPEG bytes."""
    effect, strength = shot.effect, shot.strength
    every = effect == "all"
    mask = np.full(page.shape[:2], 255, np.uint8)
    if effect == "curl" or every:
        page, mask = curl(page, strength)
    tilt = (0.1, 0.2)[strength - 1] if effect == "perspective" or every else 0.0
    image = lay_on_desk(page, mask, tilt, seed)
    if effect == "light" or every:
        image = light(image, strength, seed)
    if effect == "blur" or every:
        image = blur(image, strength)
    if effect == "turn" or every:
        image = np.ascontiguousarray(np.rot90(image, 1))
    return jpeg(image, 82 if not every else 70)
