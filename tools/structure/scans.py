"""Scanned variants of generated pages: rendered at 150-300 dpi, turned a little, blurred, with
sensor noise and JPEG compression, the way a office scanner or a phone delivers a page."""

from __future__ import annotations

import random

import cv2
import numpy as np
import pymupdf


def scan(pdf: bytes, rng: random.Random) -> bytes:
    """A JPEG of the PDF's first page as a scanner might have produced it."""
    dpi = rng.choice((150, 200, 240, 300))
    with pymupdf.open(stream=pdf) as doc:
        pix = doc[0].get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY)
        image = np.frombuffer(pix.samples, np.uint8).reshape(pix.height, pix.width).copy()
    height, width = image.shape
    angle = rng.uniform(-1.2, 1.2)
    turn = cv2.getRotationMatrix2D((width / 2, height / 2), angle, 1.0)
    image = cv2.warpAffine(image, turn, (width, height), flags=cv2.INTER_LINEAR,
                           borderValue=255)
    sigma = rng.uniform(0.4, 1.1) * dpi / 200
    image = cv2.GaussianBlur(image, (0, 0), sigma)
    noise = np.random.default_rng(rng.randrange(2**32)).normal(0, rng.uniform(3, 9), image.shape)
    paper = rng.uniform(225, 250)
    image = np.clip(image.astype(np.float32) * paper / 255 + noise, 0, 255).astype(np.uint8)
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, rng.randint(45, 85)])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    return data.tobytes()
