"""Whether an image input is one formula (ADR 0005): what its layout and OCR text say before the
formula model is asked, what the model's reading says after, and the image as the model should
see it (dark ink on light paper).

The thresholds were chosen on a generated set of both kinds (`python -m tools.formula_images`,
seed 1: 250 formula images from TeX Live and KaTeX in Chromium, 250 screenshots of text, white,
tinted, dark and transparent backgrounds) and checked on a second seed; each says what it scored.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import numpy as np

from engine.formulas.latex_tokens import tokenize
from engine.formulas.reading import LOW_CONFIDENCE, FormulaReading, looks_like_math
from engine.imaging import grey_levels
from engine.text import has_cjk
from engine.types import BlockKind, Line, Region

DARK_PAPER_LEVEL = 110
"""An image whose commonest grey level (its paper) is below this is light ink on a dark
background (a dark theme's screenshot); it is inverted before its ink is found and read. Dark
themes' backgrounds lie at 0-55, light ones at 230-255 (tools/formula_images/looks.py); without
the inversion none of the 85 dark formula images of seed 1 was read (they have no ink on a
light paper), with it 0.82 of them are."""

MAX_REGIONS = 3
"""More layout regions than this is a page or a screenshot of several blocks. Formula images of
seed 1 got at most 3 (a two-line formula as two "figures" and a "header"); 1 to 99 keep the text
images' false positives at 0 once the other tests hold, so the smallest that keeps every
formula image is taken."""

MAX_WORDS = 5
"""OCR words of four or more letters beyond this are prose, whatever the formula model reads.
Seed 1: 5 keeps 0.924 of the formula images at no false positive (3: 0.912, 8: 0.924 with one
false positive, a two-line code snippet)."""

MIN_CONFIDENCE = 0.60
"""A doubtful reading (under engine.formulas.reading.LOW_CONFIDENCE, 0.80) is still taken when
at least this confident and not spelling words (MAX_SPELLED_SHARE); it keeps its image beside
the LaTeX. Seed 1: 0.55 and 0.60 both keep 0.924 of the formula images at no false positive,
0.50 lets a code line through, 0.70 keeps 0.88."""

MAX_SPELLED_SHARE = 0.3
"""The share of a reading's tokens that are single letters in runs of three or more (`\\text {
o t h e r w i s e }`, `c a n h a v e`): text read as math. A doubtful reading above it is text.
Seed 1: formula readings mostly 0 (90% under 0.3), text readings mostly over 0.6; 0.3 and 0.4
score alike, 0.5 lets a code line through."""

CONFIDENT_MAX_SPELLED_SHARE = 0.7
"""A confident reading is text all the same when more of it than this is letters spelled out
(a TeX heading, "4 Extend a package's path", read with confidence 0.82 as `4 \\textup E x t e
n d ...`, 0.83 of it spelled).
Chosen by replaying the generated set's readings with the weights that read KaTeX renders
(`python -m tools.formula_images replay`): seed 1, 0.7 and 0.8 both take that heading no more
and keep 0.916 of the formula images (no cap: 0.916 and the heading; 0.6: 0.904); seed 2 scores
alike at 0.7, 0.8 and no cap (0.904, 3 text screenshots taken). No reading of the formula set
spells out more than 0.42."""

SPELLED_RUN = 3

# What the OCR recogniser makes of a formula's signs in its CJK alphabet ("=" -> 二, "+" -> 十,
# a fraction bar -> 一, "\mp" -> 干: two formula-set images, 582 and 860): not evidence of
# Chinese text.
MATH_LOOKALIKES = frozenset("一二三十丨口工土人八干")
_WORD = re.compile(r"[^\W\d_]{4,}")
_LETTER = re.compile(r"[A-Za-z]")


FRAME_PX = 2
"""The paper is judged on the image's outer rows and columns: a crop of a formula on a page
can be mostly ink (a bold bar, a filled box), its frame is still paper."""


def paper_level(image: np.ndarray) -> int:
    """The commonest grey level of the image's frame (FRAME_PX wide), in steps of 8: its
    background. 255 for an empty image."""
    grey = grey_levels(image) if image.size else None
    if grey is None or grey.size == 0:
        return 255
    edge = min(FRAME_PX, *grey.shape[:2])
    frame = np.concatenate([grey[:edge].ravel(), grey[-edge:].ravel(),
                            grey[:, :edge].ravel(), grey[:, -edge:].ravel()])
    counts = np.bincount((frame // 8).ravel(), minlength=32)
    return int(np.argmax(counts)) * 8 + 4


def on_light_paper(image: np.ndarray) -> np.ndarray:
    """The image with dark ink on light paper: inverted when its paper is dark."""
    return 255 - image if image.size and paper_level(image) < DARK_PAPER_LEVEL else image


def has_cjk_text(lines: Iterable[Line]) -> bool:
    """Whether the OCR text holds a Chinese, Japanese or Korean letter that is not a formula
    sign misread (MATH_LOOKALIKES)."""
    return any(has_cjk(ch) and ch not in MATH_LOOKALIKES for line in lines for ch in line.text)


def may_be_formula_image(regions: tuple[Region, ...] | None, lines: tuple[Line, ...]) -> bool:
    """Before the formula model is asked: layout ran, found no table and at most MAX_REGIONS
    regions, and the OCR text is not prose (at most MAX_WORDS words of four letters or more, no
    CJK). A scanned page of text is often one layout region; its words keep the formula model
    from reading its whole ink (a third of a second for nothing)."""
    if regions is None or len(regions) > MAX_REGIONS or any(
            r.kind is BlockKind.TABLE for r in regions):
        return False
    if has_cjk_text(lines):
        return False
    return sum(len(_WORD.findall(line.text)) for line in lines) <= MAX_WORDS


def spelled_share(latex: str) -> float:
    """The share of the reading's tokens (braces aside) that are single letters in runs of
    SPELLED_RUN or more."""
    tokens = [t for t in tokenize(latex) if t not in ("{", "}")]
    spelled = run = 0
    for token in [*tokens, ""]:
        if len(token) == 1 and _LETTER.match(token):
            run += 1
            continue
        if run >= SPELLED_RUN:
            spelled += run
        run = 0
    return spelled / max(1, len(tokens))


def reads_as_formula(reading: FormulaReading | None) -> bool:
    """After: the whole image's reading holds math (`looks_like_math`), was not ended by a
    decoding guard, and is confident and not mostly letters spelled out
    (CONFIDENT_MAX_SPELLED_SHARE), or doubtful yet at least MIN_CONFIDENCE and not text spelled
    out as math (MAX_SPELLED_SHARE)."""
    if reading is None or reading.truncated or reading.guard or not looks_like_math(reading.latex):
        return False
    share = spelled_share(reading.latex)
    if reading.confidence >= LOW_CONFIDENCE:
        return share <= CONFIDENT_MAX_SPELLED_SHARE
    return reading.confidence >= MIN_CONFIDENCE and share <= MAX_SPELLED_SHARE
