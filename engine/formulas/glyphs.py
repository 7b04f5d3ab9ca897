"""Inline math in a born-digital text layer: where it is, and its LaTeX from the glyphs.

The text layer says where math is. Glyphs from math fonts (TeX's CMMI/CMSY/CMEX, AMS's
MSAM/MSBM, Latin Modern/STIX Two/Cambria Math, the math companions of text faces such as
PazoMath) and mathematical symbols start a math run; a glyph set smaller than the line and
raised or lowered from its baseline is a script. A run grows over what sits beside it in math:
single italic letters, digits, brackets and operators, a roman name carrying a script
(Ann_R). A footnote mark (a raised digit after a word) is not math. Each run's LaTeX is built
from its glyphs and their geometry: scripts by size and baseline, symbols by their Unicode
names through pylatexenc, roman names as operators.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from pylatexenc.latexencode import UnicodeToLatexEncoder

from engine.formulas.latex_tokens import FUNCTION_NAMES
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

_ENCODER = UnicodeToLatexEncoder(non_ascii_only=True, replacement_latex_protection="none",
                                  unknown_char_policy="keep", unknown_char_warning=False)
# Where pylatexenc gives the text-mode spelling, the math one.
_MATH_SPELLING = {"\u00d7": "\\times", "\u2192": "\\rightarrow", "\u00b7": "\\cdot",
                  "\u00ac": "\\neg", "\u2026": "\\dots", "\u2032": "\\prime", "\u2033": "\\prime\\prime",
                  "\u2212": "-", "\u2217": "*", "\u22c5": "\\cdot", "\u2190": "\\leftarrow",
                  "\u2194": "\\leftrightarrow", "\u21d2": "\\Rightarrow", "\u21d4": "\\Leftrightarrow",
                  "\u2223": "|", "\u2016": "\\|", "\u00b1": "\\pm", "\u2213": "\\mp",
                  "\u00b5": "\\mu"}
# TeX builds accented math letters from a spacing accent glyph before the letter.
_ACCENTS = {"\u02c6": "\\hat", "^": "\\hat", "\u02dc": "\\tilde", "~": "\\tilde",
            "\u00af": "\\bar", "\u02d9": "\\dot", "\u00a8": "\\ddot", "\u20d7": "\\vec"}
_OPERATORS = set("=+-<>/|\u2212") | {"\u00d7", "\u00b7"}
_BRACKETS = set("()[]{}")
# LaTeX's named functions (\\log, \\sin), and \\Pr.
_FUNCTION_NAMES = FUNCTION_NAMES | {"Pr"}


@dataclass
class Glyph:
    char: str
    box: Box
    size: float
    baseline: float
    font: str
    italic: bool
    path: tuple[str, ...] = ()
    """Where the glyph sits: () on the line, ("u",) a superscript, ("d",) a subscript,
    ("d", "u") a subscript's superscript ..."""
    line: int = 0
    """Which of the text layer's lines of its visual line it came from (a stacked numerator
    or denominator is often a line of its own, which the text may give elsewhere)."""


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
    if char in _MATH_SPELLING or char in _OPERATORS - {"/", "-"}:
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
    if text in _ACCENTS and text not in _OPERATORS:
        return True  # the spacing accent TeX sets over a math letter
    if text in _FUNCTION_NAMES:
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


def _symbol(char: str) -> str:
    if char in _MATH_SPELLING:
        return _MATH_SPELLING[char]
    if char.isascii():
        return "\\" + char if char in "{}%#&$_" else char
    spelled = _ENCODER.unicode_to_latex(char)
    match = re.fullmatch(r"\\ensuremath\{(.*)\}", spelled)
    if match:
        return match.group(1)
    return spelled if spelled.startswith("\\") and not spelled.startswith("\\text") else char


def glyphs_latex(glyphs: list[Glyph]) -> str:
    """LaTeX of a run of glyphs: the glyphs on the run's own level in order, each script group
    braced after the glyph it hangs on."""
    glyphs = [g for g in glyphs if not g.char.isspace()]
    return _latex_at(glyphs, min((g.path for g in glyphs), key=len)) if glyphs else ""


