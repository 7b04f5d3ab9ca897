"""Inline formulas in OCR lines: the words a formula is made of become a span of their block,
its LaTeX from the formula model's reading of the span's pixels where that reading is
confident, else spelled from the recognised characters; the block's text is cut around it.

Two things say which words are math, and a word either calls math is math (`span_source`
"both", chosen on tools/mathset/choose_spans.py): the span classifier we trained on generated
scans (engine/formulas/inline_spans.py: each word's pixels and characters, and its
neighbours'), and the character rules: a word holding a mathematical symbol or a Greek letter,
a letter with a number hanging on it ("N1", read from N_1), or a short function applied to its
argument ("cos(z)", "f(x)"), with the single letters, numbers, brackets and commas beside it.
One sign between two math words joins them ("f(x) > 0"); a lone letter, digit or word of
letters stays text.

Ordinary pages stay as read: a word of Greek letters is a Greek word, not math, and so is every
word of a line written mostly in Greek; a programming language's name ("C++") is not math; and
only the symbol rule runs on a page where no word is math by its characters (the classifier and
the letter-and-number and function shapes, "A4", "Q3", "f(x)", do not), as a born-digital page
is read for math only when it uses a math font."""

from __future__ import annotations

import re
import unicodedata

import numpy as np
from dataclasses import replace

from engine.formulas.glyph_latex import symbol_latex
from engine.formulas.glyphs import RULES
from engine.formulas.latex_print import compact
from engine.formulas.latex_tokens import FUNCTION_NAMES
from engine.formulas.inline_prose import prose_word, without_prose
from engine.formulas.inline_rules import INLINE_SPANS, InlineSpanRules
from engine.formulas.inline_scripts import Script, line_scripts, scripted_latex
from engine.formulas.inline_spans import line_features, math_probabilities, page_grey
from engine.formulas.reading import looks_like_math
from engine.imaging import grey_levels
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


def _math_char(char: str) -> bool:
    return (unicodedata.category(char) == "Sm" or char in "\u00b7\u00d7\u2202\u221e"
            or _greek(char))


def _core(word: Word) -> str:
    return word.text.rstrip(_TRAILING) or word.text


_NAMES = re.compile(r"[A-Za-z]+(\+\+|#)")
"""Programming languages' names written with signs: C++, C#."""


def _greek(char: str) -> bool:
    return char.isalpha() and "GREEK" in unicodedata.name(char, "")


_WRITING = ("CJK", "HIRAGANA", "KATAKANA", "HANGUL", "HALFWIDTH", "FULLWIDTH", "IDEOGRAPHIC")


def east_asian(word: Word) -> bool:
    """A word holding Chinese, Japanese or Korean writing or its punctuation: prose, never a
    formula, whatever the classifier (trained on English pages) says of it."""
    return any(unicodedata.name(c, "").startswith(_WRITING) for c in word.text)


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


_OPERANDS = "\u221e\u2205\u2207\u2202\u210f"
"""Math symbols that stand for a quantity, not an operation: infinity, the empty set, nabla,
the partial sign, h-bar."""


def _operator(word: Word) -> bool:
    """A word of operators only ("=", "<", "+"): no letter, digit or quantity symbol."""
    return all(_math_char(c) and not c.isalpha() and c not in _OPERANDS for c in _core(word))


def _trimmed(run: list[Word]) -> tuple[Word, ...]:
    """A run without operators left hanging at its ends ("g =" whose right side was not
    read as math)."""
    while run and _operator(run[-1]):
        run = run[:-1]
    while run and _operator(run[0]):
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


def _span_box(words: tuple[Word, ...], line: Line, rules: InlineSpanRules) -> Box:
    pad = rules.pad * (line.box.y1 - line.box.y0)
    return Box(min(w.box.x0 for w in words) - pad, min(w.box.y0 for w in words),
               max(w.box.x1 for w in words) + pad, max(w.box.y1 for w in words))


def word_latex(text: str) -> str:
    """LaTeX of one OCR word of a formula: a letter's trailing number its subscript (N1 is
    read from N_1), a named function a command, symbols by their names; a comma or stop after
    it kept as it is."""
    core = text.rstrip(_TRAILING) or text
    if core != text:
        return word_latex(core) + text[len(core):]
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


