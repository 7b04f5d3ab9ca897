"""Pages that are mostly handwriting: measured from what OCR already found (each line's
recognition confidence, its box, its words, the ink of its crop) and weighed together. The
recogniser was trained on print, so such a page's text is likely wrong; the page says so. The
measurement reads pixels and lines only: it never changes the text."""

from __future__ import annotations

import statistics
from dataclasses import dataclass, replace

import cv2
import numpy as np

from engine.page import PageState
from engine.types import Line, TextSource

NORM_HEIGHT_PX = 32
"""Line crops are scaled to this height before their ink is measured."""
MAX_LINES = 16
"""At most this many lines (the longest) are measured on a page. Seed 1 of the generated set
chose 16: with 12, table pages' paragraph lines weigh more and recall at full precision fell
from 0.821 to 0.564."""
WINDOW_HEIGHTS = 16
"""Ink is measured on at most this many line-heights of a line's middle (some 20 letters)."""
MIN_LINES = 5
"""A page with fewer measurable lines is never judged (a single line, a label, a formula)."""
MIN_CHARS = 4


@dataclass(frozen=True)
class LineInk:
    """What one OCR line shows, its ink in units of its scaled height."""

    score: float
    """The recogniser's confidence in the line."""
    wobble: float
    """Spread of the ink's centre from window to window along the line, after the line's own
    tilt is taken out: print sits on one baseline, a hand wanders."""
    slant: float
    """How far the strokes lean (0 for roman print, ~0.2 for italics)."""
    gaps: float
    """Spread of the gaps between words (NaN for a line with few words or table-like gaps)."""


@dataclass(frozen=True)
class HandwritingEvidence:
    """A page's measures: medians over its measurable lines, and its lines' height spread."""

    lines: int
    score: float
    wobble: float
    slant: float
    """Median of the lines' slants either way (a hand may lean left)."""
    gaps: float
    heights: float
    """Spread of line heights (interquartile range over median): print keeps a size."""

    def as_dict(self) -> dict[str, float]:
        return {k: round(float(v), 4) for k, v in self.__dict__.items()}


