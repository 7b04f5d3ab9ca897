"""Character classes of East Asian scripts, one table for every stage that asks.

Two questions are asked of them. Is this Chinese, Japanese or Korean writing (`has_cjk`: the
letters of the three scripts)? And does a line break here join without a space (`joins_unspaced`:
Chinese and Japanese, which put no spaces between words, with their punctuation and fullwidth
forms; not Korean, which puts spaces between words)? Which way a text is written is asked of
Unicode's bidirectional classes (`holds_right_to_left`, `right_to_left`).
"""

from __future__ import annotations

import re
import unicodedata

HAN = ((0x2E80, 0x2FDF), (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF),
       (0x20000, 0x3134F))
"""CJK radicals, CJK Unified Ideographs and their Extensions A and B-H, CJK Compatibility
Ideographs."""
KANA = ((0x3040, 0x30FF), (0x3100, 0x312F), (0x31F0, 0x31FF))
"""Hiragana, Katakana, Bopomofo and the Katakana phonetic extensions."""
HANGUL = ((0xAC00, 0xD7AF),)
"""Hangul Syllables."""
CJK_PUNCTUATION = ((0x3000, 0x303F), (0xFE30, 0xFE4F), (0xFF00, 0xFFEF))
"""CJK Symbols and Punctuation, CJK Compatibility Forms, Halfwidth and Fullwidth Forms."""

CJK_LETTERS = HAN + KANA + HANGUL
UNSPACED = HAN + KANA + CJK_PUNCTUATION


def _char_class(ranges: tuple[tuple[int, int], ...]) -> re.Pattern[str]:
    return re.compile("[" + "".join(f"{chr(lo)}-{chr(hi)}" for lo, hi in sorted(ranges)) + "]")


_CJK_LETTER = _char_class(CJK_LETTERS)
_UNSPACED = _char_class(UNSPACED)


def has_cjk(text: str) -> bool:
    """Whether `text` holds a Chinese, Japanese or Korean letter (Han, kana or Hangul)."""
    return _CJK_LETTER.search(text) is not None


def joins_unspaced(char: str) -> bool:
    """Whether the character belongs to writing without spaces between words: Han, kana, CJK
    punctuation and fullwidth forms. Two lines that meet at such characters join with no space."""
    return _UNSPACED.fullmatch(char) is not None


def holds_right_to_left(text: str) -> bool:
    """Whether `text` holds a letter written right to left (Unicode's bidirectional classes R
    and AL: Hebrew, Arabic, Persian ...), so that the order it is shown in differs from the
    order it is read in."""
    return any(unicodedata.bidirectional(char) in ("R", "AL") for char in text)


def right_to_left(texts: list[str]) -> bool:
    """Whether most strongly directional letters of the texts are written right to left (Arabic,
    Hebrew, Persian: Unicode's bidirectional classes R and AL); digits and Latin words inside a
    line are weak or left-to-right and do not turn a page around."""
    rtl = ltr = 0
    for text in texts:
        for char in text:
            kind = unicodedata.bidirectional(char)
            if kind in ("R", "AL"):
                rtl += 1
            elif kind == "L":
                ltr += 1
    return rtl > ltr
