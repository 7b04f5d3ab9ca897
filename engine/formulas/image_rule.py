"""Whether an image input is one formula (ADR 0005): what its layout and OCR text say before the
formula model is asked, what the model's reading says after, and the image as the model should
see it (dark ink on light paper).

The thresholds are data (image_rules.py), chosen on a generated set of both kinds
(`python -m tools.formula_images`, seed 1: 250 formula images from TeX Live and KaTeX in
Chromium, 250 screenshots of text, white, tinted, dark and transparent backgrounds) and checked
on a second seed.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

import numpy as np

from engine.formulas.image_rules import FORMULA_IMAGE, FormulaImageRules
from engine.formulas.latex_tokens import tokenize
from engine.formulas.reading import LOW_CONFIDENCE, FormulaReading, looks_like_math
from engine.imaging import grey_levels
from engine.text import has_cjk
from engine.types import BlockKind, Line, Region

_LETTER_CLASS = re.compile(r"[^\W\d_]")
_LETTER = re.compile(r"[A-Za-z]")


def paper_level(image: np.ndarray, rules: FormulaImageRules = FORMULA_IMAGE) -> int:
    """The commonest grey level of the image's frame (`frame_px` wide), in steps of 8: its
    background. 255 for an empty image."""
    grey = grey_levels(image) if image.size else None
    if grey is None or grey.size == 0:
        return 255
    edge = min(rules.frame_px, *grey.shape[:2])
    frame = np.concatenate([grey[:edge].ravel(), grey[-edge:].ravel(),
                            grey[:, :edge].ravel(), grey[:, -edge:].ravel()])
    counts = np.bincount((frame // 8).ravel(), minlength=32)
    return int(np.argmax(counts)) * 8 + 4


def on_light_paper(image: np.ndarray, rules: FormulaImageRules = FORMULA_IMAGE) -> np.ndarray:
    """The image with dark ink on light paper: inverted when its paper is dark."""
    dark = image.size and paper_level(image, rules) < rules.dark_paper_level
    return 255 - image if dark else image


def has_cjk_text(lines: Iterable[Line], rules: FormulaImageRules = FORMULA_IMAGE) -> bool:
    """Whether the OCR text holds a Chinese, Japanese or Korean letter that is not a formula
    sign misread (`math_lookalikes`)."""
    return any(has_cjk(ch) and ch not in rules.math_lookalikes
               for line in lines for ch in line.text)


def may_be_formula_image(regions: tuple[Region, ...] | None, lines: tuple[Line, ...],
                         rules: FormulaImageRules = FORMULA_IMAGE) -> bool:
    """Before the formula model is asked: layout ran, found no table and at most `max_regions`
    regions, and the OCR text is not prose (at most `max_words` words of four letters or more, no
    CJK). A scanned page of text is often one layout region; its words keep the formula model
    from reading its whole ink (a third of a second for nothing)."""
    if regions is None or len(regions) > rules.max_regions or any(
            r.kind is BlockKind.TABLE for r in regions):
        return False
    if has_cjk_text(lines, rules):
        return False
    return sum(prose_words(line.text) for line in lines) <= rules.max_words


def _in_word(char: str) -> bool:
    """A letter, or a mark written with one: a Devanagari, Thai or Tamil vowel sign or virama
    (Unicode category M) is part of its word, not a break in it."""
    return bool(_LETTER_CLASS.match(char)) or unicodedata.category(char).startswith("M")


def prose_words(text: str) -> int:
    """Words of four letters or more (their marks counted with them). Counted as letters alone,
    the words of a Hindi page broke at every vowel sign ("भारत" is bha, aa-sign, ra, ta), so the
    page looked like no prose and the formula model read its whole ink (4 s for nothing)."""
    words = run = 0
    for char in text + " ":
        if _in_word(char):
            run += 1
            continue
        words += run >= 4
        run = 0
    return words


def spelled_share(latex: str, rules: FormulaImageRules = FORMULA_IMAGE) -> float:
    """The share of the reading's tokens (braces aside) that are single letters in runs of
    `spelled_run` or more."""
    tokens = [t for t in tokenize(latex) if t not in ("{", "}")]
    spelled = run = 0
    for token in [*tokens, ""]:
        if len(token) == 1 and _LETTER.match(token):
            run += 1
            continue
        if run >= rules.spelled_run:
            spelled += run
        run = 0
    return spelled / max(1, len(tokens))


def reads_as_formula(reading: FormulaReading | None,
                     rules: FormulaImageRules = FORMULA_IMAGE) -> bool:
    """After: the whole image's reading holds math (`looks_like_math`), was not ended by a
    decoding guard, and is confident and not mostly letters spelled out
    (`confident_max_spelled_share`), or doubtful yet at least `min_confidence` and not text
    spelled out as math (`max_spelled_share`)."""
    if reading is None or reading.truncated or reading.guard or not looks_like_math(reading.latex):
        return False
    share = spelled_share(reading.latex, rules)
    if reading.confidence >= LOW_CONFIDENCE:
        return share <= rules.confident_max_spelled_share
    return reading.confidence >= rules.min_confidence and share <= rules.max_spelled_share
