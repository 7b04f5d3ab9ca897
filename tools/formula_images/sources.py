"""What the generated images show: formulas from the training corpus (never an evaluation truth)
and text (CPython's docstrings and source, PSF License 2.0, read from the running interpreter).

Single-line formulas come from the corpus's validation split (tools/formula/corpus.py), which the
shipped model never trained on, so its confidence on them is what a user's unseen formula gets.
The split holds few multi-line formulas other than `array`, so aligned, cases, matrices and
gathered lines are also taken from the rest of the corpus and built from validation formulas
(two or three of them stacked in `aligned`, `cases`, `gathered`; short ones as matrix entries)."""

from __future__ import annotations

import inspect
import random
import re
from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path

from engine.formulas.latex_tokens import normalized
from tools.formula.corpus import DEFAULT_CORPUS, canonical_key, split_of
from tools.formula.render import SOURCE_WEIGHTS

MAX_SINGLE_TOKENS = 90
MAX_MULTI_TOKENS = 140
MIN_TOKENS = 4
MAX_SOURCE_CHARS = 500
# Environments a user pastes as one formula; others (minipage, eqnarray with \label, ...) are not
# drawn.
MULTI_ENVIRONMENTS = ("aligned", "cases", "matrix", "pmatrix", "bmatrix", "vmatrix", "gathered",
                      "array", "split", "smallmatrix")
STRUCTURES = ("aligned", "cases", "matrix", "gathered", "array")
_ENV = re.compile(r"\\begin\{(\w+)\}")


@dataclass(frozen=True)
class Formula:
    latex: str
    structure: str
    """"single", or the multi-line structure: one of STRUCTURES."""
    source: str
    """The corpus file it comes from, "built" for one stacked from validation formulas."""


def _structure(env: str) -> str:
    if env in ("pmatrix", "bmatrix", "vmatrix", "matrix", "smallmatrix"):
        return "matrix"
    return "aligned" if env == "split" else env


