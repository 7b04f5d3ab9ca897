"""Line-number gutters: the 1, 2, 3 ... printed beside each line of a transcript, a legal
pleading, a code listing or a poem. They number the page's lines, they are not its text: left
in, they become a column of their own (read before or after the text, or taken for a table's
first column). They are recognised by what they are (a run of lines holding only a small
number, one above the other in a narrow column, counting up by one, each beside a line of
text) and taken out of the text."""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from engine.types import Line

# Bare numbers: "12." or "(12)" beside a line is a list item or an equation number, content.
_NUMBER = re.compile(r"^\s*(\d{1,4})\s*$")


@dataclass(frozen=True)
class LineNumberRules:
    """A line-number gutter's thresholds, one frozen set (STYLE habit 20), used here and by the
    line_numbers stage (engine/structure/stage.py), which cuts a table region back when it holds
    a run of them."""

    min_run: int = 5
    """At least this many numbered lines make a gutter: a short list of figures ("1", "2", "3"
    in a table's first column) is not one."""
    min_step_share: float = 0.7
    """Of the steps between neighbouring numbers (top to bottom), this share must be exactly +1
    (a misread digit or a skipped blank line leaves the rest of the run standing)."""
    align_heights: float = 1.0
    """The numbers' left or right edges line up within this many line heights."""
    min_text_width_share: float = 0.35
    """The text beside a line number is a line of running text, at least this share of the
    width the page's lines cover: a table's row numbers stand beside cells, which are
    narrower."""


LINE_NUMBERS = LineNumberRules()


def line_number_gutter(lines: list[Line], rules: LineNumberRules = LINE_NUMBERS) -> set[int]:
    """Indices (into `lines`) of the lines that are numbers in a line-number gutter."""
    numbered = [(i, int(m.group(1))) for i, line in enumerate(lines)
                if (m := _NUMBER.match(line.text)) and not line.vertical]
    if len(numbered) < rules.min_run:
        return set()
    height = float(np.median([lines[i].box.height for i, _ in numbered]))
    span = max(ln.box.x1 for ln in lines) - min(ln.box.x0 for ln in lines)
    min_width = rules.min_text_width_share * span
    found: set[int] = set()
    for column in _aligned_columns(lines, numbered, height, rules):
        column.sort(key=lambda item: lines[item[0]].box.center_y)
        steps = [b - a for (_, a), (_, b) in zip(column, column[1:])]
        counting = sum(s == 1 for s in steps) >= rules.min_step_share * len(steps)
        if len(column) < rules.min_run or not counting:
            continue
        beside = sum(_has_text_beside(lines, i, min_width) for i, _ in column)
        if beside >= rules.min_step_share * len(column):
            found.update(i for i, _ in column)
    return found


def _aligned_columns(lines: list[Line], numbered: list[tuple[int, int]], height: float,
                     rules: LineNumberRules = LINE_NUMBERS) -> list[list[tuple[int, int]]]:
    """Numbered lines grouped by a shared right edge (numbers are set flush right in their
    gutter) or, failing that, a shared left edge."""
    columns: list[list[tuple[int, int]]] = []
    for item in sorted(numbered, key=lambda it: lines[it[0]].box.x1):
        box = lines[item[0]].box
        for column in columns:
            ref = lines[column[0][0]].box
            if abs(ref.x1 - box.x1) <= rules.align_heights * height or \
                    abs(ref.x0 - box.x0) <= rules.align_heights * height:
                column.append(item)
                break
        else:
            columns.append([item])
    return columns


def _has_text_beside(lines: list[Line], index: int, min_width: float) -> bool:
    """Whether a line of running text shares this number's row, to its right or left."""
    box = lines[index].box
    for j, other in enumerate(lines):
        if j == index or _NUMBER.match(other.text) or other.box.width < min_width:
            continue
        ob = other.box
        overlap = min(box.y1, ob.y1) - max(box.y0, ob.y0)
        if overlap >= 0.5 * min(box.height, ob.height) and (ob.x0 >= box.x1 - 1 or ob.x1 <= box.x0 + 1):
            return True
    return False