def classified_runs(line: Line, probabilities, math_page: bool,
                    rules: InlineSpanRules = INLINE_SPANS,
                    scripts: dict[int, Script] | None = None) -> list[tuple[Word, ...]]:
    """The runs of words of one line that the classifier calls math (probability at least
    `rules.threshold`) or whose ink shows a script (`scripts`, by word id: "Yi" set as Y_i),
    joined with the character rules' runs (`line_candidates`) where `rules.span_source`
    says so, and trimmed of operators left hanging at their ends."""
    words = list(line.words)
    if greek_prose(line.text):
        return []
    scripts = scripts or {}
    math = [(p >= rules.threshold or id(w) in scripts) and not _NAMES.fullmatch(_core(w))
            and not east_asian(w) for w, p in zip(words, probabilities)]
    if rules.span_source == "both":
        ruled = {id(w) for run in line_candidates(line, math_page) for w in run}
        math = [m or id(w) in ruled for m, w in zip(math, words)]
    grown = True
    while grown:  # a doubtful word beside a formula's is part of it: "I = 1 Mb2"
        grown = False
        for i, (word, p) in enumerate(zip(words, probabilities)):
            if (not math[i] and p >= rules.grow and not _NAMES.fullmatch(_core(word))
                    and not east_asian(word)
                    and (i and math[i - 1] and not _closes(words[i - 1])
                         or i + 1 < len(words) and math[i + 1] and not _closes(word))):
                math[i] = grown = True
    for i in range(1, len(words) - 1):  # one sign between two math words: "f(x) > 0"
        if (not math[i] and math[i - 1] and math[i + 1] and not _closes(words[i - 1])
                and (not any(c.isalpha() for c in _core(words[i]))
                     or rules.functions_join and _core(words[i]) in FUNCTION_NAMES)):
            math[i] = True
    runs: list[list[Word]] = []
    for i, word in enumerate(words):
        if math[i]:
            if i and math[i - 1] and not _closes(words[i - 1]):
                runs[-1].append(word)
            else:
                runs.append([word])
    kept = [_trimmed(run) for run in runs]
    # A lone letter or digit reads the same as text or as a formula, and a lone word of
    # letters is a word: they stay text.
    return [run for run in kept if any(c.isalnum() for w in run for c in _core(w))
            and (any(id(w) in scripts for w in run)
                 or sum(len(_core(w)) for w in run) >= rules.min_characters
                 and not (len(run) == 1 and prose_word(_core(run[0]))))]


def _spelled_latex(words: tuple[Word, ...], scripts: dict[int, Script]) -> str:
    """A span's LaTeX from its characters, a script its ink shows set as one: "Yi" -> Y_i."""
    return compact(" ".join(scripted_latex(text, scripts[id(w)], word_latex)
                            if id(w) in scripts else word_latex(text)
                            for w, text in zip(words, _spelled(words))))


def _spelled(words: tuple[Word, ...]) -> list[str]:
    """The words of a span as they stand in it: a comma inside a formula ("(2, -5, 2)") is
    its own, a sentence's mark after its last word is not."""
    return [w.text for w in words[:-1]] + [_core(words[-1])]


def _closes(word: Word) -> bool:
    """A word ending a sentence or clause ends the formula before it."""
    return word.text[-1:] in ".;:" and word.text != _core(word)


def find_ocr_inline_math(page: PageState, models,
                         rules: InlineSpanRules = INLINE_SPANS) -> PageState:
    """OCR pages: the runs of words the span classifier calls math (engine/formulas/
    inline_spans.py) in each prose block's lines become formula spans, their LaTeX from the
    recognised characters or from the formula model's reading of the span's pixels (`rules.latex_from`);
    the span's score the mean of its words'."""
    prose = [(i, b) for i, b in enumerate(page.blocks) if b.kind in PROSE_KINDS]
    math_page = any(symbol_candidate(w) and not greek_prose(line.text)
                    for _, block in prose for line in block.lines for w in line.words)
    lines = [(index, line) for index, block in prose for line in block.lines if line.words]
    if not lines:
        return page
    scripts: dict[int, Script] = {}
    if rules.span_source == "rules" or not math_page:
        runs = [line_candidates(line, math_page) for _, line in lines]
    else:
        grey = page_grey(page.image)
        probabilities = math_probabilities(np.concatenate(
            [line_features(grey, line) for _, line in lines]))
        runs, start = [], 0
        for _, line in lines:
            if rules.scripts:
                scripts.update(line_scripts(grey, line))
            runs.append(classified_runs(line, probabilities[start:start + len(line.words)],
                                        math_page, rules, scripts))
            start += len(line.words)
    scripted = frozenset(scripts)
    spans = []
    for (index, line), line_runs in zip(lines, runs):
        for words in (piece for run in line_runs
                      for piece in without_prose(run, rules, scripted)):
            latex = _spelled_latex(words, scripts)
            if (rules.span_source == "rules" and not looks_like_math(latex)
                    and not _SCRIPTED.fullmatch(_core(words[0]))):
                continue
            scores = [w.score if w.score is not None else line.score for w in words]
            spans.append([index, words, _span_box(words, line, rules), latex,
                          sum(scores) / len(scores), line])
    if spans and rules.latex_from != "characters":
        _read_pixels(page, models, spans, rules)
    if rules.join_lines:
        spans = _across_lines(spans, [line for _, line in lines])
    found: dict[int, list[tuple[tuple[Word, ...], Box, str, float]]] = {}
    for index, words, box, latex, score, _ in spans:
        found.setdefault(index, []).append((words, box, latex, score))
    if not found:
        return page
    return replace(page, blocks=tuple(_with_spans(block, found[i]) if i in found else block
                                      for i, block in enumerate(page.blocks)))


