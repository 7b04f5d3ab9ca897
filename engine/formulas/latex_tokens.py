"""LaTeX math as tokens: one canonical spelling for training targets, model output and scoring.

A formula is split into control words (``\\alpha``), control symbols (``\\{``), environment
markers (``\\begin{array}`` as one token) and single characters; whitespace carries no meaning.
Two formulas that typeset alike should normalise to the same token list, so that a recogniser is
never asked to guess which of several spellings an author used:

* scripts: always braced (``x^2`` -> ``x ^ { 2 }``), a subscript before a superscript
  (``x^2_i`` -> ``x _ { i } ^ { 2 }``), one of each (``x'^2`` -> ``x ^ { \\prime 2 }``);
* braces: a command argument is always braced; a group that is nobody's argument loses its
  braces (``{ \\partial } _ { \\mu }``, ``{ \\frac { 1 } { 2 } }``) unless a script follows it
  and it holds several atoms, or it delimits an ``\\over``/row;
* operator names with a command of their own use it (``\\operatorname{log}`` -> ``\\log``);
* old font switches become commands (``{\\cal X}`` -> ``\\mathcal { X }``);
* aliases collapse (``\\le`` -> ``\\leq``, ``\\dfrac`` -> ``\\frac``, ``\\lbrace`` -> ``\\{``,
  ``x'`` -> ``x ^ { \\prime }``, ``{a \\over b}`` -> ``\\frac { a } { b }``);
* near-invisible spacing and style commands are dropped (``\\,``, ``~``, ``\\displaystyle``,
  ``\\limits``), as are ``\\left``/``\\right``/``\\big`` sizes (``(`` stays ``(``).
"""

from __future__ import annotations

import re

_TOKEN = re.compile(r"\\(?:begin|end)\s*\{\s*[A-Za-z]+\*?\s*\}|\\[A-Za-z]+\*?|\\.|[^\s]", re.S)

# Commands and how many mandatory arguments they take (optional [..] arguments are kept as tokens).
ARITY: dict[str, int] = {
    **dict.fromkeys(["\\frac", "\\binom", "\\overset", "\\underset", "\\stackrel", "\\cfrac",
                     "\\genfrac"], 2),
    **dict.fromkeys([
        "\\sqrt", "\\mathrm", "\\mathbf", "\\mathit", "\\mathcal", "\\mathbb", "\\mathfrak",
        "\\mathsf", "\\mathtt", "\\mathscr", "\\boldsymbol", "\\bm", "\\operatorname",
        "\\operatorname*", "\\text", "\\textrm", "\\textbf", "\\textit", "\\mbox", "\\hat",
        "\\widehat", "\\tilde", "\\widetilde", "\\bar", "\\overline", "\\underline", "\\vec",
        "\\dot", "\\ddot", "\\dddot", "\\check", "\\breve", "\\acute", "\\grave", "\\mathring",
        "\\overbrace", "\\underbrace", "\\overrightarrow", "\\overleftarrow", "\\boxed",
        "\\pmod", "\\not", "\\cancel", "\\slashed", "\\xrightarrow", "\\xleftarrow", "\\phantom",
        "\\hphantom", "\\vphantom", "\\mathop", "\\mathbin", "\\mathrel", "\\mathord",
        "\\upgreek", "\\substack",
    ], 1),
}
# \begin{array}, \begin{tabular}, \begin{alignedat}, \begin{subarray} take one argument.
_ENV_ARITY = {"array": 1, "tabular": 1, "alignedat": 1, "subarray": 1}

_SWITCHES = {"\\rm": "\\mathrm", "\\bf": "\\mathbf", "\\cal": "\\mathcal", "\\it": "\\mathit",
             "\\sf": "\\mathsf", "\\tt": "\\mathtt", "\\mit": "\\mathit", "\\Bbb": "\\mathbb",
             "\\bold": "\\mathbf", "\\boldmath": "\\boldsymbol"}