class FormulaPool:
    """Corpus formulas in a seeded order, drawn one at a time (a render that fails draws the
    next). `excluded` holds canonical keys (tools.formula.corpus.canonical_key) never drawn:
    the evaluation truths."""

    def __init__(self, seed: int, excluded: Collection[str], corpus: Path = DEFAULT_CORPUS):
        self.rng = random.Random(seed)
        self.excluded = frozenset(excluded)
        lines = [(path.stem, line.strip()) for path in sorted(corpus.glob("*.txt"))
                 for line in path.read_text(encoding="utf-8").splitlines()
                 if line.strip() and len(line) <= MAX_SOURCE_CHARS]
        if not lines:
            raise FileNotFoundError(f"no formula corpus (*.txt) in {corpus}")
        self.rng.shuffle(lines)
        # Each source in the share training renders give it (tools/formula/render.py), not in
        # its share of the corpus (half of it is the Stacks Project).
        counts = Counter(source for source, _ in lines)
        total_weight = sum(SOURCE_WEIGHTS.get(s, 1) for s in counts)
        share = {s: SOURCE_WEIGHTS.get(s, 1) / total_weight * len(lines) / n
                 for s, n in counts.items()}
        top = max(share.values())
        self._lines = iter([(s, line) for s, line in lines
                            if self.rng.random() < share[s] / top])
        self._seen: set[str] = set()
        self.singles: list[Formula] = []
        self.multis: dict[str, list[Formula]] = {s: [] for s in STRUCTURES}
        self._short: list[Formula] = []

    def _fill(self) -> None:
        """Reads corpus lines until another single-line formula is found."""
        for source, line in self._lines:
            tokens = normalized(line)
            key = " ".join(tokens)
            if not tokens or key in self._seen or key in self.excluded:
                continue
            self._seen.add(key)
            envs = _ENV.findall(line)
            validation = split_of(tokens) == "val"
            if "\\\\" in line or envs:
                if (len(envs) == 1 and envs[0] in MULTI_ENVIRONMENTS and "\\\\" in line
                        and len(tokens) <= MAX_MULTI_TOKENS
                        and (validation or envs[0] != "array")):
                    self.multis[_structure(envs[0])].append(Formula(line, _structure(envs[0]),
                                                                    source))
                continue
            if validation and MIN_TOKENS <= len(tokens) <= MAX_SINGLE_TOKENS:
                formula = Formula(line, "single", source)
                if len(tokens) <= 14 and "\\label" not in line:
                    self._short.append(formula)
                self.singles.append(formula)
                return
        raise RuntimeError("the formula corpus ran out of unseen formulas")

    def single(self) -> Formula:
        if not self.singles:
            self._fill()
        return self.singles.pop()

    def short_piece(self) -> str:
        while len(self._short) < 4:
            self._fill()
        return self._short.pop(self.rng.randrange(len(self._short))).latex

    def multi(self) -> Formula:
        """A multi-line formula of a structure drawn evenly; half of them built."""
        structure = self.rng.choice(STRUCTURES)
        pool = self.multis[structure]
        if pool and self.rng.random() < 0.5:
            return pool.pop()
        return self._built(structure)

    def _built(self, structure: str) -> Formula:
        rows = self.rng.randint(2, 3)
        pieces = [self.short_piece() for _ in range(rows)]
        if structure == "aligned":
            body = " \\\\ ".join(p.replace("=", "&=", 1) if "=" in p else "&" + p for p in pieces)
            latex = f"\\begin{{aligned}} {body} \\end{{aligned}}"
        elif structure == "cases":
            conditions = ["x > 0", "x \\leq 0", "n \\text{ even}", "\\text{otherwise}", "t < T",
                          "i = j", "i \\neq j", "|x| < 1"]
            body = " \\\\ ".join(f"{p}, & {self.rng.choice(conditions)}" for p in pieces)
            name = self.rng.choice(["f(x)", "u(t)", "\\delta_{ij}", "P_n", "g(x, y)"])
            latex = f"{name} = \\begin{{cases}} {body} \\end{{cases}}"
        elif structure == "gathered":
            body = " \\\\ ".join(pieces)
            latex = f"\\begin{{gathered}} {body} \\end{{gathered}}"
        else:  # matrix, array: entries are short symbols
            cols = self.rng.randint(2, 3)
            entries = ["a", "b", "0", "1", "-1", "x", "\\lambda", "\\alpha_1", "e^{i\\theta}",
                       "\\cos\\theta", "\\sin\\theta", "\\frac{1}{2}", "c_{12}", "y^2", "k"]
            body = " \\\\ ".join(" & ".join(self.rng.choice(entries) for _ in range(cols))
                                 for _ in range(rows))
            if structure == "matrix":
                env = self.rng.choice(["pmatrix", "bmatrix", "vmatrix"])
                latex = f"\\begin{{{env}}} {body} \\end{{{env}}}"
            else:
                latex = (f"\\left( \\begin{{array}}{{{'c' * cols}}} {body} \\end{{array}} "
                         "\\right)")
            name = self.rng.choice(["A", "M", "R(\\theta)", "U", "J"])
            latex = f"{name} = {latex}"
        if canonical_key(latex) in self.excluded:
            return self._built(structure)
        return Formula(latex, structure, "built")


# ----------------------------------------------------------------------------------------------
# Text


CODE_MODULES = ("textwrap", "fractions", "statistics", "shlex", "calendar", "heapq", "bisect",
                "colorsys", "difflib", "fnmatch", "ipaddress", "json.decoder", "string")


@dataclass(frozen=True)
class TextSource:
    paragraphs: tuple[str, ...]
    titles: tuple[str, ...]
    code: tuple[str, ...]
    """Source lines of CPython's pure-Python modules, left-trimmed per snippet later."""

    def words(self, rng: random.Random, count: int) -> str:
        words = rng.choice(self.paragraphs).split()
        start = rng.randrange(max(1, len(words) - count))
        return " ".join(words[start:start + count]).strip(".,;:")

    def sentence(self, rng: random.Random) -> str:
        sentences = re.split(r"(?<=[.])\s+", rng.choice(self.paragraphs))
        return rng.choice(sentences)

    def code_snippet(self, rng: random.Random, lines: int) -> list[str]:
        start = rng.randrange(len(self.code) - lines)
        snippet = [line.rstrip() for line in self.code[start:start + lines]]
        indent = min((len(s) - len(s.lstrip()) for s in snippet if s.strip()), default=0)
        return [s[indent:] for s in snippet]


def load_text() -> TextSource:
    import importlib

    from tools.structure.text_source import load_prose

    prose = load_prose()
    code: list[str] = []
    for name in CODE_MODULES:
        source = inspect.getsource(importlib.import_module(name))
        code.extend(line for line in source.splitlines()
                    if line.strip() and not line.lstrip().startswith("#") and len(line) < 90
                    and line.isascii())
    return TextSource(prose.paragraphs, prose.titles, tuple(code))
