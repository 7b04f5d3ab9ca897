"""engine.structure.line_numbers: a transcript's line-number gutter is taken out of the text;
numbered lists, equation numbers and a table's row numbers stay."""

from __future__ import annotations

import numpy as np

from engine.options import ConvertOptions
from engine.page import PageState
from engine.structure.line_numbers import line_number_gutter
from engine.structure.stage import drop_line_number_gutter
from engine.types import BlockKind, Box, Line, Region, TextSource

PITCH = 40


def transcript(rows: int = 25, first: int = 1, number_x: tuple[float, float] = (40, 60),
               text_x: tuple[float, float] = (100, 900)) -> list[Line]:
    """A deposition page: a number flush right in the left margin beside every text line."""
    lines = []
    for k in range(rows):
        y = 100 + k * PITCH
        number = str(first + k)
        width = 10 * len(number)
        lines.append(Line(number, Box(number_x[1] - width, y, number_x[1], y + 20)))
        lines.append(Line(f"Q. And where were you on the evening of day {k}?",
                          Box(text_x[0], y, text_x[1], y + 20)))
    return lines


def test_a_transcripts_line_numbers_are_found():
    lines = transcript()
    gutter = line_number_gutter(lines)
    assert sorted(lines[i].text for i in gutter) == sorted(str(n) for n in range(1, 26))


def test_a_misread_number_or_a_page_starting_later_still_counts():
    lines = transcript(first=26)
    lines[10] = Line("3l", lines[10].box)  # 31 misread: the rest of the run stands
    assert len(line_number_gutter(lines)) == 24


def test_numbers_in_the_right_margin_too():
    lines = transcript(number_x=(920, 940), text_x=(100, 880))
    assert len(line_number_gutter(lines)) == 25


def test_a_numbered_list_is_content():
    # "1." beside each item: list numbers carry a period (or parentheses), never bare.
    lines = []
    for k in range(8):
        y = 100 + k * PITCH
        lines.append(Line(f"{k + 1}.", Box(40, y, 60, y + 20)))
        lines.append(Line(f"Find the derivative of f(x) = x^{k + 2} - 3x", Box(70, y, 700, y + 20)))
    assert line_number_gutter(lines) == set()


def test_a_tables_row_numbers_are_content():
    lines = []
    for k in range(10):
        y = 100 + k * PITCH
        lines.append(Line(str(k + 1), Box(40, y, 60, y + 20)))
        for c, text in enumerate(("Maize", "12.4 t", "2019", "North")):
            x = 120 + c * 200
            lines.append(Line(text, Box(x, y, x + 90, y + 20)))
    assert line_number_gutter(lines) == set()


def test_a_few_numbered_lines_are_not_a_gutter():
    assert line_number_gutter(transcript(rows=4)) == set()


def test_numbers_that_do_not_count_up_are_not_a_gutter():
    lines = transcript(rows=10)
    shuffled = [Line(str(n), ln.box) if ln.text.isdigit() else ln
                for ln, n in zip(lines, [7, 0, 3, 0, 9, 0, 2, 0, 8, 0, 4, 0, 6, 0, 1, 0, 5, 0, 10, 0])]
    assert line_number_gutter(shuffled) == set()


def page_of(lines: list[Line], regions: tuple[Region, ...]) -> PageState:
    return PageState(document=None, page_number=1, options=ConvertOptions(),
                     image=np.full((1200, 1000, 3), 255, np.uint8), lines=tuple(lines),
                     regions=regions, text_source=TextSource.TEXT_LAYER)


def test_a_table_drawn_out_over_the_margins_numbers_is_cut_back_and_stays_a_table():
    """A draft paper numbered in the margin: the layout model's box of a table at the top of
    the column reaches into the numbers. The numbers go; the table keeps its grid."""
    lines = transcript(number_x=(940, 960), text_x=(100, 900))
    cells = [Line(word, Box(x, 100 + k * PITCH, x + 80, 120 + k * PITCH))
             for k in range(6) for x, word in ((300, "Command"), (450, "Number"), (600, "Author"))]
    body = [ln for ln in lines if ln.text.isdigit() or ln.box.y0 >= 100 + 6 * PITCH] + cells
    table = Region(BlockKind.TABLE, Box(290, 95, 980, 100 + 6 * PITCH))
    out = drop_line_number_gutter(page_of(body, (table,)), models=None)
    assert not [ln for ln in out.lines if ln.text.isdigit()]
    (region,) = out.regions
    assert region.kind is BlockKind.TABLE
    assert (region.box.x0, region.box.x1) == (300, 680)


def test_a_table_region_holding_only_numbers_is_text():
    lines = transcript()
    numbers = Region(BlockKind.TABLE, Box(30, 90, 70, 100 + 25 * PITCH))
    (region,) = drop_line_number_gutter(page_of(lines, (numbers,)), models=None).regions
    assert region.kind is BlockKind.TEXT
