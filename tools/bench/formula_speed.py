"""The formula recogniser's CPU speed: ms per formula in its batches, split into encoder, decoder
and the rest (cropping to the ink, padding, the greedy loop in Python)."""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from engine.formulas.model import FormulaRecognizerModel
from tools.bench.stats import median

DEFAULT_EVERY = 4
"""The bench reads every 4th image of the formula set (49 of 196): a few seconds per repeat on
2 cores, with both groups (im2latex and KaTeX screenshots) in their proportions."""


class TimedSession:
    """A session whose runs add their wall time to `totals[name]`."""

    def __init__(self, session, totals: dict[str, float], name: str) -> None:
        self._session = session
        self._totals = totals
        self._name = name
        self.input_names = session.input_names

    def run(self, *inputs: np.ndarray) -> list[np.ndarray]:
        start = time.perf_counter()
        outputs = self._session.run(*inputs)
        self._totals[self._name] += time.perf_counter() - start
        return outputs


@dataclass(frozen=True)
class FormulaRepeat:
    """One timed `read` of every image: its wall time and the time inside each graph."""

    wall_s: float
    encoder_s: float
    decoder_s: float


@dataclass(frozen=True)
class FormulaSpeed:
    """Medians over the repeats, per formula."""

    images: int
    batch_size: int
    repeats: int
    ms_per_formula: float
    ms_per_formula_min: float
    ms_per_formula_max: float
    images_per_s: float
    encoder_ms: float
    decoder_ms: float
    other_ms: float
    """Outside both graphs: preparing the crops and the decoding loop."""


def summarise_repeats(repeats: Sequence[FormulaRepeat], images: int,
                      batch_size: int) -> FormulaSpeed:
    per_formula = [1000 * r.wall_s / images for r in repeats]
    encoder = median(1000 * r.encoder_s / images for r in repeats)
    decoder = median(1000 * r.decoder_s / images for r in repeats)
    wall = median(per_formula)
    return FormulaSpeed(
        images=images, batch_size=batch_size, repeats=len(repeats), ms_per_formula=wall,
        ms_per_formula_min=min(per_formula), ms_per_formula_max=max(per_formula),
        images_per_s=1000 / wall, encoder_ms=encoder, decoder_ms=decoder,
        other_ms=wall - encoder - decoder)


def timed_recognizer(recognizer: FormulaRecognizerModel,
                     totals: dict[str, float]) -> FormulaRecognizerModel:
    """The same recogniser (same sessions, vocabulary, batch size) with its graphs timed."""
    return FormulaRecognizerModel(TimedSession(recognizer.encoder, totals, "encoder"),
                                  TimedSession(recognizer.decoder, totals, "decoder"),
                                  recognizer.vocabulary, batch_size=recognizer.batch_size,
                                  max_tokens=recognizer.max_tokens)


def measure_formula_speed(recognizer: FormulaRecognizerModel, crops: Sequence[np.ndarray],
                          repeats: int, warmup: int = 1,
                          progress: Callable[[str], None] | None = None) -> FormulaSpeed:
    """`warmup` untimed reads of all crops, then `repeats` timed ones (one `read` call each, so
    the recogniser forms its batches by width as it does on a page)."""
    totals: dict[str, float] = defaultdict(float)
    timed = timed_recognizer(recognizer, totals)
    for _ in range(warmup):
        timed.read(list(crops))
    samples = []
    for index in range(repeats):
        totals.clear()
        start = time.perf_counter()
        timed.read(list(crops))
        wall_s = time.perf_counter() - start
        samples.append(FormulaRepeat(wall_s, totals["encoder"], totals["decoder"]))
        if progress is not None:
            progress(f"formulas: repeat {index + 1}/{repeats} "
                     f"{1000 * wall_s / len(crops):.0f} ms/formula")
    return summarise_repeats(samples, len(crops), recognizer.batch_size)
