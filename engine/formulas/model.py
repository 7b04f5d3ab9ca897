"""Paperlens's own formula recogniser on ONNX Runtime: crops in, LaTeX out.

Two graphs (see tools/formula/export.py): the encoder turns a 64 px high grey image into the
cross-attention keys/values of every decoder layer, the keys already transposed and scaled for
the product (tools/formula/key_layout.py); the decoder takes one token per step with a
key/value cache. Decoding is greedy, batched over crops padded to the same width; a crop leaves
the batch as soon as it emits the end token or a stop rule of engine/formulas/guards.py (a
length cap from its size, a repetition guard) ends it, and the reading then names the guard. The
mean token probability of a reading is its confidence. A formula of several lines is also read
line by line.
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

import cv2
import numpy as np

from engine.formulas.reading import LOW_CONFIDENCE, FormulaReading  # noqa: F401 (LOW_CONFIDENCE: re-exported)
from engine.formulas.guards import (GUARD_LENGTH, GUARD_REPETITION, SPACING, length_cap,
                                    runaway_tail, trim_spacing)
from engine.formulas.image_rule import on_light_paper
from engine.formulas.line_split import formula_lines, ink_bands
from engine.formulas.latex_tokens import detokenize, normalize, tokenize
from engine.imaging import INK, InkRules, ink_map

HEIGHT = 64
WIDTH_STEP = 32
MAX_WIDTH = 1024
PAD, BOS, EOS = 0, 1, 2
MAX_TOKENS = 200
BATCH = 8
DECODER_THREADS = 1
"""Intra-op threads of the decoder's CPU session. A step is a few small products on a batch of
at most 8 tokens, too little to share out: on two cores one thread took 3.26 ms a step at batch
8 against 3.37 ms with two, and the formula bench (49 crops, medians of 3x5 repeats, one run)
went from 119.6 to 108.2 ms per formula."""
TRAINED_MAX_HEIGHT = 46
"""tools/formula/pack.py stores renders at most this high (its --max-height default)."""
ROW_BREAK = "\\\\"
BLUR_SIGMA = 0.8
PAD_SHARE = 0.03
"""Blank margin around the ink, as a share of its height. Training renders carry 3-15%, yet
margins of 0-4% read best (0.843 token similarity on the formula evaluation set against 0.829 at
8% and 0.820 at 12%, the same direction on im2latex, KaTeX and the dev crops)."""


class Session(Protocol):
    input_names: list[str]

    def run(self, *inputs: np.ndarray) -> list[np.ndarray]:
        ...


def load_vocabulary(path: Path) -> list[str]:
    vocab = Path(path).read_text(encoding="utf-8").splitlines()
    if vocab[:3] != ["<pad>", "<bos>", "<eos>"]:
        raise ValueError(f"{path} is not a formula vocabulary (it must start with <pad> <bos> <eos>)")
    return vocab


def fit(ink: np.ndarray, rules: InkRules = INK) -> np.ndarray | None:
    """Ink map -> model input [64, width]: cropped to the ink, padded by 3% of its height, and
    drawn as training saw it. Training renders were stored at most TRAINED_MAX_HEIGHT px high and
    scaled up to 64, so a larger crop is first brought down to that height; the light blur stands
    for the resampling and blur of training's augmentation (the model reads sharp screenshots
    worse than soft ones: 0.801 -> 0.814 token similarity on the formula evaluation set)."""
    rows = np.flatnonzero(ink.max(axis=1) > rules.level)
    cols = np.flatnonzero(ink.max(axis=0) > rules.level)
    if rows.size == 0 or cols.size == 0:
        return None
    ink = ink[rows[0]:rows[-1] + 1, cols[0]:cols[-1] + 1]
    pad = max(1, round(ink.shape[0] * PAD_SHARE))
    ink = cv2.copyMakeBorder(ink, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0.0)
    if ink.shape[0] > TRAINED_MAX_HEIGHT:
        small_width = max(1, round(ink.shape[1] * TRAINED_MAX_HEIGHT / ink.shape[0]))
        ink = cv2.resize(ink, (small_width, TRAINED_MAX_HEIGHT), interpolation=cv2.INTER_AREA)
    h, w = ink.shape
    width = max(8, round(w * HEIGHT / h))
    if width <= MAX_WIDTH:
        image = cv2.resize(ink, (width, HEIGHT), interpolation=cv2.INTER_LINEAR)
    else:  # very wide: 1024 px wide, centred vertically
        height = max(8, round(h * MAX_WIDTH / w))
        small = cv2.resize(ink, (MAX_WIDTH, height), interpolation=cv2.INTER_AREA)
        image = np.zeros((HEIGHT, MAX_WIDTH), np.float32)
        top = (HEIGHT - height) // 2
        image[top:top + height] = small
    return cv2.GaussianBlur(image, (0, 0), BLUR_SIGMA)


def prepare(crop: np.ndarray) -> np.ndarray | None:
    """RGB or grey crop -> model input [64, width] in 0..1 (ink bright), or None when blank."""
    ink = ink_map(crop)
    return None if ink is None else fit(ink)


def padded_width(width: int) -> int:
    """The input width for a prepared image `width` px wide: a multiple of 32, >= 8 px margin."""
    return min(MAX_WIDTH, -(-(width + 8) // WIDTH_STEP) * WIDTH_STEP)


def batch_images(images: list[np.ndarray]) -> np.ndarray:
    """Pads to one width (a multiple of 32 with at least 8 px of margin): [B, 1, 64, W]."""
    width = padded_width(max(img.shape[1] for img in images))
    out = np.zeros((len(images), 1, HEIGHT, width), np.float32)
    for i, img in enumerate(images):
        out[i, 0, :, :min(width, img.shape[1])] = img[:, :width]
    return out


def width_batches(widths: list[int], batch_size: int) -> list[list[int]]:
    """Indices into `widths` (of prepared images) in batches of at most `batch_size` that pad to
    the same input width, so each crop reads exactly as it would alone: the model reads blank
    padding after a formula as spacing (400 px of it: \\qquad up to the token cap) and even
    25 px can change the end of a long reading."""
    groups: dict[int, list[int]] = {}
    for i in sorted(range(len(widths)), key=widths.__getitem__):
        groups.setdefault(padded_width(widths[i]), []).append(i)
    return [group[k:k + batch_size] for group in groups.values() for k in range(0, len(group), batch_size)]


def stack_lines(lines: list[FormulaReading | None], align: str) -> FormulaReading | None:
    """Readings of a formula's lines, top to bottom, as one array reading; its confidence is the
    token-weighted mean of theirs. None when a line has no reading."""
    if not lines or any(line is None for line in lines):
        return None
    tokens = sum(line.tokens for line in lines)
    body = " \\\\ ".join(line.latex for line in lines)
    latex = detokenize(normalize(tokenize(f"\\begin{{array}}{{{align}}} {body} \\end{{array}}")))
    return FormulaReading(latex, sum(line.confidence * line.tokens for line in lines) / tokens,
                          tokens, truncated=any(line.truncated for line in lines),
                          guard=next((line.guard for line in lines if line.guard), ""))


def _softmax_max(logits: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    best = logits.argmax(axis=-1)
    shifted = logits - logits.max(axis=-1, keepdims=True)
    prob = 1.0 / np.exp(shifted).sum(axis=-1)
    return best, prob


class FormulaRecognizerModel:
    """Implements engine.formulas.reading.FormulaRecognizer with the two ONNX graphs."""

    def __init__(self, encoder: Session, decoder: Session, vocabulary: list[str],
                 batch_size: int = BATCH, max_tokens: int = MAX_TOKENS) -> None:
        self.encoder = encoder
        self.decoder = decoder
        self.vocabulary = vocabulary
        self.batch_size = max(1, batch_size)
        self.max_tokens = max_tokens
        self._past = [n for n in decoder.input_names if n.startswith("past_")]
        self._cross = [n for n in decoder.input_names if n.startswith("cross_")]
        self._value = next(i for i, n in enumerate(self._cross) if n.startswith("cross_v"))
        self._spacing = frozenset(i for i, word in enumerate(vocabulary) if word in SPACING)
        self._row_break = vocabulary.index(ROW_BREAK) if ROW_BREAK in vocabulary else -1

    def recognize(self, crops: list[np.ndarray]) -> list[str | None]:
        return [r.latex if r else None for r in self.read(crops)]

    def read(self, crops: list[np.ndarray]) -> list[FormulaReading | None]:
        """One reading per crop (None for a blank crop or one that yields no tokens).

        A crop whose ink falls into several lines (engine.formulas.line_split) is also read line by
        line; the lines, stacked in an array, replace the whole reading when they are read more
        confidently. Light ink on dark paper (a dark theme's screenshot) is read inverted."""
        inks = [None if c is None else ink_map(on_light_paper(c)) for c in crops]
        split = {i: lines for i, ink in enumerate(inks)
                 if ink is not None and (lines := formula_lines(ink)) is not None}
        readings = self._read_images([None if ink is None else fit(ink) for ink in inks],
                                     [1 if ink is None else max(1, len(ink_bands(ink)))
                                      for ink in inks])
        line_images = [fit(inks[i][band.y0:band.y1]) for i, lines in split.items()
                       for band in lines.bands]
        line_readings = iter(self._read_images(line_images))
        for i, lines in split.items():
            stacked = stack_lines([next(line_readings) for _ in lines.bands], lines.align)
            if stacked and (readings[i] is None or stacked.confidence > readings[i].confidence):
                readings[i] = stacked
        return readings

    def _read_images(self, images: list[np.ndarray | None],
                     line_counts: list[int] | None = None) -> list[FormulaReading | None]:
        """Readings of prepared images; `line_counts` (1 each by default): how many lines of
        formula each may hold (its bands of ink: never fewer than its lines), so that its length
        cap allows for all of them."""
        line_counts = line_counts or [1] * len(images)
        results: list[FormulaReading | None] = [None] * len(images)
        readable = [i for i, img in enumerate(images) if img is not None]
        for batch in width_batches([images[i].shape[1] for i in readable], self.batch_size):
            idx = [readable[j] for j in batch]
            sizes = [(images[i].shape[1], line_counts[i]) for i in idx]
            for i, reading in zip(idx, self._decode(batch_images([images[i] for i in idx]), sizes)):
                results[i] = reading
        return results

    def _decode(self, batch: np.ndarray,
                sizes: list[tuple[int, int]]) -> list[FormulaReading | None]:
        """Greedy readings of a batch; a crop stops at its end token, at its length cap or when
        its tail repeats beyond anything in the training formulas; trailing spacing commands are
        dropped. `sizes`: each crop's input width and its bands of ink. The cap
        (engine.formulas.guards.length_cap) allows for as many lines as the crop has bands or as
        the reading has written rows (`\\` row breaks, plus one): lines that touch make one band,
        and the reading is the evidence that there are several."""
        cross = self.encoder.run(batch)
        n = batch.shape[0]
        # A value is [batch, heads, cells, head_dim]; a key may be laid out for the product
        # (tools/formula/key_layout.py), so the cache's sizes are read off a value.
        heads, head_dim = cross[self._value].shape[1], cross[self._value].shape[3]
        past = [np.zeros((n, heads, 0, head_dim), np.float32) for _ in self._past]
        token = np.full((n, 1), BOS, np.int64)
        active = np.arange(n)
        sequences: list[list[int]] = [[] for _ in range(n)]
        probs: list[list[float]] = [[] for _ in range(n)]
        guards = [GUARD_LENGTH] * n
        rows = [1] * n
        caps = [length_cap(width * lines, self.max_tokens) for width, lines in sizes]
        for step in range(self.max_tokens):
            outputs = self.decoder.run(token, np.array([step], np.int64), *past, *cross)
            best, prob = _softmax_max(outputs[0])
            keep = []
            for row, seq_index in enumerate(active):
                probs[seq_index].append(float(prob[row]))
                if best[row] == EOS:
                    guards[seq_index] = ""
                    continue
                sequences[seq_index].append(int(best[row]))
                if best[row] == self._row_break:
                    rows[seq_index] += 1
                    width, lines = sizes[seq_index]
                    caps[seq_index] = length_cap(width * max(lines, rows[seq_index]),
                                                 self.max_tokens)
                if runaway := runaway_tail(sequences[seq_index], self._spacing):
                    del sequences[seq_index][-runaway:]
                    guards[seq_index] = GUARD_REPETITION
                elif len(sequences[seq_index]) < caps[seq_index]:
                    keep.append(row)
            if not keep:
                break
            keep_arr = np.array(keep)
            past = [p[keep_arr] for p in outputs[1:]]
            if len(keep) != len(active):
                cross = [c[keep_arr] for c in cross]
            active = active[keep_arr]
            token = best[keep_arr][:, None].astype(np.int64)
        readings: list[FormulaReading | None] = []
        for seq, p, guard in zip(sequences, probs, guards):
            words = trim_spacing([self.vocabulary[t] for t in seq
                                  if t > EOS and t < len(self.vocabulary)])
            if not words:
                readings.append(None)
                continue
            # The model writes the canonical form it was trained on; normalising again applies
            # spelling rules added since (\operatorname{log} -> \log): rendering is unchanged.
            readings.append(FormulaReading(detokenize(normalize(words)), float(np.mean(p)),
                                           len(words), truncated=guard == GUARD_LENGTH,
                                           guard=guard))
        return readings
