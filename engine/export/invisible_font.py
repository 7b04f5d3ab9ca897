"""The font of the invisible text layer: one empty glyph per character the layer needs, with
the advance widths of PyMuPDF's built-in CJK font (Droid Sans Fallback) and, for the scripts it
lacks, of the fonts MuPDF falls back to (Noto: Hebrew, Arabic, Devanagari, Thai, Tamil ...), so
extracted and searched text covers every script while the file grows by bytes, not by the
megabytes of real outlines no one ever sees (render mode 3 draws nothing). Marks that sit on
the letter before them and invisible format characters (a Persian zero-width non-joiner)
advance by nothing, as in a real font: an extractor that gives them no width sees no gap after
them where there is none."""

from __future__ import annotations

import io
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable

import pymupdf
from fontTools.fontBuilder import FontBuilder
from fontTools.pens.ttGlyphPen import TTGlyphPen

UNITS_PER_EM = 1000
# The em box a highlight covers: ascender and descender as shares of the font size. Text is
# placed so that this box covers the line's ink band.
ASCENDER = 800
DESCENDER = -200
FAMILY = "PaperlensInvisible"
# Characters that take no room on the line: marks set on the letter before them (Devanagari
# vowel signs, Thai tone marks, Hebrew points, Arabic harakat) and format characters (joiners,
# direction marks).
ZERO_WIDTH_CATEGORIES = ("Mn", "Me", "Cf")
REPLACEMENT = "\ufffd"


@dataclass(frozen=True)
class InvisibleFont:
    data: bytes
    """A TrueType font file with empty glyphs."""
    glyphs: dict[str, int]
    """Character -> glyph id (the two bytes a content stream shows it with)."""
    advances: dict[str, float]
    """Character -> advance width in ems."""

    def width(self, text: str) -> float:
        """Advance of `text` in ems."""
        return sum(self.advances[ch] for ch in layable(text))

    def encode(self, text: str) -> str:
        """`text` as the hex string of its glyph ids (Identity-H)."""
        return "".join(f"{self.glyphs[ch]:04X}" for ch in layable(text))


@lru_cache(maxsize=1)
def _reference_font() -> pymupdf.Font:
    return pymupdf.Font("cjk")


def reference_advance(char: str) -> float:
    """The advance of `char` in ems: nothing for a nonspacing or enclosing mark and a format
    character (Unicode's categories Mn, Me, Cf); else as PyMuPDF's CJK font or a font MuPDF
    falls back to draws it; a full em for a character none has when it is wide in East Asian
    text, half an em otherwise."""
    if unicodedata.category(char) in ZERO_WIDTH_CATEGORIES:
        return 0.0
    font = _reference_font()
    if font.has_glyph(ord(char), fallback=True):
        return float(font.glyph_advance(ord(char)))
    return 1.0 if unicodedata.east_asian_width(char) in ("W", "F") else 0.5


def layable(text: str) -> str:
    """`text` as the layer can carry it: a lone surrogate (which no font maps) becomes U+FFFD."""
    return "".join(REPLACEMENT if unicodedata.category(ch) == "Cs" else ch for ch in text)


def build_invisible_font(chars: Iterable[str]) -> InvisibleFont:
    """A font holding every character of `chars` (and a space), each with an empty outline."""
    wanted = sorted(set(layable("".join(chars))) | {" "})
    names = [".notdef"] + [f"c{i}" for i in range(1, len(wanted) + 1)]
    advances = {ch: reference_advance(ch) for ch in wanted}
    builder = FontBuilder(UNITS_PER_EM, isTTF=True)
    builder.setupGlyphOrder(names)
    builder.setupCharacterMap({ord(ch): name for ch, name in zip(wanted, names[1:])})
    empty = TTGlyphPen(None).glyph()
    builder.setupGlyf({name: empty for name in names})
    metrics = {".notdef": (UNITS_PER_EM // 2, 0)}
    metrics.update({name: (round(advances[ch] * UNITS_PER_EM), 0)
                    for ch, name in zip(wanted, names[1:])})
    builder.setupHorizontalMetrics(metrics)
    builder.setupHorizontalHeader(ascent=ASCENDER, descent=DESCENDER)
    builder.setupNameTable({"familyName": FAMILY, "styleName": "Regular"})
    builder.setupOS2(sTypoAscender=ASCENDER, sTypoDescender=DESCENDER, sTypoLineGap=0,
                     usWinAscent=ASCENDER, usWinDescent=-DESCENDER)
    builder.setupPost()
    head = builder.font["head"]
    head.yMin, head.yMax = DESCENDER, ASCENDER
    # Same document, same bytes: no build time in the font.
    head.created = head.modified = 0
    builder.font.recalcTimestamp = False
    buffer = io.BytesIO()
    builder.save(buffer)
    return InvisibleFont(data=buffer.getvalue(),
                         glyphs={ch: i for i, ch in enumerate(wanted, start=1)},
                         advances=advances)