def _latex_at(glyphs: list[Glyph], path: tuple[str, ...]) -> str:
    out: list[str] = []
    i = 0
    while i < len(glyphs):
        glyph = glyphs[i]
        if glyph.path != path:
            j = i
            while j < len(glyphs) and glyphs[j].path != path:
                j += 1
            group = glyphs[i:j]
            parts = {step: [g for g in group if g.path[len(path):len(path) + 1] == (step,)]
                     for step in ("u", "d")}
            if _fraction(parts["u"], parts["d"], glyphs[i - 1] if i else None):
                out.append("\\frac{" + _latex_at(parts["u"], path + ("u",)) + "}{"
                           + _latex_at(parts["d"], path + ("d",)) + "}")
                i = j
                continue
            for step, mark in (("d", "_"), ("u", "^")):
                if parts[step]:
                    out.append(mark + "{" + _latex_at(parts[step], path + (step,)) + "}")
            i = j
            continue
        # A roman name of several letters is an operator (Ann, Hom) or a named function.
        j = i
        while (j < len(glyphs) and glyphs[j].path == path and glyphs[j].char.isalpha()
               and glyphs[j].char.isascii() and not glyphs[j].italic):
            j += 1
        if j - i >= 2:
            name = "".join(g.char for g in glyphs[i:j])
            out.append("\\" + name + " " if name in _FUNCTION_NAMES else
                       "\\operatorname{" + name + "}")
            i = j
            continue
        if glyph.char in _ACCENTS and i + 1 < len(glyphs) and glyphs[i + 1].char.isalpha():
            out.append(_ACCENTS[glyph.char] + "{" + glyphs[i + 1].char + "}")
            i += 2
            continue
        if glyph.char == "." and [g.char for g in glyphs[i:i + 3]] == [".", ".", "."]:
            out.append("\\ldots ")
            i += 3
            continue
        if glyph.char == "\u0338" and i + 1 < len(glyphs):  # a slash struck through: not
            negated = {"=": "\\neq ", "\u2208": "\\notin "}.get(glyphs[i + 1].char)
            out.append(negated or "\\not " + _symbol(glyphs[i + 1].char))
            i += 2
            continue
        symbol = _symbol(glyph.char)
        if glyph.char.isascii() and glyph.char.isalpha():
            # Letters of the blackboard-bold and calligraphic math fonts keep their alphabet.
            if re.search(r"msbm|bbold|dsrom", glyph.font, re.IGNORECASE):
                symbol = "\\mathbb{" + glyph.char + "}"
            elif glyph.char.isupper() and re.search(r"cmsy|lmsy|[pt]xsy|rsfs|eusm",
                                                     glyph.font, re.IGNORECASE):
                symbol = "\\mathcal{" + glyph.char + "}"
        out.append(symbol + (" " if re.search(r"\\[A-Za-z]+$", symbol) else ""))
        i += 1
    return "".join(out).strip()


def _large_operator(char: str) -> bool:
    """A sum, product, integral or big union (its limits stack over and under it); an
    unmapped glyph of TeX's extension font is one too."""
    name = unicodedata.name(char, "")
    return char == "\ufffd" or "N-ARY" in name or "INTEGRAL" in name


def _fraction(over: list[Glyph], under: list[Glyph], before: Glyph | None) -> bool:
    """A raised and a lowered group stacked on each other with nothing they hang on (a start,
    an operator, an opening bracket before them) is a fraction, numerator over denominator;
    after a letter, digit or closing bracket they are that glyph's scripts."""
    if not over or not under:
        return False
    if before is not None and (before.char.isalnum() or before.char in ")]}|'\u2032"
                               or _large_operator(before.char)):
        return False
    a0, a1 = min(g.box.x0 for g in over), max(g.box.x1 for g in over)
    b0, b1 = min(g.box.x0 for g in under), max(g.box.x1 for g in under)
    return min(a1, b1) - max(a0, b0) > 0.5 * min(a1 - a0, b1 - b0)


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
