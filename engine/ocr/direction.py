"""Text-line direction: the 0/180 degree classifier that turns upside-down crops upright."""

from __future__ import annotations

import math

import cv2
import numpy as np

from engine.imaging import to_chw_signed
from engine.runtime.sessions import ModelSession

CLS_HEIGHT = 48
CLS_WIDTH = 192
# Only turn a crop when the classifier is sure: a wrong flip destroys a correct line.
FLIP_THRESHOLD = 0.9


def cls_input(crops: list[np.ndarray]) -> np.ndarray:
    """Crops (RGB) -> (N, 3, 48, 192) float32 in [-1, 1], ratio-preserving, right-padded with
    zeros."""
    batch = np.zeros((len(crops), 3, CLS_HEIGHT, CLS_WIDTH), dtype=np.float32)
    for i, crop in enumerate(crops):
        h, w = crop.shape[:2]
        width = min(CLS_WIDTH, max(1, int(math.ceil(CLS_HEIGHT * w / max(h, 1)))))
        batch[i, :, :, :width] = to_chw_signed(cv2.resize(crop[:, :, ::-1], (width, CLS_HEIGHT)))
    return batch


class TextDirectionClassifier:
    """Predicts whether each text-line crop is upside down."""

    def __init__(self, session: ModelSession, batch_size: int = 16) -> None:
        self._session = session
        self._batch_size = batch_size

    def upright(self, crops: list[np.ndarray]) -> tuple[list[np.ndarray], list[bool]]:
        """The crops turned upright, and for each whether it was flipped."""
        flipped: list[bool] = []
        out: list[np.ndarray] = []
        for start in range(0, len(crops), self._batch_size):
            chunk = crops[start:start + self._batch_size]
            probs = self._session.run(cls_input(chunk))[0]
            for crop, p in zip(chunk, probs):
                flip = bool(p[1] > p[0] and p[1] >= FLIP_THRESHOLD)
                flipped.append(flip)
                out.append(np.ascontiguousarray(crop[::-1, ::-1]) if flip else crop)
        return out, flipped