ALIASES: dict[str, str] = {
    "\\dfrac": "\\frac", "\\tfrac": "\\frac", "\\dbinom": "\\binom", "\\tbinom": "\\binom",
    "\\le": "\\leq", "\\ge": "\\geq", "\\ne": "\\neq", "\\leqq": "\\leqq", "\\to": "\\rightarrow",
    "\\gets": "\\leftarrow", "\\lbrace": "\\{", "\\rbrace": "\\}", "\\lbrack": "[", "\\rbrack": "]",
    "\\vert": "|", "\\lvert": "|", "\\rvert": "|", "\\Vert": "\\|", "\\lVert": "\\|",
    "\\rVert": "\\|", "\\land": "\\wedge", "\\lor": "\\vee", "\\lnot": "\\neg",
    "\\ldots": "\\dots", "\\dotsc": "\\dots", "\\dotso": "\\dots", "\\dotsb": "\\cdots",
    "\\dotsm": "\\cdots", "\\dotsi": "\\cdots", "\\colon": ":", "\\owns": "\\ni",
    "\\textrm": "\\text", "\\mbox": "\\text", "\\hbox": "\\text", "\\bm": "\\boldsymbol",
    "\\operatorname*": "\\operatorname", "\\varepsilon": "\\varepsilon", "\\iff": "\\iff",
    "\\implies": "\\implies", "\\langle": "\\langle", "\\rangle": "\\rangle",
    "\\begin{matrix}": "\\begin{matrix}", "\\ast": "*", "\\lt": "<", "\\gt": ">",
}

DROPPED = frozenset([
    "\\,", "\\;", "\\:", "\\!", "\\ ", "~", "\\>", "\\displaystyle", "\\textstyle",
    "\\scriptstyle", "\\scriptscriptstyle", "\\limits", "\\nolimits", "\\left", "\\right",
    "\\big", "\\Big", "\\bigg", "\\Bigg", "\\bigl", "\\bigr", "\\Bigl", "\\Bigr", "\\biggl",
    "\\biggr", "\\Biggl", "\\Biggr", "\\bigm", "\\Bigm", "\\middle", "\\nonumber", "\\notag",
    "\\allowbreak", "\\relax", "\\strut", "\\mathstrut", "\\ensuremath",
])


def tokenize(latex: str) -> list[str]:
    """Splits LaTeX into tokens; ``\\begin {array}`` and ``\\begin{array}`` are one token."""
    return [re.sub(r"\s+", "", t) if t.startswith(("\\begin", "\\end")) else t
            for t in _TOKEN.findall(latex)]


def detokenize(tokens: list[str]) -> str:
    """One space between tokens: always valid LaTeX, since no token ends mid-word."""
    return " ".join(tokens)


def group_end(tokens: list[str], start: int) -> int:
    """Index just past the brace group opening at ``start`` (or the end, if unbalanced)."""
    depth = 0
    for i in range(start, len(tokens)):
        if tokens[i] == "{":
            depth += 1
        elif tokens[i] == "}":
            depth -= 1
            if depth == 0:
                return i + 1
    return len(tokens)


def _argument(tokens: list[str], i: int) -> tuple[list[str], int]:
    """Reads one argument at ``i`` and returns it canonically braced, with the next index."""
    if i >= len(tokens):
        return ["{", "}"], i
    if tokens[i] == "{":
        end = group_end(tokens, i)
        inner = _canonical(tokens[i + 1:end - 1])
        return ["{", *inner, "}"], end
    if tokens[i] in ARITY or tokens[i] in _SWITCHES:
        # A command as the argument of another (``x^\frac12``): read it whole.
        sub, end = _command(tokens, i)
        return ["{", *sub, "}"], end
    return ["{", tokens[i], "}"], i + 1


def _command(tokens: list[str], i: int) -> tuple[list[str], int]:
    name = tokens[i]
    out = [name]
    i += 1
    if name == "\\sqrt" and i < len(tokens) and tokens[i] == "[":
        depth = 0
        while i < len(tokens):
            out.append(tokens[i])
            depth += tokens[i] == "["
            depth -= tokens[i] == "]"
            i += 1
            if depth == 0:
                break
    for _ in range(ARITY.get(name, 0)):
        arg, i = _argument(tokens, i)
        out.extend(arg)
    return out, i


def _canonical(tokens: list[str]) -> list[str]:
    tokens = _over_as_frac(tokens)
    out: list[str] = []
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if tok in ("^", "_"):
            scripts: dict[str, list[str]] = {}
            while i < len(tokens) and tokens[i] in ("^", "_"):
                script = tokens[i]
                arg, i = _argument(tokens, i + 1)
                # A second superscript joins the first, as TeX joins a prime's: x'^{2} and
                # x''  are x^{\prime 2} and x^{\prime \prime}; x^{a}^{b} would not compile.
                scripts[script] = scripts[script][:-1] + arg[1:] if script in scripts else arg
            for script in ("_", "^"):  # x^{a}_{b} and x_{b}^{a} typeset alike
                if script in scripts:
                    out.extend([script, *scripts[script]])
            continue
        if tok in ARITY:
            sub, i = _command(tokens, i)
            out.extend(sub)
            continue
        if tok.startswith("\\begin{"):
            out.append(tok)
            i += 1
            env = tok[len("\\begin{"):-1]
            for _ in range(_ENV_ARITY.get(env, 0)):
                arg, i = _argument(tokens, i)
                out.extend(arg)
            continue
        if tok == "{":
            end = group_end(tokens, i)
            inner = tokens[i + 1:end - 1]
            if inner and inner[0] in _SWITCHES:
                out.append(_SWITCHES[inner[0]])
                out.extend(["{", *_canonical(inner[1:]), "}"])
            else:
                body = _canonical(inner)
                scripted = end < len(tokens) and tokens[end] in ("^", "_")
                if body and (_GROUPING & set(body) or (scripted and _atoms(body) > 1)):
                    out.extend(["{", *body, "}"])
                else:
                    # A group that is nobody's argument only groups: {a}+{\frac{1}{2}} reads
                    # as a+\frac{1}{2}. It stays where it carries a script or an \over.
                    out.extend(body)
            i = end
            continue
        if tok in _SWITCHES:
            # A bare switch applies to the rest of the current group.
            out.append(_SWITCHES[tok])
            out.extend(["{", *_canonical(tokens[i + 1:]), "}"])
            return out
        out.append(tok)
        i += 1
    return out


