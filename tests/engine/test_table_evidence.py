"""A table region needs grid evidence: two columns of prose, columns of paragraphs and a grid that
cuts through the text lines are text; ruled or wide tables stay."""

from __future__ import annotations

import numpy as np

from engine.tables.evidence import cuts_through_lines, is_prose_columns, ruled
from engine.tables.evidence_rules import TABLE_EVIDENCE
from engine.tables.recognizer import ReadCell, TableResult
from engine.types import Box, Line


def page(height=200, width=400) -> np.ndarray:
    crop = np.full((height, width, 3), 255, np.uint8)
    for y in range(20, 180, 20):  # lines of "text": short dark dashes
        for x in range(10, 390, 14):
            crop[y:y + 8, x:x + 9] = 30
    return crop


def result(texts: list[list[str]]) -> TableResult:
    cells = tuple(ReadCell(r, c, 1, 1, Box(0, 0, 1, 1), text)
                  for r, row in enumerate(texts) for c, text in enumerate(row))
    return TableResult(table=None, cells=cells, n_rows=len(texts),
                       n_cols=max(map(len, texts)), score=0.9, ok=True)


EXERCISES = [["4. Find the derivative of f(x) = x^8 - 7x + 9.", "9. Solve 4x + 6 = 8 for x."],
             ["5. Evaluate the integral of 5x from 2 to 9.", "10. Explain why a list of 5 items."]]


def test_text_has_no_ruling_lines_and_a_ruled_grid_has():
    assert not ruled(page())
    grid = page()
    grid[5:7, 10:390] = 0
    grid[190:192, 10:390] = 0
    assert ruled(grid)
    one_rule_down = page()
    one_rule_down[10:190, 200:202] = 0
    assert ruled(one_rule_down)


def test_two_columns_of_sentences_without_rules_are_text():
    assert is_prose_columns(result(EXERCISES), page())


def test_ruled_wide_or_terse_tables_stay_tables():
    ruled_page = page()
    ruled_page[5:7, 10:390] = 0
    ruled_page[190:192, 10:390] = 0
    assert not is_prose_columns(result(EXERCISES), ruled_page)
    assert not is_prose_columns(result([row + ["x"] for row in EXERCISES]), page())
    assert not is_prose_columns(result([["Yield", "4.2 t/ha"], ["Rain", "310 mm"]]), page())
    assert not is_prose_columns(TableResult.failed("unreadable"), page())


def test_a_single_column_without_rules_is_no_grid():
    capitals = [["THE AUTHOR"], ["SPECIFICALLY DISCLAIMS"], ["ANY WARRANTIES,"]]
    assert is_prose_columns(result(capitals), page())
    ruled_page = page()
    ruled_page[5:7, 10:390] = 0
    ruled_page[190:192, 10:390] = 0
    assert not is_prose_columns(result(capitals), ruled_page)



def test_an_index_or_contents_taken_for_a_table_is_text():
    from engine.tables.evidence import is_leader_list

    index = [["\\badness . . . . . . 325, 339", "\\global . . . . 262, 376", "\\if@filesw 390"],
             ["\\balance@ . . . . 1908", "H", "\\ifx . . . . . 105, 113"],
             ["\\baselineskip 75", "\\hbox . . . . 286, 550", "Contents"]]
    assert is_leader_list(result(index))
    scanned = [["Introduction........ 1", "Methods", "12"], ["Results", "..", "19"]]
    assert not is_leader_list(result(scanned))  # one leader cell is not enough
    scanned[1][1] = "Discussion ....... 24"
    assert is_leader_list(result(scanned))
    # Real tables: numbers, ellipses of three dots for omitted values, no leaders.
    table = [["Variable", "Male", "Female"], ["Age", "41 ... 60", "38.2"], ["BMI", "...", "24.1"]]
    assert not is_leader_list(result(table))
    assert not is_leader_list(TableResult.failed("unreadable"))


INDEX_LINES = ["\\DeclareOptionX . . . . 39,", "40, 41, 42, 43, 44", "\\do . . . . . . . . 84",
               "\\edef 28, 62, 85, 125", "\\egroup . . . . . . 157", "\\fnref . . . . . 3, 60"]


def test_an_index_too_large_for_the_table_model_is_text_by_its_lines():
    from engine.tables.evidence import is_leader_list

    too_large = TableResult.failed("table too large for the table model")
    assert is_leader_list(too_large, INDEX_LINES)
    assert not is_leader_list(too_large, ["Age 41 38.2", "BMI ... 24.1", "Height 170 165"])
    assert not is_leader_list(too_large)


def test_the_table_stage_turns_an_unparsable_index_into_text_and_keeps_other_failures():
    from types import SimpleNamespace

    from engine.options import ConvertOptions
    from engine.page import PageState
    from engine.tables.stage import recognize_tables
    from engine.types import BlockKind, Line, Region, TextSource

    image = np.full((400, 600, 3), 255, np.uint8)
    region = Region(BlockKind.TABLE, Box(20, 20, 580, 380), 0.9)

    class Failing:
        def recognize(self, crop, lines, cells=None):
            return TableResult.failed("table too large for the table model")

    models = SimpleNamespace(table_recognizer=Failing)

    def staged(texts):
        lines = tuple(Line(text, Box(30, 30 + 40 * i, 300, 60 + 40 * i), 0.95)
                      for i, text in enumerate(texts))
        return recognize_tables(PageState(document=None, page_number=1, options=ConvertOptions(),
                                          image=image, lines=lines, regions=(region,),
                                          text_source=TextSource.OCR), models)

    index = staged(INDEX_LINES)
    assert index.regions[0].kind is BlockKind.TEXT and not index.warnings
    table = staged(["Age 41 38.2", "BMI 22.0 24.1", "Height 170 165"])
    assert table.regions[0].kind is BlockKind.TABLE and table.warnings


def test_many_columns_of_paragraphs_without_rules_are_text():
    paragraph = " ".join(["word"] * 40)
    assert is_prose_columns(result([[paragraph] * 4]), page())
    assert not is_prose_columns(result([["12.5", "kg", "Nitrogen", "3.1 %"]] * 6), page())


def lined(x0: float, x1: float, y: float, words: int = 6) -> Line:
    return Line(" ".join(["word"] * words), Box(x0, y, x1, y + 10))


def grid(n_cols: int, col_width: float, n_rows: int, row_height: float) -> TableResult:
    cells = tuple(ReadCell(r, c, 1, 1, Box(c * col_width, r * row_height, (c + 1) * col_width,
                                             (r + 1) * row_height), "word word")
                  for r in range(n_rows) for c in range(n_cols))
    return TableResult(table=None, cells=cells, n_rows=n_rows, n_cols=n_cols,
                       score=0.9, ok=True)


def test_a_grid_cutting_through_the_text_lines_is_no_table():
    # Newspaper columns 200 px wide, each split by the table model into two cells of 100 px.
    table = grid(4, 100, 12, 12)
    columns = [lined(0, 195, 12 * r + 1) for r in range(12)] + [
        lined(205, 395, 12 * r + 1) for r in range(12)]
    assert cuts_through_lines(table, columns)
    # The same grid with each line inside one cell: a table.
    in_cells = [lined(100 * c + 5, 100 * c + 95, 12 * r + 1) for r in range(12) for c in range(4)]
    assert not cuts_through_lines(table, in_cells)
    # Too few lines to be evidence either way.
    assert not cuts_through_lines(table, columns[:TABLE_EVIDENCE.cut_min_lines - 1])
    assert not cuts_through_lines(TableResult.failed("unreadable"), columns)
