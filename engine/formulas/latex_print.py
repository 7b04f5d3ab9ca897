"""LaTeX as a person writes it, printed from the token canon (engine/formulas/latex_tokens.py).

The canon spells every token apart and braces every script (``e ^ { i \\pi } + 1 = 0``): one
spelling to train and score on. People write ``e^{i\\pi}+1=0``. `compact` prints the same
tokens that way, and what it prints reads back to the same canon (`normalized`), so no output
loses a token and no score moves by spelling alone:

* a space only where TeX needs one: between a control word and a letter or a star
  (``\\alpha x``, ``\\wedge *``), and,
  for the reader, after a script left unbraced when a letter or digit follows (``x^2 y``);
* a script of one letter, digit or argument-less control word loses its braces (``x_i``,
  ``\\int_a^b``, ``x^\\infty``); a superscript of primes is written with primes (``f'``, ``f''``);
* ``\\,`` before the differential of an integral (``f(x)\\,dx``), which the canon drops.

Command arguments keep their braces (``\\frac{1}{2}``, ``\\mathbf{E}``): that is how LaTeX is
written by hand, and a one-character argument without them (``\\frac12``) reads badly.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.formulas.latex_tokens import ARITY, group_end, normalized, tokenize


@dataclass(frozen=True)
class PrintRules:
    """What the printer writes differently from the canon; each switch reads back to it."""

    unbraced_scripts: bool = True
    primes: bool = True
    differential_space: bool = True
    integrals: frozenset[str] = frozenset(["\\int", "\\iint", "\\iiint", "\\oint"])
    """A formula holding one of these has differentials (``d x``) to set off with ``\\,``."""
    differential_ends: frozenset[str] = frozenset(
        ["}", "+", "-", "=", ",", ".", ";", "\\quad", "\\qquad", "\\\\", "&", ")", "]", "d"])
    """What may follow a differential's variable (or nothing: the formula's end)."""


RULES = PrintRules()

_CONTROL_WORD = re.compile(r"\\[A-Za-z]+\*?$")


def _simple(token: str) -> bool:
    """A script body that needs no braces: one letter or digit, or a control word that takes
    no argument and opens no environment."""
    if len(token) == 1:
        return token.isalnum() and token.isascii()
    return bool(_CONTROL_WORD.match(token)) and token not in ARITY


def _scripts(tokens: list[str], rules: PrintRules) -> list[str]:
    """Scripts of one simple token unbraced, superscripts of primes as primes."""
    out: list[str] = []
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if tok in ("^", "_") and i + 1 < len(tokens) and tokens[i + 1] == "{":
            end = group_end(tokens, i + 1)
            body = tokens[i + 2:end - 1]
            primes = 0
            if tok == "^" and rules.primes:
                while primes < len(body) and body[primes] == "\\prime":
                    primes += 1
            if primes:
                out.append("'" * primes)
                body = body[primes:]
                if not body:
                    i = end
                    continue
            if rules.unbraced_scripts and len(body) == 1 and _simple(body[0]):
                out.extend([tok, _Bare(body[0])])
            else:
                out.extend([tok, "{", *_scripts(body, rules), "}"])
            i = end
            continue
        out.append(tok)
        i += 1
    return out


class _Bare(str):
    """A script body printed without braces (the joiner spaces what follows it)."""


def _differentials(tokens: list[str], rules: PrintRules) -> list[str]:
    """``\\,`` before ``d x`` where a formula with an integral multiplies by a differential."""
    if not rules.differential_space or not rules.integrals & set(tokens):
        return tokens
    out: list[str] = []
    for i, tok in enumerate(tokens):
        if (tok == "d" and 0 < i and i + 1 < len(tokens)
                and len(tokens[i + 1]) == 1 and tokens[i + 1].isalpha()
                and (i + 2 == len(tokens) or tokens[i + 2] in rules.differential_ends)
                and (tokens[i - 1] in (")", "]", "}") or tokens[i - 1].endswith("'")
                     or tokens[i - 1].isalnum()
                     or isinstance(tokens[i - 1], _Bare))
                and tokens[i - 1] not in ("^", "_")):
            out.append("\\,")
        out.append(tok)
    return out


def _join(tokens: list[str]) -> str:
    parts: list[str] = []
    previous = ""
    for tok in tokens:
        # A letter, or a star (\wedge* is one name), would join a control word's name.
        joins_name = tok[:1].isalpha() or tok[:1] == "*"
        starts_word = tok[:1].isalnum() and isinstance(previous, _Bare)
        if previous and ((joins_name and _CONTROL_WORD.match(previous)) or starts_word):
            parts.append(" ")
        parts.append(tok)
        previous = tok
    return "".join(parts)


def compact(latex: str, rules: PrintRules = RULES) -> str:
    """The formula `latex` (the canon's spelling, or any LaTeX: what is not a script is kept as
    written, ``\\left(`` and ``\\tag{13}`` included) printed as a person writes it. `latex`
    itself when the printed form would read back to another canon: printing never changes
    what a formula says."""
    printed = _join(_differentials(_scripts(tokenize(latex), rules), rules))
    return printed if normalized(printed) == normalized(latex) else latex