_GROUPING = frozenset(["\\over", "\\atop", "\\choose", "\\above", "\\\\", "&", "\\cr"])


def _atoms(body: list[str]) -> int:
    """How many script-able units a canonical token list holds (x^{2} is one, x y two)."""
    count, i = 0, 0
    while i < len(body):
        tok = body[i]
        if tok in ("^", "_"):
            i = group_end(body, i + 1) if i + 1 < len(body) and body[i + 1] == "{" else i + 2
            continue
        count += 1
        if tok == "{":
            i = group_end(body, i)
        elif tok in ARITY:
            i += 1
            for _ in range(ARITY[tok]):
                if i < len(body) and body[i] == "[":
                    while i < len(body) and body[i] != "]":
                        i += 1
                    i += 1
                i = group_end(body, i) if i < len(body) and body[i] == "{" else i + 1
        elif tok.startswith("\\begin{"):
            depth, i = 1, i + 1
            while i < len(body) and depth:
                depth += body[i].startswith("\\begin{")
                depth -= body[i].startswith("\\end{")
                i += 1
        else:
            i += 1
    return count


def _aliased(tokens: list[str]) -> list[str]:
    out = []
    for tok in tokens:
        tok = ALIASES.get(tok, tok)
        if tok in DROPPED:
            continue
        if tok == "'":  # x' is x^{\prime}
            out.extend(["^", "{", "\\prime", "}"])
            continue
        out.append(tok)
    return out


def _over_as_frac(tokens: list[str]) -> list[str]:
    """``a \\over b`` at the outer level of a token list becomes ``\\frac { a } { b }``."""
    depth = 0
    for i, tok in enumerate(tokens):
        depth += (tok == "{") - (tok == "}")
        if tok == "\\over" and depth == 0:
            return ["\\frac", "{", *tokens[:i], "}", "{", *tokens[i + 1:], "}"]
    return tokens


FUNCTION_NAMES = frozenset(
    "arccos arcsin arctan arg cos cosh cot coth csc deg det dim exp gcd hom inf ker lg lim "
    "liminf limsup ln log max min sec sin sinh sup tan tanh".split())


def _mathop_names(tokens: list[str]) -> list[str]:
    """``\\mathop { \\mathrm { S p e c } }`` -> ``\\operatorname { S p e c }``; an operator name
    that LaTeX has a command for becomes that command (``\\operatorname { l o g }`` -> ``\\log``)."""
    out: list[str] = []
    i = 0
    while i < len(tokens):
        if tokens[i] in ("\\operatorname", "\\mathrm") and i + 1 < len(tokens) and tokens[i + 1] == "{":
            end = group_end(tokens, i + 1)
            word = "".join(tokens[i + 2:end - 1])
            if word in FUNCTION_NAMES and end - i - 3 == len(word):
                out.append("\\" + word)
                i = end
                continue
        if (tokens[i] == "\\mathop" and i + 3 < len(tokens) and tokens[i + 1] == "{"
                and tokens[i + 2] == "\\mathrm" and tokens[i + 3] == "{"):
            end = group_end(tokens, i + 1)
            inner = tokens[i + 2:end - 1]  # \mathrm { ... }
            if group_end(inner, 1) == len(inner):
                out.extend(["\\operatorname", *inner[1:]])
                i = end
                continue
        out.append(tokens[i])
        i += 1
    return out


def normalize(tokens: list[str]) -> list[str]:
    """The canonical token list of a formula (see the module docstring)."""
    return _mathop_names(_canonical(_aliased(tokens)))


def normalized(latex: str) -> list[str]:
    return normalize(tokenize(latex))
