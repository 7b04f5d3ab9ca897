"""Inline math in a born-digital text layer: where it is, and its LaTeX from the glyphs.

The text layer says where math is. Glyphs from math fonts (TeX's CMMI/CMSY/CMEX, AMS's
MSAM/MSBM, Latin Modern/STIX Two/Cambria Math, the math companions of text faces such as
PazoMath) and mathematical symbols start a math run; a glyph set smaller than the line and
raised or lowered from its baseline is a script. A run grows over what sits beside it in math:
single italic letters, digits, brackets and operators, a roman name carrying a script
(Ann_R), a factorial, := . A footnote mark (a raised digit after a word) is not math. A
numerator or denominator the text layer gives as a line of its own joins the line it is
stacked on. Each run's LaTeX is built from its glyphs and their geometry
(engine/formulas/glyph_latex.py).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from engine.formulas.glyph_latex import (ACCENTS, FUNCTION_NAMES_AND_PR, MATH_SPELLING, Glyph,
                                          glyphs_latex)
from engine.types import Box


@dataclass(frozen=True)
class InlineMathRules:
    """The geometry and vocabulary of inline math in a text layer."""

    math_fonts: re.Pattern = re.compile(
        r"cmmi|cmsy|cmex|cmbsy|msam|msbm|math|stix|eufm|eusm|rsfs|lmmi|lmsy|txmi|txsy|pxmi|"
        r"pxsy|symbol|mtmi|mtsy|euler", re.IGNORECASE)
    """Font names whose glyphs are math wherever they stand."""
    script_size: float = 0.85
    """A glyph smaller than this share of the line's type is a script, when it also sits off
    the baseline (TeX sets first-level scripts at 0.7 of the text size, 0.5 below that)."""
    script_shift: float = 0.1
    """... by more than this share of the line's type size."""
    stopwords: frozenset[str] = frozenset(
        "a an as at be by do if in is it of on or so to up we no he me my us am I".split())
    """Short words of running text that join a math run only beside an operator (a = b)."""
    closing_punctuation: str = ".,;:"


RULES = InlineMathRules()

_OPERATORS = set("=+-<>/|\u2212") | {"\u00d7", "\u00b7"}
_BRACKETS = set("()[]{}")
@dataclass
class MathRun:
    """One inline formula of a line: its glyphs as the page shows them and their LaTeX."""

    glyphs: list[Glyph] = field(default_factory=list)
    latex: str = ""

    @property
    def text(self) -> str:
        return "".join(g.char for g in self.glyphs)

    def pieces(self) -> list[str]:
        """The run's characters cut where they pass from one text-layer line to another, the
        piece of most characters first."""
        cuts: list[list[Glyph]] = []
        for glyph in self.glyphs:
            if cuts and cuts[-1][-1].line == glyph.line:
                cuts[-1].append(glyph)
            else:
                cuts.append([glyph])
        texts = ["".join(g.char for g in cut).strip() for cut in cuts]
        return sorted((t for t in texts if t), key=len, reverse=True)

    @property
    def box(self) -> Box:
        return Box(min(g.box.x0 for g in self.glyphs), min(g.box.y0 for g in self.glyphs),
                   max(g.box.x1 for g in self.glyphs), max(g.box.y1 for g in self.glyphs))


def has_math_fonts(fonts: list[tuple], rules: InlineMathRules = RULES) -> bool:
    """Whether a page's font list (PyMuPDF's page.get_fonts()) holds a math font."""
    return any(rules.math_fonts.search(font[3] or "") for font in fonts)


def line_glyphs(raw_line: dict) -> list[Glyph]:
    """The glyphs of one line of PyMuPDF's rawdict, spaces included, with script levels."""
    glyphs = []
    for span in raw_line["spans"]:
        italic = bool(span["flags"] & 2) or bool(re.search(r"ital|oblique|-it\b|mi\d", span["font"],
                                                           re.IGNORECASE))
        for char in span["chars"]:
            glyphs.append(Glyph(char["c"], Box(*char["bbox"]), float(span["size"]),
                                float(char["origin"][1]), span["font"], italic))
    return glyphs


