"""Inline formulas in OCR lines: words the text recogniser read as math-like characters become
candidate spans, the formula model reads each span's pixels, and a confident reading that
looks like math replaces the words in the block's text.

A word is a candidate when it holds a mathematical symbol or a Greek letter, is a letter with
a number hanging on it ("N1", read from N_1), or a short function applied to its argument
("cos(z)", "f(x)"); single letters, numbers, brackets and commas beside a candidate join it.
A span's LaTeX is spelled from the recognised characters, and kept only when it holds math
beyond styled letters (engine/formulas/reading.py `looks_like_math`).

Ordinary pages stay as read: a word of Greek letters is a Greek word, not math, and so is every
word of a line written mostly in Greek; a programming language's name ("C++") is not math; and
the letter-and-number and function shapes ("A4", "Q3", "f(x)") count only on a page where some
word is math by its characters, as a born-digital page is read for math only when it uses a
math font."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import replace

from engine.formulas.glyph_latex import symbol_latex
from engine.formulas.glyphs import RULES
from engine.formulas.latex_print import compact
from engine.formulas.latex_tokens import FUNCTION_NAMES
from engine.formulas.reading import looks_like_math
from engine.page import PageState
from engine.types import Block, BlockKind, Box, Line, Span, Word

PROSE_KINDS = frozenset([BlockKind.TEXT, BlockKind.LIST_ITEM, BlockKind.CAPTION,
                         BlockKind.FOOTNOTE])
_SCRIPTED = re.compile(r"[A-Za-z\u0370-\u03ff][0-9]{1,2}")
_APPLIED = re.compile(r"[A-Za-z]{1,3}\([A-Za-z0-9,]+\)")
_JOINER = re.compile(r"[A-Za-z0-9]|[0-9.]+|[()\[\],]")
_TRAILING = ".,;:"
_WORD_LETTERS = frozenset("aAI")
"""Single letters that are words of English, never math on their own."""
# Not yet: a subscript the recogniser flattened into its letter (yn for y_n) stays flat.
PAD = 0.2
"""Around a span's words, this share of the line's height is read with it (scripts, bars)."""


def _math_char(char: str) -> bool:
    return (unicodedata.category(char) == "Sm" or char in "\u00b7\u00d7\u2202\u221e"
            or _greek(char))


def _core(word: Word) -> str:
    return word.text.rstrip(_TRAILING) or word.text


_NAMES = re.compile(r"[A-Za-z]+(\+\+|#)")
"""Programming languages' names written with signs: C++, C#."""


def _greek(char: str) -> bool:
    return char.isalpha() and "GREEK" in unicodedata.name(char, "")


def greek_prose(text: str) -> bool:
    """Text written in Greek: most of its letters Greek (a Greek word, a Greek line)."""
    letters = [c for c in text if c.isalpha()]
    return len(letters) >= 3 and sum(map(_greek, letters)) * 2 > len(letters)


def symbol_candidate(word: Word) -> bool:
    """A word that is math by its characters: a math symbol or a Greek letter in it."""
    text = _core(word)
    return (not greek_prose(text) and not _NAMES.fullmatch(text)
            and any(_math_char(c) for c in text))


def is_candidate(word: Word, math_page: bool = True) -> bool:
    text = _core(word)
    return symbol_candidate(word) or math_page and (
        bool(_SCRIPTED.fullmatch(text)) or bool(_APPLIED.fullmatch(text)))


def _joins(word: Word) -> bool:
    text = _core(word)
    if text.isascii() and text.isalpha() and len(text) == 2:  # a product: rf, kx
        return text.lower() not in RULES.stopwords
    if (len(text) <= 5 and any(c in "()[]," for c in text) and all(
            c.isalnum() or c in "()[],+-" for c in text)
            and sum(c.isalpha() for c in text) <= 2):
        return True  # a bracketed piece: B(y, (Li, xj+1]
    return bool(_JOINER.fullmatch(text)) and text not in _WORD_LETTERS


def _trimmed(run: list[Word]) -> tuple[Word, ...]:
    """A run without operators left hanging at its ends ("g =" whose right side was not
    read as math)."""
    while run and all(_math_char(c) and not c.isalpha() for c in _core(run[-1])):
        run = run[:-1]
    while run and all(_math_char(c) and not c.isalpha() for c in _core(run[0])):
        run = run[1:]
    return tuple(run)


