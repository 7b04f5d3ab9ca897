"""The LaTeX of inline math from a text layer's glyphs: the glyphs on a formula's own level in
order, scripts braced after the glyph they hang on, a raised and a lowered group stacked with
nothing to hang on a fraction, symbols by their Unicode names through pylatexenc, roman names
as operators, letters of the blackboard-bold and calligraphic fonts in their alphabets."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from pylatexenc.latexencode import UnicodeToLatexEncoder

from engine.formulas.latex_tokens import FUNCTION_NAMES
from engine.types import Box

_ENCODER = UnicodeToLatexEncoder(non_ascii_only=True, replacement_latex_protection="none",
                                  unknown_char_policy="keep", unknown_char_warning=False)
# Where pylatexenc gives the text-mode spelling, the math one.
MATH_SPELLING = {"\u00d7": "\\times", "\u2192": "\\rightarrow", "\u00b7": "\\cdot",
                 "\u00ac": "\\neg", "\u2026": "\\dots", "\u2032": "\\prime", "\u2033": "\\prime\\prime",
                 "\u2212": "-", "\u2217": "*", "\u22c5": "\\cdot", "\u2190": "\\leftarrow",
                 "\u2194": "\\leftrightarrow", "\u21d2": "\\Rightarrow", "\u21d4": "\\Leftrightarrow",
                 "\u2223": "|", "\u2016": "\\|", "\u00b1": "\\pm", "\u2213": "\\mp",
                 "\u00b5": "\\mu"}
# TeX builds accented math letters from a spacing accent glyph before the letter.
ACCENTS = {"\u02c6": "\\hat", "^": "\\hat", "\u02dc": "\\tilde", "~": "\\tilde",
           "\u00af": "\\bar", "\u02d9": "\\dot", "\u00a8": "\\ddot", "\u20d7": "\\vec"}
# LaTeX's named functions (\\log, \\sin), and \\Pr.
FUNCTION_NAMES_AND_PR = FUNCTION_NAMES | {"Pr"}


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


def symbol_latex(char: str) -> str:
    """One glyph's character as LaTeX: its math spelling, else pylatexenc's command."""
    if char in MATH_SPELLING:
        return MATH_SPELLING[char]
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
            out.append("\\" + name + " " if name in FUNCTION_NAMES_AND_PR else
                       "\\operatorname{" + name + "}")
            i = j
            continue
        if glyph.char in ACCENTS and i + 1 < len(glyphs) and glyphs[i + 1].char.isalpha():
            out.append(ACCENTS[glyph.char] + "{" + glyphs[i + 1].char + "}")
            i += 2
            continue
        if glyph.char == "." and [g.char for g in glyphs[i:i + 3]] == [".", ".", "."]:
            out.append("\\ldots ")
            i += 3
            continue
        if glyph.char == "\u0338" and i + 1 < len(glyphs):  # a slash struck through: not
            negated = {"=": "\\neq ", "\u2208": "\\notin "}.get(glyphs[i + 1].char)
            out.append(negated or "\\not " + symbol_latex(glyphs[i + 1].char))
            i += 2
            continue
        symbol = symbol_latex(glyph.char)
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
