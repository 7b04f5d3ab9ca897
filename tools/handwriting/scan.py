"""A drawn page as a scanner or a phone delivers it: paper colour and texture, uneven light, a
small turn, blur, sensor noise and JPEG compression, in colour (ink colour matters)."""

from __future__ import annotations

import random

import cv2
import numpy as np
import pymupdf

PAPERS = {"white": (250, 250, 248), "cream": (248, 240, 222), "aged": (232, 214, 178),
          "grey": (228, 228, 224)}


def scan(pdf: bytes, rng: random.Random, aged: bool = False, dpi: int | None = None,
         poor: bool = False) -> bytes:
    """A JPEG of the PDF's first page (at `dpi`, or a resolution drawn from `rng`); `poor`: a
    bad copy."""
    drawn = rng.choice((150, 200, 240, 300))
    dpi = dpi or drawn
    with pymupdf.open(stream=pdf) as doc:
        pix = doc[0].get_pixmap(dpi=dpi, colorspace=pymupdf.csRGB, alpha=False)
        image = np.frombuffer(pix.samples, np.uint8).reshape(pix.height, pix.width, 3)
    noise_rng = np.random.default_rng(rng.randrange(2**32))
    paper = np.array(PAPERS["aged" if aged else rng.choice(("white", "white", "cream", "grey"))],
                     np.float32)
    height, width = image.shape[:2]
    # Light falls off across the sheet (stronger for a phone photo than a flatbed).
    photo = rng.random() < 0.25
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    ax, ay = rng.uniform(-1, 1), rng.uniform(-1, 1)
    light = 1 + (0.18 if photo else 0.05) * (ax * (xx / width - 0.5) + ay * (yy / height - 0.5))
    texture = cv2.GaussianBlur(noise_rng.normal(0, 1, (height // 8 + 1, width // 8 + 1))
                               .astype(np.float32), (0, 0), 2)
    texture = cv2.resize(texture, (width, height)) * rng.uniform(1, 4)
    sheet = (paper[None, None, :] * light[..., None] + texture[..., None])
    out = image.astype(np.float32) / 255 * sheet
    angle = rng.uniform(-3, 3) if photo else rng.uniform(-1.2, 1.2)
    turn = cv2.getRotationMatrix2D((width / 2, height / 2), angle, 1.0)
    out = cv2.warpAffine(out, turn, (width, height), flags=cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_REPLICATE)
    # A poor copy (soft focus, grain, heavy compression) lowers the recogniser's confidence on
    # print as handwriting does; the same draws either way, so other pages stay as they were.
    blur = rng.uniform(0.4, 1.2) + (0.8 if poor else 0.0)
    out = cv2.GaussianBlur(out, (0, 0), blur * dpi / 200)
    grain = rng.uniform(2, 8) + (8 if poor else 0)
    out += noise_rng.normal(0, grain, out.shape).astype(np.float32)
    out = np.clip(out, 0, 255).astype(np.uint8)[:, :, ::-1]  # RGB -> BGR for OpenCV
    quality = rng.randint(45, 90) - (25 if poor else 0)
    ok, data = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    return data.tobytes()