def line_candidates(line: Line, math_page: bool = True) -> list[tuple[Word, ...]]:
    """The runs of candidate words of one OCR line, grown over the joiners beside them;
    `math_page` False: only words that are math by their characters start one."""
    words = list(line.words)
    if greek_prose(line.text):
        return []
    math = [is_candidate(w, math_page) for w in words]
    changed = True
    while changed:
        changed = False
        for i, word in enumerate(words):
            if not math[i] and _joins(word) and (
                    (i > 0 and math[i - 1]) or (i + 1 < len(words) and math[i + 1])):
                math[i] = changed = True
    runs: list[list[Word]] = []
    for i, word in enumerate(words):
        if math[i]:
            if i and math[i - 1]:
                runs[-1].append(word)
            else:
                runs.append([word])
            if word.text[-1:] in ".;:" and word.text != _core(word):
                math[i] = False  # a sentence's full stop ends the formula
    kept = [_trimmed(run) for run in runs]
    return [run for run in kept if any(is_candidate(w, math_page) for w in run)
            and any(c.isalnum() for w in run for c in _core(w))]


def _span_box(words: tuple[Word, ...], line: Line) -> Box:
    pad = PAD * (line.box.y1 - line.box.y0)
    return Box(min(w.box.x0 for w in words) - pad, min(w.box.y0 for w in words),
               max(w.box.x1 for w in words) + pad, max(w.box.y1 for w in words))


def word_latex(text: str) -> str:
    """LaTeX of one OCR word of a formula: a letter's trailing number its subscript (N1 is
    read from N_1), a named function a command, symbols by their names."""
    scripted = _SCRIPTED.fullmatch(text)
    if scripted:
        return symbol_latex(text[0]) + "_{" + text[1:] + "}"
    applied = re.fullmatch(r"([A-Za-z]{2,3})(\(.*)", text)
    if applied and applied.group(1) in FUNCTION_NAMES:
        return "\\" + applied.group(1) + applied.group(2)
    out = []
    for char in text:
        symbol = symbol_latex(char)
        out.append(symbol + (" " if re.search(r"\\[A-Za-z]+$", symbol) else ""))
    return "".join(out).strip()


def find_ocr_inline_math(page: PageState, models) -> PageState:
    """OCR pages: the candidate spans of each prose block's lines as formula spans, their
    LaTeX from the recognised characters; the span's score the mean of its words'."""
    found: dict[int, list[tuple[tuple[Word, ...], Box, str, float]]] = {}
    prose = [(i, b) for i, b in enumerate(page.blocks) if b.kind in PROSE_KINDS]
    math_page = any(symbol_candidate(w) and not greek_prose(line.text)
                    for _, block in prose for line in block.lines for w in line.words)
    for index, block in prose:
        for line in block.lines:
            for words in line_candidates(line, math_page):
                latex = compact(" ".join(word_latex(_core(w)) for w in words))
                if not looks_like_math(latex) and not _SCRIPTED.fullmatch(_core(words[0])):
                    continue
                scores = [w.score if w.score is not None else line.score for w in words]
                found.setdefault(index, []).append(
                    (words, _span_box(words, line), latex, sum(scores) / len(scores)))
    if not found:
        return page
    return replace(page, blocks=tuple(_with_spans(block, found[i]) if i in found else block
                                      for i, block in enumerate(page.blocks)))


def _with_spans(block: Block, found: list[tuple[tuple[Word, ...], Box, str, float]]) -> Block:
    """The block with each kept span's words, found in its text in order, a formula span."""
    text, spans, cursor = block.text, [], 0
    for span_words, box, latex, confidence in found:
        words = [_core(w) for w in span_words]
        pattern = r"\s+".join(re.escape(w) for w in words)
        match = re.compile(pattern).search(text, cursor)
        if match is None:
            continue
        if match.start() > cursor:
            spans.append(Span(text[cursor:match.start()]))
        spans.append(Span(match.group(0), latex=latex, box=box, score=confidence))
        cursor = match.end()
    if not spans:
        return block
    if cursor < len(text):
        spans.append(Span(text[cursor:]))
    return replace(block, spans=tuple(spans))