def _line_fit(xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """ys less their least-squares straight line over xs (the line's own tilt taken out)."""
    xs = xs - xs.mean()
    slope = float((xs * (ys - ys.mean())).sum() / max(float((xs * xs).sum()), 1e-9))
    return ys - ys.mean() - slope * xs


def _ink(gray: np.ndarray) -> np.ndarray | None:
    """The crop scaled to NORM_HEIGHT_PX and thresholded (ink = 1), or None without ink."""
    height, width = gray.shape
    scaled_w = max(8, int(round(width * NORM_HEIGHT_PX / height)))
    small = cv2.resize(gray, (scaled_w, NORM_HEIGHT_PX), interpolation=cv2.INTER_AREA)
    _, ink = cv2.threshold(small, 0, 1, cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)
    return ink if int(ink.sum()) >= 20 else None


def _wobble(ink: np.ndarray) -> float:
    """Windows one line-height wide, half overlapping: the spread of their ink's centre row,
    less the line's tilt."""
    half = NORM_HEIGHT_PX // 2
    steps = ink.shape[1] // half
    if steps < 5:
        return float("nan")
    parts = ink[:, :steps * half].reshape(ink.shape[0], steps, half).sum(axis=2)
    windows = (parts[:, :-1] + parts[:, 1:]).astype(np.float32)  # rows x windows
    totals = windows.sum(axis=0)
    keep = totals >= NORM_HEIGHT_PX  # a gap between words has little ink
    if keep.sum() < 4:
        return float("nan")
    windows, totals = windows[:, keep], totals[keep]
    rows = np.arange(ink.shape[0], dtype=np.float32)[:, None]
    centres = (windows * rows).sum(axis=0) / totals
    residual = _line_fit(np.flatnonzero(keep).astype(np.float32), centres)
    return float(residual.std()) / NORM_HEIGHT_PX


def _gap_spread(line: Line) -> float:
    """Spread of the gaps between a line's words (median distance from their median, over
    it); NaN under 3 gaps, when a gap is wider than the line is high (table cells, tab stops)
    or when a third of the words hold digits: only running text is measured."""
    words = sorted(line.words, key=lambda w: w.box.x0)
    gaps = [max(0.0, b.box.x0 - a.box.x1) for a, b in zip(words, words[1:])]
    if len(gaps) < 3 or max(gaps) > line.box.height:
        return float("nan")
    if 3 * sum(any(c.isdigit() for c in w.text) for w in words) > len(words):
        return float("nan")  # a row of figures, not a sentence
    middle = statistics.median(gaps)  # a handful of numbers: no array needed
    if middle < 1.0:
        return float("nan")
    return statistics.median(abs(g - middle) for g in gaps) / middle


def _slant(ink: np.ndarray) -> float:
    """How far the strokes lean (x per y upwards; 0 upright, > 0 leaning right), from the ink's
    edges: across a stroke leaning by s the gradient is (1, s), so s = sum(gx gy) / sum(gx^2)
    over edges steeper than 45 degrees. It reads a little low on steep slants (0.49 for 0.6)."""
    soft = cv2.GaussianBlur(ink.astype(np.float32), (3, 3), 0)
    gx = cv2.Sobel(soft, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(soft, cv2.CV_32F, 0, 1, ksize=3)
    steep = np.abs(gx) > np.abs(gy)
    gx, gy = gx[steep], gy[steep]
    energy = float(np.dot(gx, gx))
    return float(np.dot(gx, gy)) / energy if energy > 0 else 0.0


def measure_line(image: np.ndarray, line: Line) -> LineInk | None:
    """A line's ink measures on at most WINDOW_HEIGHTS line-heights of its middle, or None when
    the crop is too small or holds no ink."""
    h, w = image.shape[:2]
    x0, y0 = max(0, int(line.box.x0)), max(0, int(line.box.y0))
    x1, y1 = min(w, int(np.ceil(line.box.x1))), min(h, int(np.ceil(line.box.y1)))
    if y1 - y0 < 6 or x1 - x0 < 2 * (y1 - y0):
        return None
    keep_w = WINDOW_HEIGHTS * (y1 - y0)
    if x1 - x0 > keep_w:
        x0 = (x0 + x1 - keep_w) // 2
        x1 = x0 + keep_w
    # Every pixel is not needed for 32 rows; the green channel stands for brightness (inks
    # of every colour are dark in it), which spares a colour conversion.
    step = max(1, (y1 - y0) // (2 * NORM_HEIGHT_PX))
    crop = image[y0:y1:step, x0:x1:step]
    gray = np.ascontiguousarray(crop[:, :, 1] if crop.ndim == 3 else crop)
    ink = _ink(gray)
    if ink is None:
        return None
    return LineInk(score=line.score, wobble=_wobble(ink), slant=_slant(ink),
                   gaps=_gap_spread(line))


def _heights(lines: list[Line]) -> float:
    heights = np.array([l.box.height for l in lines])
    q1, median, q3 = np.percentile(heights, [25, 50, 75])
    return float((q3 - q1) / median) if median > 0 else float("nan")


def measurable(lines: tuple[Line, ...] | list[Line]) -> list[Line]:
    """The page's horizontal lines with a few characters, the longest first, at most MAX_LINES."""
    chosen = [l for l in lines if not l.vertical and l.box.width >= 2 * l.box.height
              and len(l.text) - l.text.count(" ") >= MIN_CHARS]
    chosen.sort(key=lambda l: -l.box.width)
    return chosen[:MAX_LINES]


def page_evidence(image: np.ndarray, lines: tuple[Line, ...] | list[Line]
                  ) -> HandwritingEvidence | None:
    """Medians over the page's measurable lines, or None when there are too few."""
    chosen = measurable(lines)
    inks = [ink for ink in (measure_line(image, l) for l in chosen) if ink is not None]
    if len(inks) < MIN_LINES:
        return None

    def median(name: str, size=float) -> float:
        values = [size(getattr(i, name)) for i in inks if np.isfinite(getattr(i, name))]
        return float(np.median(values)) if values else float("nan")

    return HandwritingEvidence(lines=len(inks), score=median("score"), wobble=median("wobble"),
                               slant=median("slant", abs), gaps=median("gaps"),
                               heights=_heights(chosen))


def measures(evidence: HandwritingEvidence) -> dict[str, float]:
    """The page's measures as the decision weighs them: doubt (1 - confidence) rather than
    confidence, a gap spread that could not be taken as none, heights capped at 1."""
    return {"doubt": 1.0 - evidence.score, "wobble": evidence.wobble, "slant": evidence.slant,
            "gaps": evidence.gaps if np.isfinite(evidence.gaps) else 0.0,
            "heights": min(evidence.heights, 1.0) if np.isfinite(evidence.heights) else 0.0}


# A logistic model over the measures, fitted by `python -m tools.handwriting choose --seed 1`
# on the generated set's seed 1 (40 handwriting-like pages, 40 forms, printed pages and
# tables) and the structure set's 20 scans; every measure speaks for handwriting.
WEIGHTS = {"doubt": 191.51, "wobble": 162.66, "slant": 34.85, "gaps": 15.56, "heights": 7.51}
BIAS = -13.03
HANDWRITING_MIN = 1.5
"""The page is mostly handwriting above this score (log-odds): the lowest half-step above
every print page of seed 1. Seed 1 (chose it): precision 1.000, recall 0.800 (32 of 40
handwriting-like pages), structure scans 0 of 20 flagged. Checked, not chosen: seed 2
precision 0.967 (one form of 40 print pages), recall 0.725; its structure scans 0 of 20; the
dev set flags the Lincoln letter (42.8) and no other page (at most -3.3)."""


def handwriting_score(evidence: HandwritingEvidence) -> float:
    """Log-odds that the page is mostly handwriting."""
    values = measures(evidence)
    return BIAS + sum(WEIGHTS[name] * values[name] for name in WEIGHTS)


def looks_handwritten(evidence: HandwritingEvidence | None) -> bool:
    return evidence is not None and handwriting_score(evidence) > HANDWRITING_MIN


WARNING = ("looks handwritten: the text recogniser was trained on print, so this page's text "
           "is likely wrong; check it against the page")


def flag_handwriting(page: PageState, models) -> PageState:
    """The page stage: an OCR page that looks mostly handwritten is marked and warned about;
    its lines stay as they are."""
    if page.text_source is not TextSource.OCR or page.image is None or not page.lines:
        return page
    if not looks_handwritten(page_evidence(page.image, page.lines)):
        return page
    return replace(page, handwriting=True).warn(WARNING)
