"""Where each piece of a page's invisible text goes: runs of text with the matrix that lays
them on the pixels they were read from (pure geometry, in the page's analysed pixels).

A line holding right-to-left letters is laid as it is shown, not as it is read: its
characters in the order the Unicode bidirectional algorithm (python-bidi) puts them on the
line, left to right, as a typesetter writes a PDF. Extractors (MuPDF, poppler, PDFium) give a
line of Hebrew or Arabic laid so back in the order it is read, and PyMuPDF's search finds its
words; laid in reading order they read it backwards."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from bidi import get_display

from engine.export.invisible_font import ASCENDER, DESCENDER, UNITS_PER_EM, InvisibleFont
from engine.export.page_words import words_of
from engine.text import holds_right_to_left
from engine.types import Box, Line, Word

ASCENT = ASCENDER / UNITS_PER_EM
DESCENT = -DESCENDER / UNITS_PER_EM
# A line this much taller than wide runs down the page (crop_quad reads it turned a quarter).
VERTICAL_RATIO = 1.5
# The least gap (in ems) left between two words the text separates by a space.
WORD_GAP = 0.25
# RIGHT-TO-LEFT MARK: opens a line shown right to left whose first character on the line is a
# combining mark (the last of the line read: an Arabic damma, a Hebrew point). MuPDF hangs a
# mark that opens a line on the character before it, the previous line's last; behind this
# zero-width letter it stays on its own, and the line reads back with the mark (and an RLM).
RLM = "\u200f"


@dataclass(frozen=True)
class Run:
    """Text drawn from `origin` (the baseline's start) along `advance` with glyphs facing
    `up`; both vectors are unit vectors in page pixels. `size` is the font size in pixels and
    `stretch` the horizontal scaling that makes the run span its pixels."""

    text: str
    origin: tuple[float, float]
    advance: tuple[float, float]
    up: tuple[float, float]
    size: float
    stretch: float

    def matrix(self) -> tuple[float, float, float, float, float, float]:
        """The text matrix (a, b, c, d, e, f) from text space (font size 1) to page pixels."""
        ax, ay = self.advance
        ux, uy = self.up
        return (ax * self.size * self.stretch, ay * self.size * self.stretch,
                ux * self.size, uy * self.size, self.origin[0], self.origin[1])


def is_vertical(line: Line) -> bool:
    return line.vertical or (len(line.text) > 1
                             and line.box.height >= VERTICAL_RATIO * line.box.width)


def shown_order(text: str) -> str:
    """`text` in the order its characters stand on the line, left to right (the Unicode
    bidirectional algorithm, the paragraph's direction from its first strong letter), with an
    RLM before a combining mark that would open it."""
    shown = get_display(text)
    if shown and unicodedata.category(shown[0]) in ("Mn", "Me"):
        shown = RLM + shown
    return shown


def laid_text(line: Line) -> str:
    """The characters the line's runs show (what the invisible font must hold)."""
    if holds_right_to_left(line.text) and not is_vertical(line):
        return shown_order(line.text.strip())
    return line.text


def line_runs(line: Line, font: InvisibleFont) -> list[Run]:
    """One run per word on the line's common baseline and size, so extractors keep the line
    whole. A word followed by a space carries the space (extracted text keeps it); a word
    followed directly by another (CJK) stretches to where the next begins, so no gap invites
    an extractor to insert a space that is not in the text. A line with right-to-left letters
    is one run over the line, in the order it is shown (shown_order)."""
    words = [(placed.word, placed.spaced) for placed in words_of(line) if placed.text]
    if not words:
        return []
    vertical = is_vertical(line)
    if not vertical and holds_right_to_left(line.text):
        words = [(Word(laid_text(line), line.box), False)]
    if vertical:
        # Read turned a quarter clockwise: the text runs down the page, glyph tops to the right.
        advance, up = (0.0, 1.0), (1.0, 0.0)
        low = min(w.box.x0 for w, _ in words)
        size = max(w.box.x1 for w, _ in words) - low
        base = low + DESCENT * size
    else:
        advance, up = (1.0, 0.0), (0.0, -1.0)
        top = min(w.box.y0 for w, _ in words)
        size = max(w.box.y1 for w, _ in words) - top
        base = top + ASCENT * size
    if size <= 0:
        return []
    extents = [list(_extent(w.box, vertical)) for w, _ in words]
    for i, (_word, spaced) in enumerate(words[:-1]):
        this, following = extents[i], extents[i + 1]
        if not spaced:
            this[1] = max(this[1], following[0])
            continue
        # Extractors that find words by gaps (poppler) need one where the text has a space,
        # even where handwriting runs one word's ink into the next.
        gap = WORD_GAP * size
        if this[1] + gap > following[0]:
            this[1] = max(this[0] + (this[1] - this[0]) / 2, following[0] - gap)
            following[0] = max(following[0], this[1] + gap)
            following[1] = max(following[1], following[0] + gap)
    runs: list[Run] = []
    for (word, spaced), (start, end) in zip(words, extents):
        natural = font.width(word.text) * size
        stretch = (end - start) / natural if natural > 0 and end > start else 1.0
        origin = (base, start) if vertical else (start, base)
        runs.append(Run(word.text + (" " if spaced else ""), origin, advance, up, size, stretch))
    return runs


def _extent(box: Box, vertical: bool) -> tuple[float, float]:
    return (box.y0, box.y1) if vertical else (box.x0, box.x1)
