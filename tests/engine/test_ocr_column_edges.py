"""engine.ocr.column_edges: a line joined across a narrow gutter, inside one layout region, is
cut where the lines around show a column's left edge; a paragraph's lines are left whole."""

from __future__ import annotations

import numpy as np

from engine.ocr.column_edges import column_edge_cuts
from engine.ocr.gutters import plan_cuts
from engine.types import BlockKind, Box, Line, Region

HEIGHT = 20


def page(lines: list[Line], size: tuple[int, int] = (400, 500)) -> np.ndarray:
    """A white page with each line's box inked as word strokes (every third pixel column)."""
    image = np.full((*size, 3), 255, np.uint8)
    for line in lines:
        b = line.box
        image[int(b.y0) + 4:int(b.y1) - 4, int(b.x0):int(b.x1):3] = 20
    return image


def index_columns(rows: int = 12, joined: int = 5) -> tuple[list[Line], list[Line]]:
    """Two narrow columns of index entries 24 px apart (about a line height); row `joined` read as
    one line across both. Returns (lines, that row's two halves as they stand on the page)."""
    lines, halves = [], []
    for k in range(rows):
        y = 20 + 30 * k
        left = Line(f"entry {k} . . . {k + 10}", Box(20, y, 176 - 8 * (k % 3), y + HEIGHT))
        right = Line(f"other {k} . . . {k + 40}", Box(200, y, 380 - 8 * (k % 2), y + HEIGHT))
        if k == joined:
            halves = [left, right]
            lines.append(Line(left.text + " " + right.text, left.box.union(right.box)))
        else:
            lines += [left, right]
    return lines, halves


def test_a_line_joined_across_an_index_gutter_is_cut_in_the_gutter():
    lines, (left, right) = index_columns()
    image = page([ln for ln in lines if ln.box.width < 300] + [left, right])
    cuts = column_edge_cuts(image, lines)
    (index,) = cuts
    assert lines[index].box.width > 300
    (x,) = cuts[index]
    assert left.box.x1 <= x <= right.box.x0


def test_the_parts_hug_their_ink_so_the_gutter_stays_open():
    lines, (left, right) = index_columns()
    image = page([ln for ln in lines if ln.box.width < 300] + [left, right])
    region = [Region(BlockKind.TEXT, Box(10, 10, 390, 390))]  # one region over both columns
    (cut,) = plan_cuts(image, lines, region)
    first, second = cut.parts
    assert first.x1 <= left.box.x1 + 1 and second.x0 >= right.box.x0 - 1


def test_a_paragraph_and_a_list_with_hanging_indents_are_not_cut():
    lines = [Line(f"a full line of running text number {k}", Box(20, 20 + 30 * k, 380, 40 + 30 * k))
             for k in range(4)]
    for k in range(4, 12):  # bullets, their items' lines starting at the indent
        y = 20 + 30 * k
        if k % 2 == 0:
            lines.append(Line("•", Box(20, y, 30, y + HEIGHT)))
        lines.append(Line(f"item words {k}", Box(50, y, 380, y + HEIGHT)))
    assert column_edge_cuts(page(lines), lines) == {}


def test_a_last_word_before_the_gutter_near_the_lines_start_is_cut_off():
    """A justified row's last word ("of") read onto the next column's first line: the gutter
    lies a line height from the joined line's start, and the word is narrower than a line is
    high (a scanned newspaper, where "of" then opened the next column's paragraph)."""
    lines, _ = index_columns(joined=-1)
    word = Line("of", Box(170, 170, 184, 170 + HEIGHT))
    beside = next(ln for ln in lines if ln.box.x0 >= 200 and ln.box.y0 == 170)
    left = next(ln for ln in lines if ln.box.x0 < 200 and ln.box.y0 == 170)
    lines = [ln for ln in lines if ln is not beside and ln is not left]
    short = Line("entry", Box(20, 170, 120, 170 + HEIGHT))
    joined = Line("of " + beside.text, word.box.union(beside.box))
    lines += [short, joined]
    image = page([ln for ln in lines if ln is not joined] + [word, beside])
    region = [Region(BlockKind.TEXT, Box(10, 10, 390, 390))]
    (cut,) = plan_cuts(image, lines, region)
    first, second = cut.parts
    assert first.x0 >= 170 and first.x1 <= 185 and second.x0 >= 199
