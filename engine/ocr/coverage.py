"""No text lost without a trace: how much of the text the detector saw on an OCR page its kept
lines hold, the lines it found but could not read, and the places where it saw text and kept no
line (neighbouring curved lines on a photographed page merge into blobs the detector's box test
drops). The page's own ink is the second witness: rows of glyph-sized ink outside every line,
figure, table and formula, and outside what the detector saw, are text nobody saw. A page that
keeps too little of its text is partial; the rest is said in a warning."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Sequence

import cv2
import numpy as np

from engine.page import PageState
from engine.types import BlockKind, Box, PageError, TextSource


@dataclass(frozen=True)
class CoverageRules:
    min_kept_share: float = 0.9
    """A page whose kept lines hold less of its seen text is partial (issue 50's bar; the dev
    set's OCR pages keep 0.997 and more, the lincoln letter the least; every curled photo of
    tools/photos read without the photo steps falls under it: docs/results/photos.json)."""
    min_place_px: int = 24
    """A place of seen text smaller than this (pixels at the detector's scale, about a 4 x 6
    speck) is no text: the detector's own minimum box side is 3 there."""
    ink_contrast: int = 20
    """Ink is this many grey levels darker than its neighbourhood's mean (a window two line
    heights wide): unevenly lit paper is no ink, print is 60 and more."""
    min_glyph_px: int = 4
    """Ink specks smaller than this (pixels at the detector's scale) are dust or JPEG noise."""
    max_glyph_lines: float = 1.5
    """A glyph is at most this many line heights high (taller ink is a figure or a rule)."""
    rule_lines: float = 0.25
    """Ink no thicker than this many line heights and longer than `max_glyph_lines` is a rule
    or a frame, not a glyph."""
    solid_share: float = 0.85
    """Ink filling this share of its box is a bar or a block, not a glyph."""
    paper_std: float = 12.0
    """... and the paper between its glyphs varies by at most this many grey levels (standard
    deviation): a photograph's texture is no text."""
    print_contrast: int = 45
    """... and its glyphs are this many grey levels darker than that paper (medians): print,
    not the edge between two colours of a photograph."""
    min_place_lines: float = 1.5
    """A place of glyphs (letters at most half a line height apart) is text when it is this
    many line heights wide at least: a few letters."""
    ink_margin_lines: float = 0.25
    """What lines, regions and seen text hold reaches this many line heights around them
    (descenders, accents and a box drawn tight)."""


RULES = CoverageRules()

WORK_LINE_PX = 12.0
"""The ink is searched at a scale where a text line is about this many pixels high."""

READ_ELSEWHERE = frozenset({BlockKind.FIGURE, BlockKind.TABLE})
"""Regions whose ink is no line's to hold: a figure kept as an image, a table read by its
model."""


@dataclass(frozen=True)
class Coverage:
    text_px: int
    """Pixels where the detector saw text (its probability map over its threshold)."""
    kept_px: int
    """Of those, the pixels inside a kept line (or a formula region, read by its own model)."""
    unread_lines: int
    """Detected lines the recogniser could not read."""
    unseen_places: int
    """Places of seen text that touch no kept line and no unread line."""
    ink_px: int = 0
    """Pixels of places where the page's ink shows text that nothing holds or saw."""
    ink_places: int = 0

    @property
    def kept_share(self) -> float:
        total = self.text_px + self.ink_px
        return self.kept_px / total if total else 1.0


def _paint(shape: tuple[int, int], boxes: Sequence[Box], scale_y: float, scale_x: float
           ) -> np.ndarray:
    canvas = np.zeros(shape, np.uint8)
    for box in boxes:
        x0, y0 = int(np.floor(box.x0 * scale_x)), int(np.floor(box.y0 * scale_y))
        x1, y1 = int(np.ceil(box.x1 * scale_x)), int(np.ceil(box.y1 * scale_y))
        cv2.rectangle(canvas, (x0, y0), (x1, y1), 1, thickness=-1)
    return canvas.astype(bool)


