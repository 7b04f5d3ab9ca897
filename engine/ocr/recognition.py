"""Text recognition: batched CTC recogniser on the derived ids/scores graph (ctc-ids-scores-v1)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from engine.imaging import to_chw_signed
from engine.runtime.sessions import ModelSession
from engine.runtime.steps import StepClock, timed_step

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
    steps: tuple[int, ...] = ()
    """The CTC time step each character of `text` was read at (one step per CTC_STRIDE_PX
    columns of the crop scaled to REC_HEIGHT); engine/ocr/word_boxes.py places words by them."""
    char_scores: tuple[float, ...] = ()
    """The probability of each character of `text` (its CTC step's): a word's confidence is
    the mean over its characters (engine/ocr/word_boxes.py)."""


# The recogniser emits one CTC time step per 8 columns of its 48-pixel-high input.
CTC_STRIDE_PX = 8


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
        pieces = [(int(step), dictionary[i] if i < len(dictionary) else "")
                  for step, i in zip(np.flatnonzero(keep), kept)]
        steps = tuple(step for step, piece in pieces for _ in piece)
        char_scores = tuple(float(p) for p, (_, piece) in zip(row_scores[keep], pieces)
                            for _ in piece)
        results.append(Recognized(text=text, score=score, steps=steps, char_scores=char_scores))
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


# A new batch is started when padding the crops already in it up to the next crop's width would
# cost more than one more run: RUN_COST_PX pixels of padding cost as much as a run's fixed part.
# It is a constant, never fitted while converting: batch widths change what the recogniser reads
# (its padded columns are part of the input), so a plan that followed measured times made the
# same page read differently from run to run. Measured on the 2-core development Xeon (least
# squares of run time against N * 48 * W, fastest of 7 runs, N <= 8, W 320-960): 2.5 ms per run
# and 8.7e-7 s per pixel, about 2,900 px; fits of medians on the loaded machine scattered from
# negative to 130,000 px, which is why the plan no longer follows them.
RUN_COST_PX = 3_000


def plan_batches(widths: list[int], run_cost_px: int = RUN_COST_PX) -> list[list[int]]:
    """Indices grouped into batches, from the per-crop widths at model height alone: the same
    crops give the same batches on any machine, at any load."""
    order = sorted(range(len(widths)), key=lambda i: (widths[i], i))
    batches: list[list[int]] = []
    current: list[int] = []
    current_w = 0
    for idx in order:
        w = max(widths[idx], MIN_BATCH_WIDTH)
        if current:
            padding_px = len(current) * REC_HEIGHT * (w - current_w)
            if padding_px > run_cost_px or len(current) >= MAX_BATCH:
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

    def __init__(self, session: ModelSession, steps: StepClock | None = None) -> None:
        self._session = session
        self.steps = steps or StepClock()
        """Times the step `rec` (the model set's clock, which a page's timings read)."""
        self._dictionary = load_dictionary(session.metadata)

    @timed_step("rec")
    def recognize(self, crops: list[np.ndarray]) -> list[Recognized]:
        results: list[Recognized | None] = [None] * len(crops)
        widths = [crop_width_at_height(c) for c in crops]
        for batch in plan_batches(widths):
            batch_width = grid_width(max(widths[i] for i in batch))
            ids, scores = self._session.run(rec_input([crops[i] for i in batch], batch_width))
            for i, rec in zip(batch, ctc_decode(ids, scores, self._dictionary)):
                results[i] = rec
        return [r if r is not None else Recognized("", 0.0) for r in results]
