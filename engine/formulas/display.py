"""Display formulas once, numbered, without item numbers: the page's formula blocks tidied.

Three faults seen on real pages, each mended from the blocks alone:
* the same equation read twice, once by the layout model's region and once by the loose-line
  grouping or a second region beside the first: one reading is kept (the one with its number);
* an equation number left as a paragraph of its own ("(15)", "(2.13)", "(A.1)") beside or just
  under its formula: it becomes the formula's ``\\tag{}``;
* an exercise number or label read into the formula ("150. s(t) = ...", "(a) \\quad x = 1"):
  it is text before the formula, not LaTeX.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from engine.formulas.latex_print import compact
from engine.formulas.latex_tokens import detokenize, normalized
from engine.page import PageState
from engine.types import Block, BlockKind, Box

NUMBER_PARAGRAPH = re.compile(r"^\(\s*((?:[A-Z]\.)?\d{1,3}(?:\.\d{1,3})?[a-z]?)\s*\)$")
_TAG = re.compile(r"\\tag\s*\{([^{}]*)\}")
_SPACING = frozenset(["\\quad", "\\qquad", "\\;", "\\:", "\\,", "~", "\\ "])


@dataclass(frozen=True)
class DisplayRules:
    number_reach: float = 1.5
    """How far (in the formula's heights) above or below a formula's middle a lone number may
    stand and still be its number."""
    duplicate_gap: float = 1.0
    """Two equal readings no further apart than this (in the taller one's heights) are one
    formula read twice."""


RULES = DisplayRules()


def _canon(latex: str) -> tuple[str, ...]:
    return tuple(normalized(_TAG.sub("", latex)))


def _tag(latex: str) -> str:
    match = _TAG.search(latex)
    return match.group(1) if match else ""


def _near(a: Box, b: Box, reach: float) -> bool:
    gap = max(a.y0, b.y0) - min(a.y1, b.y1)
    return gap <= reach * max(a.height, b.height, 1.0)


def one_reading(blocks: list[Block], rules: DisplayRules = RULES) -> list[Block]:
    """A formula read twice (equal canon, apart from its tag, and next to each other) once."""
    kept: list[Block] = []
    for block in blocks:
        if block.kind is BlockKind.FORMULA and block.latex:
            twin = next((i for i, other in enumerate(kept) if other.kind is BlockKind.FORMULA
                         and other.latex and _canon(other.latex) == _canon(block.latex)
                         and _near(other.box, block.box, rules.duplicate_gap)), None)
            if twin is not None:
                if _tag(block.latex) and not _tag(kept[twin].latex):
                    kept[twin] = replace(block, box=kept[twin].box.union(block.box))
                continue
        kept.append(block)
    return kept


def numbers_as_tags(blocks: list[Block], rules: DisplayRules = RULES) -> list[Block]:
    """A paragraph that is only an equation number becomes the \\tag of the formula it stands
    beside (or just under), when that formula has none."""
    blocks = list(blocks)
    for index in range(len(blocks) - 1, -1, -1):
        block = blocks[index]
        match = NUMBER_PARAGRAPH.match(block.text.strip()) if block.kind is BlockKind.TEXT \
            else None
        if not match:
            continue
        middle = (block.box.y0 + block.box.y1) / 2
        candidates = [(abs((f.box.y0 + f.box.y1) / 2 - middle), i) for i, f in enumerate(blocks)
                      if f.kind is BlockKind.FORMULA and f.latex and not _tag(f.latex)
                      and abs((f.box.y0 + f.box.y1) / 2 - middle)
                      <= rules.number_reach * max(f.box.height, block.box.height)]
        if not candidates:
            continue
        target = min(candidates)[1]
        formula = blocks[target]
        blocks[target] = replace(formula, latex=f"{formula.latex}\\tag{{{match.group(1)}}}",
                                 box=formula.box.union(block.box))
        del blocks[index]
    return blocks


def _label(tokens: list[str]) -> int:
    """How many leading tokens of a formula are an item number or label ("1 5 0 ." or
    "( a )" followed by spacing), 0 when none."""
    i = 0
    while i < len(tokens) and tokens[i].isdigit():
        i += 1
    if 0 < i <= 4 and i + 1 < len(tokens) and tokens[i] == "." and not tokens[i + 1].isdigit():
        end = i + 1
    elif (len(tokens) > 4 and tokens[0] == "(" and tokens[2] == ")"
          and (tokens[1].isdigit() or (len(tokens[1]) == 1 and tokens[1].isalpha()))
          and tokens[3] in _SPACING):
        end = 3
    else:
        return 0
    while end < len(tokens) and tokens[end] in _SPACING:
        end += 1
    return end if end < len(tokens) else 0


def labels_as_text(blocks: list[Block]) -> list[Block]:
    """A formula whose LaTeX begins with an item number: the number as text before it."""
    out: list[Block] = []
    for block in blocks:
        if block.kind is BlockKind.FORMULA and block.latex:
            tag = _tag(block.latex)
            tokens = normalized(_TAG.sub("", block.latex))
            cut = _label(tokens)
            if cut:
                label = "".join(t for t in tokens[:cut] if t not in _SPACING)
                out.append(Block(BlockKind.TEXT, block.box, (), label, block.score))
                latex = compact(detokenize(tokens[cut:])) + (f"\\tag{{{tag}}}" if tag else "")
                block = replace(block, latex=latex)
        out.append(block)
    return out


def tidy_display_math(page: PageState, models) -> PageState:
    if not any(b.kind is BlockKind.FORMULA for b in page.blocks):
        return page
    blocks = labels_as_text(numbers_as_tags(one_reading(list(page.blocks))))
    return page if blocks == list(page.blocks) else replace(page, blocks=tuple(blocks))
