"""Spaces Tesseract's line recogniser missed between two words, found in the ink.

Tesseract's script data has no word list: on a degraded Russian line it read "и в" as one
word, "ив", with 0.92 confidence, though the two letters stand a space apart. In a script
whose letters stand apart and whose words are parted by spaces (Cyrillic, Greek, Latin), a
column gap in the ink inside a word that is as wide as the line's own spaces is a space: the
gap is set at the boundary between the word's two letters nearest it. Scripts whose letters
join (Arabic), sit under one bar (Devanagari), or whose words have no spaces between them
(Thai) or syllables apart (Hangul) are left as read."""

from __future__ import annotations

import statistics
from dataclasses import dataclass

import numpy as np

# An ink gap inside a word at least this share of the median gap between the line's words is
# a space: on the scripts set, letters inside a word stood 0-4 px apart, words 11-13 px, and
# the missed "и в" 11 px (at 200 dpi).
MIN_SPACE_SHARE = 0.8
# A line needs this many gaps between its words for their median to be a space's width.
MIN_SPACES = 2


@dataclass(frozen=True)
class Symbol:
    """One character Tesseract read, with its box's left and right edge (pixels)."""

    text: str
    x0: int
    x1: int


def ink_gaps(image: np.ndarray) -> list[tuple[int, int]]:
    """The runs of columns without ink between the line's first and last ink, (start, end)
    with end exclusive: ink is what Otsu's threshold calls dark."""
    import cv2

    grey = image if image.ndim == 2 else cv2.cvtColor(np.ascontiguousarray(image),
                                                      cv2.COLOR_RGB2GRAY)
    _, ink = cv2.threshold(grey, 0, 1, cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)
    columns = np.flatnonzero(ink.any(axis=0))
    if columns.size < 2:
        return []
    steps = np.flatnonzero(np.diff(columns) > 1)
    return [(int(columns[i]) + 1, int(columns[i + 1])) for i in steps]


def with_missed_spaces(words: list[list[Symbol]], gaps: list[tuple[int, int]]) -> str | None:
    """The words joined by spaces, each split where an ink gap inside it is as wide as the
    line's spaces (MIN_SPACE_SHARE of their median); None when the line has too few spaces
    between its words to tell a space's width."""
    words = [w for w in words if w]
    if len(words) <= MIN_SPACES:
        return None
    between = [(a[-1].x1, b[0].x0) for a, b in zip(words, words[1:])]
    spaces = [end - start for start, end in gaps
              if any(left - 2 <= (start + end) / 2 <= right + 2 for left, right in between)]
    if len(spaces) < MIN_SPACES:
        return None
    least = MIN_SPACE_SHARE * statistics.median(spaces)
    return " ".join(_split(word, [g for g in gaps if g[1] - g[0] >= least]) for word in words)


def _split(word: list[Symbol], wide: list[tuple[int, int]]) -> str:
    """The word with a space at the letter boundary nearest each wide gap inside it."""
    if len(word) < 2:
        return word[0].text
    boundaries = [(a.x1 + b.x0) / 2 for a, b in zip(word, word[1:])]
    cut = set()
    for start, end in wide:
        if word[0].x0 < start and end < word[-1].x1:
            middle = (start + end) / 2
            cut.add(min(range(len(boundaries)), key=lambda k: abs(boundaries[k] - middle)))
    out = word[0].text
    for k, symbol in enumerate(word[1:]):
        if k in cut and word[k].text.isalpha() and symbol.text.isalpha():
            out += " "
        out += symbol.text
    return out
