"""Text recognition: batched CTC recogniser on the derived ids/scores graph (ctc-ids-scores-v1)."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import cv2
import numpy as np

from engine.imaging import to_chw_signed
from engine.models.sessions import ModelSession

REC_HEIGHT = 48
# The recogniser was trained on 320-pixel-wide crops; narrower batches gain nothing.
MIN_BATCH_WIDTH = 320
WIDTH_GRID = 16
MAX_BATCH = 32
MAX_WIDTH = 3200


@dataclass(frozen=True)
class Recognized:
    text: str
    score: float


def load_dictionary(metadata: dict[str, str]) -> list[str]:
    """CTC classes: blank, the model's `character` list, then the space it was trained with."""
    chars = metadata.get("character")
    if not chars:
        raise ValueError("recognition model carries no `character` metadata")
    return ["<blank>"] + chars.splitlines() + [" "]


def ctc_decode(ids: np.ndarray, scores: np.ndarray, dictionary: list[str]) -> list[Recognized]:
    """Collapse repeats, drop blanks (id 0); confidence = mean score of the kept steps."""
    results: list[Recognized] = []
    for row_ids, row_scores in zip(ids, scores):
        keep = np.ones(len(row_ids), dtype=bool)
        keep[1:] = row_ids[1:] != row_ids[:-1]
        keep &= row_ids != 0
        kept = row_ids[keep]
        text = "".join(dictionary[i] if i < len(dictionary) else "" for i in kept)
        score = float(row_scores[keep].mean()) if kept.size else 0.0
        results.append(Recognized(text=text, score=score))
    return results


def crop_width_at_height(crop: np.ndarray) -> int:
    h, w = crop.shape[:2]
    return max(1, min(MAX_WIDTH, int(math.ceil(REC_HEIGHT * w / max(h, 1)))))


def rec_input(crops: list[np.ndarray], batch_width: int) -> np.ndarray:
    """RGB crops -> (N, 3, 48, batch_width) float32 scaled to [-1, 1], right-padded with zeros."""
    batch = np.zeros((len(crops), 3, REC_HEIGHT, batch_width), dtype=np.float32)
    for i, crop in enumerate(crops):
        width = min(batch_width, crop_width_at_height(crop))
        batch[i, :, :, :width] = to_chw_signed(cv2.resize(crop[:, :, ::-1], (width, REC_HEIGHT)))
    return batch


class BatchCostModel:
    """Online least-squares fit of run time = a + t * (N * W) for cutting batches.

    Padding a narrow crop up to a wide batch costs t * W_extra per crop; starting a new batch
    costs a. A batch is cut when the padding its next crop would add exceeds a."""

    def __init__(self, fixed_s: float = 0.004, per_px_s: float = 2.5e-7) -> None:
        self.fixed_s = fixed_s
        self.per_px_s = per_px_s
        self._samples: list[tuple[float, float]] = []

    def observe(self, pixels: float, seconds: float) -> None:
        self._samples.append((pixels, seconds))
        self._samples = self._samples[-64:]
        if len(self._samples) < 4:
            return
        x = np.array([s[0] for s in self._samples])
        y = np.array([s[1] for s in self._samples])
        if np.ptp(x) <= 0:
            return
        slope, intercept = np.polyfit(x, y, 1)
        if slope > 0:
            self.per_px_s = float(slope)
            self.fixed_s = float(max(intercept, 1e-4))

    def plan(self, widths: list[int]) -> list[list[int]]:
        """Indices grouped into batches; `widths` is the per-crop width at model height."""
        order = sorted(range(len(widths)), key=lambda i: widths[i])
        batches: list[list[int]] = []
        current: list[int] = []
        current_w = 0
        for idx in order:
            w = max(widths[idx], MIN_BATCH_WIDTH)
            if current:
                padding_cost = self.per_px_s * len(current) * REC_HEIGHT * (w - current_w)
                if padding_cost > self.fixed_s or len(current) >= MAX_BATCH:
                    batches.append(current)
                    current, current_w = [], 0
            current.append(idx)
            current_w = max(current_w, w)
        if current:
            batches.append(current)
        return batches


def grid_width(width: int) -> int:
    return int(math.ceil(max(width, MIN_BATCH_WIDTH) / WIDTH_GRID) * WIDTH_GRID)


class TextRecognizer:
    """Reads text-line crops (upright RGB arrays) into strings with confidences."""

    def __init__(self, session: ModelSession) -> None:
        self._session = session
        self._dictionary = load_dictionary(session.metadata)
        self.cost = BatchCostModel()

    def recognize(self, crops: list[np.ndarray]) -> list[Recognized]:
        results: list[Recognized | None] = [None] * len(crops)
        widths = [crop_width_at_height(c) for c in crops]
        for batch in self.cost.plan(widths):
            batch_width = grid_width(max(widths[i] for i in batch))
            tensor = rec_input([crops[i] for i in batch], batch_width)
            start = time.perf_counter()
            ids, scores = self._session.run(tensor)
            self.cost.observe(len(batch) * REC_HEIGHT * batch_width, time.perf_counter() - start)
            for i, rec in zip(batch, ctc_decode(ids, scores, self._dictionary)):
                results[i] = rec
        return [r if r is not None else Recognized("", 0.0) for r in results]