def measure_coverage(text_mask: np.ndarray, image_shape: tuple[int, int], kept: Sequence[Box],
                     unread: Sequence[Box], rules: CoverageRules = RULES,
                     image: np.ndarray | None = None, elsewhere: Sequence[Box] = ()
                     ) -> Coverage:
    """How much of the seen text (`text_mask`, the detector's map of a page of `image_shape`
    pixels) the `kept` boxes hold, and what else was seen (boxes in page pixels). With the
    page's `image`, its ink outside all of these and the `elsewhere` boxes (figures, tables:
    read by other means) is searched for text too."""
    height, width = image_shape
    scale_y, scale_x = text_mask.shape[0] / height, text_mask.shape[1] / width
    count, labels, stats, _ = cv2.connectedComponentsWithStats(text_mask.astype(np.uint8), 8)
    big = stats[:, cv2.CC_STAT_AREA] >= rules.min_place_px
    big[0] = False  # the background
    text = big[labels]
    kept_mask = _paint(text_mask.shape, kept, scale_y, scale_x)
    known = kept_mask | _paint(text_mask.shape, unread, scale_y, scale_x)
    touched = np.zeros(count, bool)
    touched[np.unique(labels[known & text])] = True
    ink_px = ink_places = 0
    if image is not None:
        heights = sorted(b.height for b in kept) or [0.015 * height]
        line_px = max(2.0, heights[len(heights) // 2] * scale_y)
        held = known | text_mask.astype(bool) | _paint(text_mask.shape, elsewhere, scale_y,
                                                       scale_x)
        ink_px, ink_places = unseen_ink(image, held, line_px, rules)
    return Coverage(text_px=int(text.sum()), kept_px=int((text & kept_mask).sum()),
                    unread_lines=len(unread), unseen_places=int((big & ~touched).sum()),
                    ink_px=ink_px, ink_places=ink_places)


def unseen_ink(image: np.ndarray, held: np.ndarray, line_px: float,
               rules: CoverageRules = RULES) -> tuple[int, int]:
    """How many pixels (at the scale of `held`) of places where the page's ink shows text
    outside `held` (bool: what lines, regions and the detector account for), and how many such
    places: glyph-sized ink, neither specks nor rules nor figures, in groups of
    `min_place_glyphs` letters or more. `line_px` is a text line's height at that scale."""
    # Read where a line is about WORK_LINE_PX high: enough for a glyph, and a big scan costs
    # no more than a small one.
    factor = min(1.0, WORK_LINE_PX / line_px)
    height, width = (max(1, round(n * factor)) for n in held.shape)
    line_px *= factor
    grey = cv2.cvtColor(image, cv2.COLOR_RGB2GRAY) if image.ndim == 3 else image
    grey = cv2.resize(np.ascontiguousarray(grey), (width, height), interpolation=cv2.INTER_AREA)
    held = cv2.resize(held.astype(np.uint8), (width, height), interpolation=cv2.INTER_NEAREST)
    if np.median(grey) < 128:  # light type on a dark page
        grey = 255 - grey
    window = max(3, int(round(2 * line_px)) | 1)
    ink = cv2.adaptiveThreshold(grey, 1, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV,
                                window, rules.ink_contrast).astype(bool)
    margin = max(1, int(round(rules.ink_margin_lines * line_px)))
    held = cv2.dilate(held, np.ones((2 * margin + 1, 2 * margin + 1), np.uint8))
    ink &= ~held.astype(bool)
    if not ink.any():
        return 0, 0
    count, labels, stats, _ = cv2.connectedComponentsWithStats(ink.astype(np.uint8), 8)
    w, h = stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT]
    area = stats[:, cv2.CC_STAT_AREA]
    # Glyphs, or words whose letters touch at this scale: no taller than a line, neither a
    # rule (thin and long) nor a solid bar.
    rule = (np.minimum(w, h) <= rules.rule_lines * line_px) & (
        np.maximum(w, h) >= rules.max_glyph_lines * line_px)
    solid = area >= rules.solid_share * w * h
    glyph = ((area >= rules.min_glyph_px * factor ** 2)
             & (h <= rules.max_glyph_lines * line_px) & ~rule & ~solid)
    glyph[0] = False
    glyphs = glyph[labels]
    if not glyphs.any():
        return 0, 0
    # Letters of a word and words of a line lie closer than half a line height side by side.
    reach = max(1, int(round(line_px / 2)))
    joined = cv2.dilate(glyphs.astype(np.uint8),
                        np.ones((max(1, reach // 2), 2 * reach + 1), np.uint8))
    _, places, place_stats, _ = cv2.connectedComponentsWithStats(joined, 8)
    # A place is text when it is as wide as a few letters, set on plain paper (a
    # photograph's texture between its "glyphs" is no paper).
    text = place_stats[:, cv2.CC_STAT_WIDTH] >= rules.min_place_lines * line_px + 2 * reach
    text[0] = False
    for place in np.flatnonzero(text):
        x, y, pw, ph = place_stats[place, :4]
        box, inked = grey[y:y + ph, x:x + pw], ink[y:y + ph, x:x + pw]
        paper, marks = box[~inked], box[inked]
        text[place] = (paper.size > 0 and marks.size > 0
                       and float(paper.std()) <= rules.paper_std
                       and float(np.median(paper)) - float(np.median(marks))
                       >= rules.print_contrast)
    return (int(round(place_stats[text, cv2.CC_STAT_AREA].sum() / factor ** 2)),
            int(text.sum()))


def check_coverage(page: PageState, models, rules: CoverageRules = RULES) -> PageState:
    """The page stage: OCR pages say what of their text was not read, and keep a PageError
    (partial) when their lines hold less than `rules.min_kept_share` of it."""
    if page.text_source is not TextSource.OCR or page.text_mask is None or page.image is None:
        return page
    formulas = [r.box for r in page.regions or () if r.kind is BlockKind.FORMULA]
    elsewhere = [r.box for r in page.regions or () if r.kind in READ_ELSEWHERE]
    coverage = measure_coverage(page.text_mask, page.image.shape[:2],
                                [line.box for line in page.lines] + formulas, page.unread, rules,
                                page.image, elsewhere)
    if coverage.unread_lines:
        page = page.warn(f"{coverage.unread_lines} text line{'s' * (coverage.unread_lines > 1)}"
                         " could not be read")
    if coverage.unseen_places:
        places = coverage.unseen_places
        page = page.warn(f"text was seen in {places} place{'s' * (places > 1)} where no line"
                         " was read")
    if coverage.ink_places:
        places = coverage.ink_places
        page = page.warn(f"the page's ink shows text in {places} place{'s' * (places > 1)}"
                         " where no line was read")
    if coverage.kept_share < rules.min_kept_share:
        page = replace(page, errors=page.errors + (PageError(
            "coverage", "TextNotRead",
            f"only {coverage.kept_share:.0%} of the text seen on the page was read"),))
    return page
