"""Display formulas the layout model missed: math-like lines outside every layout region.

A page's text layer (or OCR) gives a display formula as scattered pieces: "e iπ + 1 = 0", or an
integral as three lines ("b", "∫ f(x) dx = F(b) − F(a)", "a"). When no layout region covers
them they would come out as short paragraphs of broken text. Lines that hold math signs, with
the short pieces around them (limits, exponents, fraction parts), are grouped by proximity; a
group becomes a formula region only if the formula model reads it confidently as math. Groups
are made by proximity, so two equations stacked close together can land in one; when its ink
falls into separate lines (engine/formulas/line_split.py) each line is a candidate of its own.
A group that shares ink with a formula region of the layout model is that formula: the two
merge into one region (`shared_ink`), read once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from engine.formulas.image_rule import on_light_paper
from engine.formulas.line_split import formula_lines
from engine.imaging import INK, InkRules, ink_map
from engine.types import Box, Line

MATH_SIGNS = re.compile(
    "[=+<>^±×÷≤≥≠≈≡∝∞∫∬∮∑∏√∇∂→←↔⇒⇔∈∉⊂⊆⊃⊇∪∩⋅·∘−′α-ωΑ-Ωϕϑϵ]")
_PROSE_WORD = re.compile(r"[^\W\d_]{4,}")


@dataclass(frozen=True)
class LooseMathRules:
    """Loose math lines' thresholds, one frozen set (STYLE habit 20), used here and by the
    math_lines stage (engine/formulas/stage.py)."""

    max_prose_words: int = 2
    """A math line holds at most this many words of four letters or more."""
    piece_chars: int = 3
    """A line this short (a limit, an exponent, a denominator) joins a group but starts none."""
    near_across: float = 1.0
    """Lines are near when they overlap once grown sideways by this many line heights (an
    integral sign a space away from its integrand)..."""
    near_up_down: float = 0.6
    """...and up and down by this many (limits, exponents)."""
    min_shared_ink: float = 0.2
    """Two boxes hold the same formula when this share of the ink of the one with less ink lies
    inside both: the same glyphs, not just boxes that touch over blank paper."""


LOOSE_MATH = LooseMathRules()


def is_math_line(line: Line, rules: LooseMathRules = LOOSE_MATH) -> bool:
    text = line.text.strip()
    return (bool(MATH_SIGNS.search(text))
            and len(_PROSE_WORD.findall(text)) <= rules.max_prose_words and not line.vertical)


def is_piece(line: Line, rules: LooseMathRules = LOOSE_MATH) -> bool:
    text = line.text.replace("\u200b", "").strip()
    return 0 < len(text) <= rules.piece_chars and not line.vertical


def _near(a: Box, b: Box, rules: LooseMathRules = LOOSE_MATH) -> bool:
    """Boxes that overlap once each grows by the smaller line height sideways and up and down
    (`near_across`, `near_up_down`)."""
    height = min(a.y1 - a.y0, b.y1 - b.y0)
    px, py = rules.near_across * height, rules.near_up_down * height
    return a.x0 - px < b.x1 and b.x0 - px < a.x1 and a.y0 - py < b.y1 and b.y0 - py < a.y1


def math_groups(lines: list[Line], covered: list[Box],
                rules: LooseMathRules = LOOSE_MATH) -> list[Box]:
    """Boxes of groups of nearby math-like lines that no region in `covered` holds."""
    def free(line: Line) -> bool:
        return line.box.area > 0 and all(line.box.share_inside(box) < 0.5 for box in covered)

    candidates = [ln for ln in lines
                  if free(ln) and (is_math_line(ln, rules) or is_piece(ln, rules))]
    parent = list(range(len(candidates)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, a in enumerate(candidates):
        for j in range(i + 1, len(candidates)):
            if _near(a.box, candidates[j].box, rules):
                parent[find(i)] = find(j)
    groups: dict[int, list[Line]] = {}
    for i, line in enumerate(candidates):
        groups.setdefault(find(i), []).append(line)
    boxes = []
    for members in groups.values():
        if not any(is_math_line(ln, rules) for ln in members):
            continue
        box = members[0].box
        for line in members[1:]:
            box = box.union(line.box)
        boxes.append(box)
    return boxes


def display_lines(group: Box, crop: np.ndarray, origin: tuple[int, int]) -> list[Box]:
    """The group's lines as page boxes (`crop` is the group's pixels, its top-left corner at
    `origin` on the page), or the group itself when it is one line."""
    ink = ink_map(on_light_paper(crop))
    lines = formula_lines(ink) if ink is not None else None
    if lines is None:
        return [group]
    x, y = origin
    return [Box(x + band.x0, y + band.y0, x + band.x1, y + band.y1) for band in lines.bands]


def shared_ink(image: np.ndarray, a: Box, b: Box, rules: InkRules = INK) -> float:
    """The share of the ink inside `a` or `b` (whichever holds less) that lies inside both."""
    ix0, iy0, ix1, iy1 = max(a.x0, b.x0), max(a.y0, b.y0), min(a.x1, b.x1), min(a.y1, b.y1)
    if ix0 >= ix1 or iy0 >= iy1:
        return 0.0
    union = a.union(b)
    ox, oy = max(0, int(union.x0)), max(0, int(union.y0))
    ink = ink_map(on_light_paper(image[oy:int(np.ceil(union.y1)), ox:int(np.ceil(union.x1))]))
    if ink is None:
        return 0.0
    inked = ink > rules.level

    def count(x0: float, y0: float, x1: float, y1: float) -> int:
        return int(inked[max(0, int(y0) - oy):max(0, int(np.ceil(y1)) - oy),
                         max(0, int(x0) - ox):max(0, int(np.ceil(x1)) - ox)].sum())

    least = min(count(a.x0, a.y0, a.x1, a.y1), count(b.x0, b.y0, b.x1, b.y1))
    return count(ix0, iy0, ix1, iy1) / least if least else 0.0
