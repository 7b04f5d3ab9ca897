"""Display formulas once, numbered, without item numbers: the page's formula blocks tidied.

Three faults seen on real pages, each mended from the blocks alone:
* the same equation read twice, once by the layout model's region and once by the loose-line
  grouping or a second region beside the first: one reading is kept (the one with its number);
  a row of a formula of several rows read again as a formula of its own (an align's second
  numbered row): the row leaves the first, each keeps its number;
* an equation number left as a paragraph of its own ("(15)", "(2.13)", "(A.1)") beside or just
  under its formula: it becomes the formula's ``\\tag{}``;
* an exercise number or label read into the formula ("150. s(t) = ...", "(a) \\quad x = 1"):
  it is text before the formula, not LaTeX; an exercise list read as one array whose rows
  open "150." "151." is one label and formula per row.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from engine.content.formulas import Formula
from engine.formulas.latex_print import compact
from engine.formulas.latex_tokens import detokenize, group_end, normalized
from engine.page import PageState
from engine.types import Block, BlockKind, Box

NUMBER_PARAGRAPH = re.compile(r"^\(\s*((?:[A-Z]\.)?\d{1,3}(?:\.\d{1,3})?[a-z]?)\s*\)$")
_SPACING = frozenset(["\\quad", "\\qquad", "\\;", "\\:", "\\,", "~", "\\ "])
_LAYOUT_ARGUMENT = frozenset(["array", "tabular", "alignedat", "subarray"])
# After "(a)" these make it part of the formula ("(a)_n", "(a)=b", "(n)!", "(1)+(2)"), not a
# label.
_JOINING = frozenset(["_", "^", "'", "!", "/", ".", ",", "+", "-", "=", "<", ">", ")", "]",
                      "\\cdot", "\\times", "\\leq", "\\geq", "\\neq", "\\in", "\\to",
                      "\\approx", "\\equiv", "\\sim", "&"])


@dataclass(frozen=True)
class DisplayRules:
    number_reach: float = 1.5
    """How far (in the formula's heights) above or below a formula's middle a lone number may
    stand and still be its number."""
    duplicate_gap: float = 1.0
    """Two equal readings no further apart than this (in the taller one's heights) are one
    formula read twice."""


RULES = DisplayRules()


def _latex(block: Block) -> str:
    """A formula block's LaTeX ("" for any other block, or a formula not read)."""
    return block.formula.latex if block.kind is BlockKind.FORMULA and block.formula else ""


def _canon(formula: Formula) -> tuple[str, ...]:
    return tuple(normalized(formula.untagged))


def _with_latex(block: Block, latex: str, **changes) -> Block:
    """The formula block with new LaTeX, its confidence and guard kept."""
    return replace(block, formula=replace(block.formula, latex=latex), **changes)


def _near(a: Box, b: Box, reach: float) -> bool:
    gap = max(a.y0, b.y0) - min(a.y1, b.y1)
    return gap <= reach * max(a.height, b.height, 1.0)


def one_reading(blocks: list[Block], rules: DisplayRules = RULES) -> list[Block]:
    """A formula read twice (equal canon, apart from its tag, and next to each other) once."""
    kept: list[Block] = []
    for block in blocks:
        if _latex(block):
            twin = next((i for i, other in enumerate(kept) if _latex(other)
                         and _canon(other.formula) == _canon(block.formula)
                         and _near(other.box, block.box, rules.duplicate_gap)), None)
            if twin is not None:
                if block.formula.tag and not kept[twin].formula.tag:
                    kept[twin] = replace(block, box=kept[twin].box.union(block.box))
                continue
        kept.append(block)
    return kept


def _row_key(tokens: list[str]) -> list[str]:
    return [t for t in tokens if t != "&" and t not in _SPACING]


def _environment(opening: list[str], rows: list[list[str]], closing: list[str]) -> list[str]:
    """Rows put back in their environment; one row without alignment points stands alone."""
    if len(rows) == 1 and "&" not in rows[0]:
        return rows[0]
    return [*opening, *[t for row in rows for t in (*row, "\\\\")][:-1], *closing]


def rows_once(blocks: list[Block], rules: DisplayRules = RULES) -> list[Block]:
    """A one-row formula next to a formula of several rows, one of which reads the same: that
    row leaves the formula of several rows (an align whose numbered rows were read as a whole
    and its last row once more, each keeps its own number)."""
    blocks = list(blocks)
    for index, single in enumerate(blocks):
        if not _latex(single):
            continue
        key = _row_key(normalized(single.formula.untagged))
        if not key or _rows(normalized(single.formula.untagged)) is not None:
            continue
        for other_index, other in enumerate(blocks):
            split = _rows(normalized(other.formula.untagged)) \
                if _latex(other) and other_index != index else None
            if split is None or len(split[1]) < 2 \
                    or not _near(other.box, single.box, rules.duplicate_gap):
                continue
            opening, rows, closing = split
            kept = [row for row in rows if _row_key(row) != key]
            if kept and len(kept) < len(rows):
                tag = other.formula.tag
                latex = compact(detokenize(_environment(opening, kept, closing)))
                blocks[other_index] = _with_latex(other, latex + (f"\\tag{{{tag}}}" if tag
                                                                  else ""))
    return blocks


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
                      if _latex(f) and not f.formula.tag
                      and abs((f.box.y0 + f.box.y1) / 2 - middle)
                      <= rules.number_reach * max(f.box.height, block.box.height)]
        if not candidates:
            continue
        target = min(candidates)[1]
        formula = blocks[target]
        blocks[target] = _with_latex(formula, f"{_latex(formula)}\\tag{{{match.group(1)}}}",
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
          and (tokens[3] in _SPACING or tokens[3] not in _JOINING
               and not tokens[3].isdigit())):
        end = 3
    else:
        return 0
    while end < len(tokens) and tokens[end] in _SPACING:
        end += 1
    return end if end < len(tokens) else 0


def _rows(tokens: list[str]) -> tuple[list[str], list[list[str]], list[str]] | None:
    """A formula that is one environment split into its opening (begin and column layout),
    its rows and its closing; None for any other formula."""
    if len(tokens) < 3 or not tokens[0].startswith("\\begin{") \
            or not tokens[-1].startswith("\\end{"):
        return None
    start = 1
    if tokens[0][7:].rstrip("}*") in _LAYOUT_ARGUMENT and tokens[1] == "{":
        start = group_end(tokens, 1)
    rows: list[list[str]] = [[]]
    depth = 0
    for token in tokens[start:-1]:
        depth += (token == "{" or token.startswith("\\begin{")) \
            - (token == "}" or token.startswith("\\end{"))
        if token == "\\\\" and depth == 0:
            rows.append([])
        else:
            rows[-1].append(token)
        if depth < 0:
            return None
    return tokens[:start], rows, tokens[-1:]


def _row_band(box: Box, first: int, last: int, count: int) -> Box:
    """Rows ``first`` to ``last`` of ``count`` rows set evenly in ``box``."""
    step = box.height / count
    return Box(box.x0, box.y0 + first * step, box.x1, box.y0 + (last + 1) * step)


def _labelled_rows(block: Block, tag: str) -> list[Block] | None:
    """An environment whose first row opens with an item number (an exercise list read as one
    array): each numbered row, with the unnumbered rows under it, a label and a formula."""
    split = _rows(normalized(block.formula.untagged))
    if split is None or len(split[1]) < 2 or not _label(split[1][0]):
        return None
    opening, rows, closing = split
    items: list[tuple[int, int, str, list[list[str]]]] = []
    for index, row in enumerate(rows):
        cut = _label(row)
        if cut:
            label = "".join(t for t in row[:cut] if t not in _SPACING)
            items.append((index, index, label, [row[cut:]]))
        else:
            first, _, label, kept = items[-1]
            items[-1] = (first, index, label, [*kept, row])
    out: list[Block] = []
    for number, (first, last, label, kept) in enumerate(items, start=1):
        box = _row_band(block.box, first, last, len(rows))
        body = _environment(opening, kept, closing)
        lines = tuple(line for line in block.lines if box.y0 <= line.box.center_y < box.y1)
        latex = compact(detokenize(body)) + (f"\\tag{{{tag}}}" if tag and number == len(items)
                                             else "")
        out.append(Block(BlockKind.TEXT, box, (), label, block.score))
        out.append(_with_latex(block, latex, box=box, lines=lines,
                               text=" ".join(line.text for line in lines)))
    return out


def labels_as_text(blocks: list[Block]) -> list[Block]:
    """A formula whose LaTeX begins with an item number: the number as text before it (each
    row's, when the rows of one environment are numbered items)."""
    out: list[Block] = []
    for block in blocks:
        if _latex(block):
            tag = block.formula.tag
            items = _labelled_rows(block, tag)
            if items is not None:
                out.extend(items)
                continue
            tokens = normalized(block.formula.untagged)
            cut = _label(tokens)
            if cut:
                label = "".join(t for t in tokens[:cut] if t not in _SPACING)
                out.append(Block(BlockKind.TEXT, block.box, (), label, block.score))
                latex = compact(detokenize(tokens[cut:])) + (f"\\tag{{{tag}}}" if tag else "")
                block = _with_latex(block, latex)
        out.append(block)
    return out


def tidy_display_math(page: PageState, models) -> PageState:
    if not any(b.kind is BlockKind.FORMULA for b in page.blocks):
        return page
    blocks = labels_as_text(numbers_as_tags(rows_once(one_reading(list(page.blocks)))))
    return page if blocks == list(page.blocks) else replace(page, blocks=tuple(blocks))
