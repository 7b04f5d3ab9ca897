"""LaTeX formula comparison: tokenising, light normalisation, token edit-distance similarity."""

from __future__ import annotations

import re

from tools.eval.edit_distance import similarity

_TOKEN = re.compile(r"\\[a-zA-Z]+\*?|\\.|\S", re.DOTALL)

# Tokens that change spacing or delimiter size only, never what the formula says.
_DROPPED = frozenset(
    {
        "\\left", "\\right", "\\middle",
        "\\displaystyle", "\\textstyle", "\\scriptstyle", "\\scriptscriptstyle",
        "\\big", "\\Big", "\\bigg", "\\Bigg",
        "\\bigl", "\\Bigl", "\\biggl", "\\Biggl",
        "\\bigr", "\\Bigr", "\\biggr", "\\Biggr",
        "\\bigm", "\\Bigm", "\\biggm", "\\Biggm",
        "\\,", "\\;", "\\:", "\\!", "\\ ", "\\quad", "\\qquad", "~",
        "\\limits", "\\nolimits",
    }
)  # fmt: skip

# Spellings that render the same symbol.
_ALIASES = {
    "\\dfrac": "\\frac", "\\tfrac": "\\frac",
    "\\le": "\\leq", "\\ge": "\\geq", "\\ne": "\\neq", "\\neq": "\\neq",
    "\\to": "\\rightarrow", "\\gets": "\\leftarrow",
    "\\lbrace": "\\{", "\\rbrace": "\\}", "\\lbrack": "[", "\\rbrack": "]",
    "\\vert": "|", "\\lvert": "|", "\\rvert": "|", "\\Vert": "\\|", "\\lVert": "\\|",
    "\\rVert": "\\|", "\\ast": "*", "\\lt": "<", "\\gt": ">",
    "\\operatorname*": "\\operatorname",
}  # fmt: skip

# Old-style font switches (`{\rm x}`) and the command each is equivalent to (`\mathrm{x}`).
_FONT_SWITCHES = {
    "\\rm": "\\mathrm", "\\bf": "\\mathbf", "\\it": "\\mathit", "\\cal": "\\mathcal",
    "\\sf": "\\mathsf", "\\tt": "\\mathtt", "\\mit": "\\mathit",
}  # fmt: skip


def tokenize_latex(latex: str) -> list[str]:
    """Split LaTeX into commands (`\\frac`), escaped symbols (`\\{`) and single characters."""
    return _TOKEN.findall(latex)


def _matching_brace(tokens: list[str], open_index: int) -> int:
    """Index of the `}` closing the `{` at `open_index`; len(tokens) if it is never closed."""
    depth = 0
    for index in range(open_index, len(tokens)):
        if tokens[index] == "{":
            depth += 1
        elif tokens[index] == "}":
            depth -= 1
            if depth == 0:
                return index
    return len(tokens)


def _rewrite_group(tokens: list[str]) -> tuple[list[str], bool]:
    """Normalise one brace level: font switches and `\\over`, recursing into inner groups.

    Returns the tokens and whether they form one construct (`\\frac{..}{..}` or
    `\\mathrm{..}`) made from a switch or `\\over`, whose enclosing braces are then redundant.
    """
    out: list[str] = []
    index = 0
    while index < len(tokens):
        token = tokens[index]
        if token == "{":
            close = _matching_brace(tokens, index)
            inner, is_construct = _rewrite_group(tokens[index + 1 : close])
            out.extend(inner if is_construct else ["{", *inner, "}"])
            index = close + 1
            continue
        if token in _FONT_SWITCHES:
            if index + 1 < len(tokens) and tokens[index + 1] == "{":
                out.append(_FONT_SWITCHES[token])  # `\rm{x}` is `\mathrm{x}`
            else:
                # `\rm` switches the font until the end of its group: `{\rm Tr}`.
                rest, _ = _rewrite_group(tokens[index + 1 :])
                switched = [_FONT_SWITCHES[token], "{", *rest, "}"]
                if not out:
                    return switched, True
                return _apply_over([*out, *switched])
            index += 1
            continue
        out.append(token)
        index += 1
    return _apply_over(out)


def _apply_over(tokens: list[str]) -> tuple[list[str], bool]:
    """`a \\over b` at this brace level becomes `\\frac{a}{b}`."""
    depth = 0
    for index, token in enumerate(tokens):
        if token == "{":
            depth += 1
        elif token == "}":
            depth -= 1
        elif token == "\\over" and depth == 0:
            return ["\\frac", "{", *tokens[:index], "}", "{", *tokens[index + 1 :], "}"], True
    return tokens, False


def _unwrap_single_tokens(tokens: list[str]) -> list[str]:
    """Drop braces around one token (`x^{2}` -> `x^2`) and empty groups, until stable."""
    changed = True
    while changed:
        changed = False
        out: list[str] = []
        index = 0
        while index < len(tokens):
            if tokens[index] == "{":
                if index + 1 < len(tokens) and tokens[index + 1] == "}":
                    index += 2
                    changed = True
                    continue
                if (
                    index + 2 < len(tokens)
                    and tokens[index + 2] == "}"
                    and tokens[index + 1] not in ("{", "}")
                ):
                    out.append(tokens[index + 1])
                    index += 3
                    changed = True
                    continue
            out.append(tokens[index])
            index += 1
        tokens = out
    return tokens


def normalize_latex_tokens(latex: str) -> list[str]:
    """Tokens of `latex` after light normalisation.

    Drops spacing and sizing commands (`\\,`, `\\quad`, `\\left`, `\\displaystyle`...), maps
    equivalent spellings (`\\le`/`\\leq`, `{\\rm x}`/`\\rm{x}`/`\\mathrm{x}`, `a \\over b`/
    `\\frac{a}{b}`, `x'`/`x^{\\prime}`) to one form and removes braces around single tokens.
    """
    tokens = []
    for token in tokenize_latex(latex):
        if token in _DROPPED:
            continue
        token = _ALIASES.get(token, token)
        if token == "'":
            tokens.extend(["^", "\\prime"])
            continue
        tokens.append(token)
    rewritten, _ = _rewrite_group(tokens)
    return _unwrap_single_tokens(rewritten)


def formula_similarity(pred_latex: str, truth_latex: str) -> float:
    """1 - token edit distance / longer token count, after normalisation.

    1.0 when both are empty, 0.0 when only one is.
    """
    return similarity(normalize_latex_tokens(pred_latex), normalize_latex_tokens(truth_latex))


def exact_match(pred_latex: str, truth_latex: str) -> float:
    """1.0 when both formulas have the same normalised tokens, else 0.0."""
    return float(normalize_latex_tokens(pred_latex) == normalize_latex_tokens(truth_latex))


def contains_formula(haystack_latex: str, needle_latex: str) -> bool:
    """Whether the normalised tokens of `needle_latex` occur contiguously in `haystack_latex`."""
    needle = normalize_latex_tokens(needle_latex)
    haystack = normalize_latex_tokens(haystack_latex)
    if not needle:
        return False
    width = len(needle)
    return any(haystack[i : i + width] == needle for i in range(len(haystack) - width + 1))