_CONTINUES = "-\u2013\u2014\u2212+=<>"
"""Signs that leave a formula open at a line's end or take it on at the next one's start."""


def _open(text: str) -> bool:
    return text[:1] in _CONTINUES or _math_char(text[:1]) and not _greek(text[:1]) \
        and text[:1] not in _OPERANDS


def _across_lines(spans: list[list], lines: list[Line]) -> list[list]:
    """Spans with a formula the OCR cut between two lines of a block made one: a span ending
    its line with a sign ("[x0 -") and a span starting the next line ("h,x0]"), or ending its
    line before one starting the next with a sign; their LaTeX joined, their boxes united."""
    order = {id(line): k for k, line in enumerate(lines)}
    joined: list[list] = []
    for span in spans:
        if joined:
            last = joined[-1]
            index, words, box, latex, score, line = last
            if (span[0] == index and order[id(span[5])] == order[id(line)] + 1
                    and words[-1] is line.words[-1] and span[1][0] is span[5].words[0]
                    and (_open(_core(words[-1])[-1:]) or _open(span[1][0].text))):
                joined[-1] = [index, words + span[1], Box(
                    min(box.x0, span[2].x0), min(box.y0, span[2].y0), max(box.x1, span[2].x1),
                    max(box.y1, span[2].y1)), compact(latex + " " + span[3]),
                    (score * len(words) + span[4] * len(span[1])) / (len(words) + len(span[1])),
                    span[5]]
                continue
        joined.append(span)
    return joined


def _padded(box: Box, words: tuple[Word, ...], pad: float) -> Box:
    height = max(w.box.y1 for w in words) - min(w.box.y0 for w in words)
    return Box(box.x0 - pad * height, box.y0, box.x1 + pad * height, box.y1)


_NEGATED = re.compile(r"\\not\s*(?:\{\s*(=|\\in)\s*\}|(=|\\in(?![A-Za-z])))")
_NEGATIONS = {"=": "\\neq ", "\\in": "\\notin "}
"""The model's negations written with their own symbols: \\not{=} is \\neq, as a text layer's."""


def _crop_box(page: PageState, box: Box, words: tuple[Word, ...], line: Line,
              pad: float, rules: InlineSpanRules) -> Box:
    """What the formula model reads of a span: its words across, and where `rules.crop_rows` says
    "ink", down the rows of ink that touch its words' rows without a blank row between, inside
    its line's band (an inline fraction's numerator and denominator stand above and below the
    words the OCR boxed; the next line is a blank row away)."""
    padded = _padded(box, words, pad)
    if rules.crop_rows != "ink":
        return padded
    x0, top, x1, bottom = page.crop_bounds(Box(padded.x0, line.box.y0, padded.x1, line.box.y1),
                                           margin=0)
    grey = grey_levels(page.image[top:bottom, x0:x1]).astype(np.float32)
    if grey.size == 0:
        return padded
    paper, dark = np.percentile(grey, 90), grey.min()
    if paper - dark < 40:
        return padded
    inked = ((grey < (paper + dark) / 2).sum(axis=1) >= rules.ink_pixels)
    y0, y1 = max(top, int(padded.y0)), min(bottom, int(np.ceil(padded.y1)))
    while y0 > top and inked[y0 - 1 - top]:
        y0 -= 1
    while y1 < bottom and inked[y1 - top]:
        y1 += 1
    return Box(padded.x0, min(padded.y0, y0), padded.x1, max(padded.y1, y1))


def _read_pixels(page: PageState, models, spans: list[list], rules: InlineSpanRules) -> None:
    """Each span's LaTeX from the formula model's reading of its crop (prepared as display
    crops are: engine/formulas/model.py `prepare`), where the reading is confident and looks
    like math; the characters' LaTeX stands otherwise."""
    recognizer = models.formula_recognizer()
    if recognizer is None:
        return
    pad = rules.crop_pad - rules.pad
    readings = recognizer.read([page.crop(_crop_box(page, span[2], span[1], span[5], pad, rules),
                                          margin=0) for span in spans])
    for span, reading in zip(spans, readings):
        if reading is None or not looks_like_math(reading.latex):
            continue
        if rules.latex_from == "model" or not reading.low_confidence:
            span[3] = compact(_NEGATED.sub(lambda m: _NEGATIONS[m.group(1) or m.group(2)],
                                                reading.latex))


def _with_spans(block: Block, found: list[tuple[tuple[Word, ...], Box, str, float]]) -> Block:
    """The block with each kept span's words, found in its text in order, a formula span."""
    text, spans, cursor = block.text, [], 0
    for span_words, box, latex, confidence in found:
        words = _spelled(span_words)
        pattern = r"\s*".join(re.escape(w) for w in words)  # "〈u|u〉": boxed apart
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
