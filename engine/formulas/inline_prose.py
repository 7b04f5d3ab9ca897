"""Prose the OCR read into a run of words found as math, cut out of it by its shape: named
settings ("(enc=6,"), words of prose at a run's ends, a lone quantity ("2x", "10%") or bare
numbers, and words the OCR glued to a formula ("simply\u03b4", "x0is"). Which shapes are cut
(`InlineSpanRules.prose_runs`, engine/formulas/inline_rules.py) is chosen on
`python -m tools.mathset.choose_spans --prose`."""

from __future__ import annotations

import re

from engine.formulas.glyphs import RULES
from engine.formulas.inline_rules import INLINE_SPANS, InlineSpanRules
from engine.formulas.inline_spans import math_char
from engine.formulas.latex_tokens import FUNCTION_NAMES
from engine.types import Box, Word

_TRAILING = ".,;:"


def _core(word: Word) -> str:
    return word.text.rstrip(_TRAILING) or word.text


_SETTING = re.compile(r"[(\[]?([A-Za-z][A-Za-z_]{2,})=[-+]?[0-9][0-9.]*[kKM%]?[,;)\]]?")
"""A named setting of prose: "(enc=6,", "heads=8)", "dropout=0.1"."""
_QUANTITY = re.compile(r"[(\[]?[0-9]+(?:[.,][0-9]+)?(?:[xX\u00d7kKMB%])[,;:.)\]]?")
"""A number with a multiplier or a unit of prose: "2x", "(395k", "10%", "1.5M"."""
_NUMBERS = re.compile(r"[0-9.,;:()\[\]'\s]+")
"""Digits and punctuation only, no sign of arithmetic: "1,5", "(395", "2.3)"."""


def _english(word: Word) -> bool:
    """A word of three or more letters that is not a function's name: "ran", "faster"."""
    text = _core(word)
    return len(text) >= 3 and text.isascii() and text.isalpha() and text not in FUNCTION_NAMES


def without_prose(words: tuple[Word, ...], rules: InlineSpanRules = INLINE_SPANS,
                  scripted: frozenset[int] = frozenset()) -> list[tuple[Word, ...]]:
    """The pieces of a run found as math that are not prose by their shape
    (`rules.prose_runs`): named settings ("(enc=6,", "heads=8)") cut out of it, words of prose left at a piece's ends
    ("ran 2x"), and a piece that is one number with a multiplier or unit ("2x", "(395k",
    "10%") or digits and punctuation without a sign between them ("1,5") dropped. A word
    whose ink shows a script (`scripted`, ids of words: engine/formulas/inline_scripts.py;
    "Sfg" is S_fg, "108" is 10^8) is never prose."""
    prose_runs = rules.prose_runs
    pieces: list[list[Word]] = [[]]
    for word in words:
        setting = _SETTING.fullmatch(word.text)
        if ("settings" in prose_runs and setting
                and setting.group(1).lower() not in FUNCTION_NAMES):
            pieces.append([])
        else:
            pieces[-1].append(word)
    kept = []
    for piece in pieces:
        if "glued" in prose_runs:
            piece = _unglued(piece)
        while ("words" in prose_runs and piece and _english(piece[0])
               and id(piece[0]) not in scripted):
            piece = piece[1:]
        while ("words" in prose_runs and piece and _english(piece[-1])
               and id(piece[-1]) not in scripted):
            piece = piece[:-1]
        texts = [w.text for w in piece]
        if any(id(w) in scripted for w in piece):
            kept.append(tuple(piece))
            continue
        if (not piece or not any(c.isalnum() for t in texts for c in t)
                or "quantities" in prose_runs and len(texts) == 1
                and _QUANTITY.fullmatch(texts[0])
                or "numbers" in prose_runs and _NUMBERS.fullmatch(" ".join(texts))):
            continue
        kept.append(tuple(piece))
    return kept


_GLUED_BEFORE = re.compile(r"([A-Za-z]{3,})([^A-Za-z(\[].*)")
"""A word of prose the OCR ran into the formula after it: "strongly∫∂u", "simplyδ"."""
_GLUED_AFTER = re.compile(r"(.*[^A-Za-z(\[])([a-z]{2,})")
"""A word of prose run into the formula before it: "x0is", "k′another"."""


def _cut(word: Word, start: int, end: int) -> Word:
    """The characters start:end of a word, its box narrowed in proportion."""
    width = (word.box.x1 - word.box.x0) / max(1, len(word.text))
    return Word(word.text[start:end], Box(word.box.x0 + start * width, word.box.y0,
                                          word.box.x0 + end * width, word.box.y1), word.score)


def _bracketed_prose(word: Word) -> bool:
    """A word of prose with a bracket on it: "(the", "draft)"."""
    text = _core(word)
    return any(c in "()[]" for c in text) and any(
        len(n) >= 3 and n not in FUNCTION_NAMES for n in re.findall(r"[A-Za-z]+", text))


def _unglued(piece: list[Word]) -> list[Word]:
    """A run without the prose the OCR glued to its ends: a word of three or more letters
    (not a function's name) before a sign or a digit, a short English word or a longer one
    after them, and a word of prose in brackets ("(the") at either end."""
    while len(piece) > 1 and _bracketed_prose(piece[0]):
        piece = piece[1:]
    while len(piece) > 1 and _bracketed_prose(piece[-1]):
        piece = piece[:-1]
    if not piece:
        return piece
    before = _GLUED_BEFORE.fullmatch(piece[0].text)
    if before and before.group(1) not in FUNCTION_NAMES and before.group(2).strip(_TRAILING):
        piece = [_cut(piece[0], len(before.group(1)), len(piece[0].text))] + piece[1:]
    last = piece[-1]
    core = _core(last)
    after = _GLUED_AFTER.fullmatch(core)
    if after and (after.group(2) in RULES.stopwords or len(after.group(2)) >= 3
                  and after.group(2) not in FUNCTION_NAMES):
        piece = piece[:-1] + [_cut(last, 0, len(after.group(1)))]
    return piece


def prose_word(text: str) -> bool:
    """A word of prose in brackets or with stops ("(or", "GMT)", "e.g", "feed()"): no digit or
    math sign, and three or more letters in a row that are not a function's name, a short
    English word, or letters between stops; or a word in quotation marks."""
    names = re.findall(r"[A-Za-z]+", text)
    return (not any(c.isdigit() or math_char(c) for c in text)
            and (any(len(n) >= 3 and n not in FUNCTION_NAMES or n.lower() in RULES.stopwords
                     for n in names) or bool(re.search(r"[A-Za-z]\.[A-Za-z]", text)))
            or bool(re.fullmatch(r"[A-Za-z']+", text))
            or bool(_QUOTED.fullmatch(text)))


_QUOTED = re.compile(r"([\"\u201c\u201d])[^\"\u201c\u201d]+[\"\u201c\u201d]")
"""A word in quotation marks ("rt"): a string or a name, not a formula."""