def _levels(glyphs: list[Glyph], rules: InlineMathRules) -> None:
    """Script paths from size and baseline: a glyph smaller than the one it hangs on and off
    that one's baseline is its superscript ("u") or subscript ("d"); a glyph the size of the
    current script but on another baseline is the same base's other script (a sum's limits)."""
    sized = [g for g in glyphs if not g.char.isspace()]
    if not sized:
        return
    sizes = [g.size for g in sized]
    body = max(set(sizes), key=sizes.count)
    bases = sorted(g.baseline for g in sized if g.size == body)
    stack: list[tuple[float, float, tuple[str, ...]]] = [(body, bases[len(bases) // 2], ())]
    for glyph in glyphs:
        if not glyph.char.isspace():
            while len(stack) > 1 and glyph.size > stack[-1][0] * 1.1:
                stack.pop()
            size, base, path = stack[-1]
            shift = base - glyph.baseline
            if glyph.size < size * rules.script_size and abs(shift) > rules.script_shift * size:
                stack.append((glyph.size, glyph.baseline, path + ("u" if shift > 0 else "d",)))
            elif path and abs(shift) > rules.script_shift * size:
                other = "u" if shift > 0 else "d"
                stack[-1] = (glyph.size, glyph.baseline, path[:-1] + (other,))
        glyph.path = stack[-1][2]


def _is_math_symbol(char: str) -> bool:
    """A mathematical symbol (not a letter: Greek words are text, a lone Greek letter math)."""
    if char in MATH_SPELLING or char in _OPERATORS - {"/", "-"}:
        return True
    return unicodedata.category(char) == "Sm"


def _greek(char: str) -> bool:
    return char.isalpha() and "GREEK" in unicodedata.name(char, "")


def _words(glyphs: list[Glyph]) -> list[list[Glyph]]:
    """Glyphs cut into words at spaces and at changes of font or script level."""
    words: list[list[Glyph]] = []
    for glyph in glyphs:
        if glyph.char.isspace():
            words.append([])
            continue
        if (not words or not words[-1] or words[-1][-1].font != glyph.font
                or words[-1][-1].path != glyph.path or _is_math_symbol(glyph.char)
                or _is_math_symbol(words[-1][-1].char) or glyph.char in _BRACKETS | _OPERATORS
                or words[-1][-1].char in _BRACKETS | _OPERATORS):
            words.append([glyph])
        else:
            words[-1].append(glyph)
    return [w for w in words if w]


def _anchor(word: list[Glyph], rules: InlineMathRules) -> bool:
    """A word that is math wherever it stands: a math font's glyphs, a math symbol, a Greek
    letter standing alone."""
    if any(rules.math_fonts.search(g.font) or _is_math_symbol(g.char) for g in word):
        return True
    if len(word) != 1:
        return False
    char = word[0].char
    # A lone italic letter in running text is a variable ("then s has"), but for words.
    return _greek(char) or (word[0].italic and char.isascii() and char.isalpha()
                            and char not in rules.stopwords)


def _joins(word: list[Glyph], beside: list[Glyph] | None, rules: InlineMathRules) -> bool:
    """Whether a word next to a math run belongs to it."""
    text = "".join(g.char for g in word)
    if word[0].path:
        return True
    if text == ":" and beside is not None and "".join(g.char for g in beside) == "=" and (
            _touching(word, beside) or _touching(beside, word)):
        return True  # := as one sign
    if text in rules.closing_punctuation:
        return False
    if text == "!" and beside is not None and beside[-1].box.x1 <= word[0].box.x0 + 0.5 and (
            _touching(beside, word)):
        return True  # a factorial after its number or letter
    if text in ACCENTS and text not in _OPERATORS:
        return True  # the spacing accent TeX sets over a math letter
    if text in FUNCTION_NAMES_AND_PR:
        return True  # ln, sin, max: upright names inside a formula
    if all(c.isdigit() or c in "., " for c in text) or all(c in _BRACKETS or c in _OPERATORS
                                                           for c in text):
        return True
    if text.isalpha() and word[0].italic and len(text) <= 2:
        if text in rules.stopwords or text.lower() in rules.stopwords - {"I"}:
            return beside is not None and any(g.char in _OPERATORS or _is_math_symbol(g.char)
                                              for g in beside)
        return True
    return False


def _touching(a: list[Glyph], b: list[Glyph]) -> bool:
    """No space between two words (b follows a)."""
    return b[0].box.x0 - a[-1].box.x1 < 0.12 * a[-1].size


def math_runs(glyphs: list[Glyph], rules: InlineMathRules = RULES) -> list[MathRun]:
    """The inline formulas of one line."""
    _levels(glyphs, rules)
    words = _words(glyphs)
    math = [_anchor(w, rules) for w in words]
    for i, word in enumerate(words):
        # A script on a word: math unless it is a footnote mark on a word of text.
        if word[0].path and i > 0:
            base = "".join(g.char for g in words[i - 1])
            mark = all(c.isdigit() or c in "*\u2020\u2021" for c in "".join(g.char for g in word))
            if not (mark and len(base) > 1 and base.isalpha() and not words[i - 1][0].italic):
                math[i] = True
                if base.isalpha() and _touching(words[i - 1], word):
                    math[i - 1] = True  # Ann_R, x_i: the base carries the script
    changed = True
    while changed:
        changed = False
        for i, word in enumerate(words):
            if math[i]:
                continue
            for j in (i - 1, i + 1):
                if 0 <= j < len(words) and math[j] and _joins(word, words[j], rules):
                    math[i] = changed = True
                    break
            else:
                # A comma between two math words, as in (R, S) or x_1, x_2.
                text = "".join(g.char for g in word)
                if (text in (",", ";") and 0 < i < len(words) - 1 and math[i - 1]
                        and (math[i + 1] or _joins(words[i + 1], None, rules))):
                    math[i] = math[i + 1] = changed = True
    runs: list[MathRun] = []
    previous = False
    for word, is_math in zip(words, math):
        if is_math:
            if not previous:
                runs.append(MathRun())
            runs[-1].glyphs.extend(word)
        previous = is_math
    for run in runs:
        while run.glyphs and not run.glyphs[-1].path and (
                run.glyphs[-1].char in rules.closing_punctuation) and not (
                run.text.endswith("...") and rules.math_fonts.search(run.glyphs[-1].font)):
            run.glyphs.pop()
        _balance(run)
        run.latex = glyphs_latex(run.glyphs)
    return [run for run in runs if run.glyphs and _worth(run)]


def _balance(run: MathRun) -> None:
    """An opening or closing bracket with no partner in the run at its edge is text."""
    while run.glyphs and run.glyphs[-1].char in "([{" and not run.glyphs[-1].path:
        run.glyphs.pop()  # the bracket that opens the text after the formula: "g(x) (finished"
    while run.glyphs and run.glyphs[-1].char.isspace():
        run.glyphs.pop()
    text = run.text
    if run.glyphs and run.glyphs[0].char == "(" and text.count("(") > text.count(")"):
        run.glyphs.pop(0)
    if run.glyphs and run.glyphs[-1].char == ")" and text.count(")") > text.count("("):
        run.glyphs.pop()


def _worth(run: MathRun) -> bool:
    """A run with a letter, a script, or a symbol beyond ASCII's operators with a number
    (\\pm 10), and its brackets paired; anything else (a lone "=", a number, a bracket cut off
    by text) is left as text."""
    text = run.text
    depth = 0
    for char in text:
        depth += (char in "([{") - (char in ")]}")
        if depth < 0:
            return False
    # A symbol alone (a Symbol-font bullet, an arrow between words) is not a formula.
    symbol = any(not c.isascii() and _is_math_symbol(c) for c in text) and any(
        c.isdigit() for c in text)
    return depth == 0 and (any(c.isalpha() for c in text) or any(g.path for g in run.glyphs)
                           or symbol)


def _visual_lines(raw: dict) -> list[list[dict]]:
    """A page's rawdict lines grouped into the lines a reader sees: PyMuPDF starts a new line,
    even a new block, where a sum's lower limit, a tall script or a fraction's numerator or
    denominator leaves the baseline. A line joins the one it follows on the same band, or,
    stacked, the one whose span it lies under or over."""
    groups: list[list[dict]] = []
    for block in raw.get("blocks", []):
        if block.get("type") != 0:
            continue
        for line in block.get("lines", []):
            x0, y0, x1, y1 = line["bbox"]
            for group in reversed(groups[-8:]):
                lx0, ly0, lx1, ly1 = group[-1]["bbox"]
                gx0, gx1 = min(g["bbox"][0] for g in group), max(g["bbox"][2] for g in group)
                height = min(y1 - y0, ly1 - ly0)
                if min(y1, ly1) - max(y0, ly0) <= 0.5 * height:
                    continue
                if lx1 - 0.5 * height <= x0 <= lx1 + height or (x0 < gx1 and x1 > gx0):
                    group.append(line)
                    break
            else:
                groups.append([line])
    return groups


def _group_glyphs(group: list[dict]) -> list[Glyph]:
    """The glyphs of a visual line in reading order: its lines' words (each with the space
    after it) merged left to right, so that a numerator or denominator the text layer gives
    as a line of its own stands beside the part it is stacked on."""
    words: list[list[Glyph]] = []
    for number, line in enumerate(group):
        word: list[Glyph] = []
        for glyph in line_glyphs(line):
            glyph.line = number
            word.append(glyph)
            if glyph.char.isspace():
                words.append(word)
                word = []
        if word:
            words.append(word)
    inked = [w for w in words if any(not g.char.isspace() for g in w)]
    if len(group) > 1:
        inked.sort(key=lambda w: next(g.box.x0 for g in w if not g.char.isspace()))
    return [g for w in inked for g in w]


def page_math_runs(raw: dict, rules: InlineMathRules = RULES) -> list[MathRun]:
    """The inline formulas of a page from PyMuPDF's rawdict, line by line as a reader sees
    them; boxes in PDF points."""
    runs: list[MathRun] = []
    for group in _visual_lines(raw):
        if any(abs(line.get("dir", (1, 0))[1]) > 0.1 for line in group):
            continue  # vertical or slanted text holds no inline math we can place
        glyphs = _group_glyphs(group)
        runs.extend(math_runs(glyphs, rules))
    return runs
