"""Word boxes of an OCR line: the recogniser's CTC time steps say roughly where each character
was read along the crop; the crop's own ink says exactly where each word's strokes begin and
end; the detector's quadrilateral takes them back to page pixels."""

from __future__ import annotations

from typing import Mapping

import cv2
import numpy as np

from engine.ocr.recognition import CTC_STRIDE_PX, crop_width_at_height
from engine.text import joins_unspaced
from engine.types import Box, Word

# Rows of a crop belong to the line's ink band while they hold at least this share of the
# fullest row's ink: the strokes of neighbouring lines that an unclipped detector box takes in
# at its top and bottom edge are thinner than that and stay outside.
BAND_ROW_SHARE = 0.06
# A crop whose grey levels span less than this has no ink to measure (a blank or flat crop).
MIN_CONTRAST = 40


def word_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) character offsets of the words of `text`: runs between spaces, each character
    of unspaced writing (Chinese, Japanese) a word of its own."""
    spans: list[tuple[int, int]] = []
    i = 0
    while i < len(text):
        if text[i].isspace():
            i += 1
        elif joins_unspaced(text[i]):
            spans.append((i, i + 1))
            i += 1
        else:
            j = i
            while j < len(text) and not text[j].isspace() and not joins_unspaced(text[j]):
                j += 1
            spans.append((i, j))
            i = j
    return spans


def ink_mask(crop: np.ndarray) -> np.ndarray | None:
    """Dark-on-light ink of a crop (Otsu), or None when the crop is too flat to tell."""
    grey = cv2.cvtColor(crop, cv2.COLOR_RGB2GRAY) if crop.ndim == 3 else crop
    if int(grey.max()) - int(grey.min()) < MIN_CONTRAST:
        return None
    _, mask = cv2.threshold(grey, 0, 1, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    ink = mask == 0
    if ink.mean() > 0.5:  # light text on a dark ground
        ink = ~ink
    return ink


def ink_band(ink: np.ndarray) -> tuple[int, int]:
    """The rows (top, bottom exclusive) of the line's own ink: the run of well-inked rows
    around the fullest one."""
    rows = ink.sum(axis=1)
    peak = int(np.argmax(rows))
    if rows[peak] == 0:
        return 0, ink.shape[0]
    strong = rows >= BAND_ROW_SHARE * rows[peak]
    top = peak
    while top > 0 and strong[top - 1]:
        top -= 1
    bottom = peak + 1
    while bottom < len(rows) and strong[bottom]:
        bottom += 1
    return top, bottom


def _crop_to_page(quad: np.ndarray, crop_shape: tuple[int, int],
                  points: np.ndarray) -> np.ndarray:
    """Points (x, y) of the recogniser's crop back to page pixels, undoing crop_quad's warp
    (and its quarter turn of vertical lines)."""
    quad = np.asarray(quad, dtype=np.float32)
    height, width = crop_shape
    pts = np.asarray(points, dtype=np.float32).copy()
    # The warp's size as crop_quad computes it; a crop of the transposed size was turned.
    warp_w = max(1, int(max(np.linalg.norm(quad[0] - quad[1]), np.linalg.norm(quad[2] - quad[3]))))
    warp_h = max(1, int(max(np.linalg.norm(quad[0] - quad[3]), np.linalg.norm(quad[1] - quad[2]))))
    if (height, width) == (warp_w, warp_h) and warp_w != warp_h:
        # crop_quad turned the warped crop a quarter counter-clockwise: its column c, row r
        # was the warp's column (warp width - r), row c.
        pts = np.stack([warp_w - pts[:, 1], pts[:, 0]], axis=1)
    target = np.array([[0, 0], [warp_w, 0], [warp_w, warp_h], [0, warp_h]], dtype=np.float32)
    back = cv2.getPerspectiveTransform(target, quad)
    return cv2.perspectiveTransform(pts.reshape(-1, 1, 2), back).reshape(-1, 2)


def line_words(text: str, steps: tuple[int, ...], quad: np.ndarray, crop: np.ndarray,
               step_scores: Mapping[int, float] | None = None) -> tuple[Word, ...]:
    """The words of one recognised line with their boxes in page pixels.

    `text` is the recogniser's text (before stripping), `steps` its CTC step per character,
    `crop` the crop it read. A word's extent along the line starts from its characters' steps
    and is narrowed to the ink between its neighbours; across the line it is the line's ink
    band. Its score is the mean of its characters' probabilities (`step_scores`, by step).
    Empty when the steps do not match the text."""
    if len(steps) != len(text) or not text.strip():
        return ()
    height, width = crop.shape[:2]
    per_step = CTC_STRIDE_PX * width / crop_width_at_height(crop)
    centres = (np.asarray(steps, dtype=np.float64) + 0.5) * per_step
    ink = ink_mask(crop)
    top, bottom = ink_band(ink) if ink is not None else (0, height)
    columns = ink[top:bottom].any(axis=0) if ink is not None else None
    words: list[Word] = []
    for start, end in word_spans(text):
        lo = _bound(text, centres, start - 1, start, 0.0)
        hi = _bound(text, centres, end - 1, end, float(width))
        x0, x1 = lo, hi
        if columns is not None:
            inked = np.flatnonzero(columns[int(max(lo, 0)):int(np.ceil(min(hi, width)))])
            if inked.size:
                x0, x1 = int(max(lo, 0)) + inked[0], int(max(lo, 0)) + inked[-1] + 1
        corners = np.array([[x0, top], [x1, top], [x1, bottom], [x0, bottom]], dtype=np.float32)
        page = _crop_to_page(quad, (height, width), corners)
        known = [step_scores[s] for s in steps[start:end] if s in step_scores] \
            if step_scores else []
        words.append(Word(text=text[start:end],
                          box=Box(float(page[:, 0].min()), float(page[:, 1].min()),
                                  float(page[:, 0].max()), float(page[:, 1].max())),
                          score=float(np.mean(known)) if known else None))
    return tuple(words)


def _bound(text: str, centres: np.ndarray, before: int, after: int, edge: float) -> float:
    """Where the word boundary between characters `before` and `after` lies along the crop: a
    space's own step when a space separates them, else halfway between their steps; `edge` at
    either end of the line."""
    if before < 0 or after >= len(text):
        return edge
    if text[before].isspace():
        return float(centres[before])
    if text[after].isspace():
        return float(centres[after])
    return float((centres[before] + centres[after]) / 2)
