"""Table parsing and TEDS on small tables whose edit distance is known by hand."""

import pytest

from tools.eval.tables import (
    first_table_html,
    html_tables,
    markdown_table_to_html,
    pipe_tables,
    place_cells,
)
from tools.eval.teds import TableNode, teds, teds_structure, tree_edit_distance

TRUTH = "<table><tr><td>a</td><td>b</td></tr><tr><td>cat</td><td>d</td></tr></table>"
# Tree: table > tbody > (tr > td td) (tr > td td): 8 nodes.


def test_teds_identical_and_empty():
    assert teds(TRUTH, TRUTH) == 1.0
    assert teds("", "") == 1.0
    assert teds("no table at all", TRUTH) == 0.0
    assert teds(TRUTH, "") == 0.0


def test_teds_cell_text_costs_normalised_edit_distance():
    pred = TRUTH.replace("cat", "car")
    assert teds(pred, TRUTH) == pytest.approx(1 - (1 / 3) / 8)
    assert teds_structure(pred, TRUTH) == 1.0


def test_teds_missing_row_costs_its_nodes():
    pred = "<table><tr><td>a</td><td>b</td></tr></table>"
    assert teds(pred, TRUTH) == pytest.approx(1 - 3 / 8)


def test_teds_span_change_is_a_full_rename():
    pred = '<table><tr><td>a</td><td>b</td></tr><tr><td colspan="2">cat d</td></tr></table>'
    # Rename the spanning cell (different colspan: cost 1) and delete one td (cost 1).
    assert teds(pred, TRUTH) == pytest.approx(1 - 2 / 8)
    assert teds_structure(pred, TRUTH) == pytest.approx(1 - 2 / 8)


def test_th_and_implicit_tbody_read_like_td_and_tbody():
    pred = (
        "<table><tbody><tr><th>a</th><td>b</td></tr>"
        "<tr><td>cat</td><td>d</td></tr></tbody></table>"
    )
    assert teds(pred, TRUTH) == 1.0


def test_tree_edit_distance_insertion_in_the_middle():
    def row(*texts):
        return TableNode("tr", children=[TableNode("td", t) for t in texts])

    short = TableNode("table", children=[TableNode("tbody", children=[row("a"), row("c")])])
    long = TableNode(
        "table", children=[TableNode("tbody", children=[row("a"), row("b"), row("c")])]
    )
    assert tree_edit_distance(short, long) == 2
    assert tree_edit_distance(long, short) == 2


def test_markdown_table_to_html_puts_header_in_thead():
    markdown = "text before\n\n| a | **b** |\n|---|:-:|\n| 1 | x \\| y |\n\nafter"
    assert markdown_table_to_html(markdown) == (
        "<table><thead><tr><td>a</td><td>b</td></tr></thead>"
        "<tbody><tr><td>1</td><td>x | y</td></tr></tbody></table>"
    )
    assert markdown_table_to_html("no table") == ""


def test_teds_accepts_pipe_table_against_html_truth():
    truth = "<html><body><table><thead><tr><td>a</td><td>b</td></tr></thead>" \
            "<tbody><tr><td>1</td><td>2</td></tr></tbody></table></body></html>"
    assert teds("| a | b |\n|---|---|\n| 1 | 2 |", truth) == 1.0


def test_first_table_html_prefers_html_block():
    output = "| x | y |\n|---|---|\n\n<table><tr><td>z</td></tr></table>"
    assert first_table_html(output) == "<table><tr><td>z</td></tr></table>"


def test_html_tables_reads_spans_sections_and_entities():
    (table,) = html_tables(
        '<table><thead><tr><th rowspan="2">A&amp;B</th><td>c<br>d</td></tr></thead></table>'
    )
    assert table.sections[0].tag == "thead"
    cell = table.sections[0].rows[0][0]
    assert (cell.text, cell.rowspan, cell.is_header_tag) == ("A&B", 2, True)
    assert table.sections[0].rows[0][1].text == "c d"


def test_place_cells_honours_rowspan_and_colspan():
    (table,) = html_tables(
        '<table><tr><td rowspan="2">L</td><td colspan="2">top</td></tr>'
        "<tr><td>x</td><td>y</td></tr></table>"
    )
    cells, grid = place_cells(table)
    assert [(c.text, c.row, c.col) for c in cells] == [
        ("L", 0, 0), ("top", 0, 1), ("x", 1, 1), ("y", 1, 2)
    ]  # fmt: skip
    assert grid == [[0, 1, 1], [0, 2, 3]]


def test_pipe_tables_marks_first_row_and_column_as_headings():
    (table,) = pipe_tables("| h1 | h2 |\n|----|----|\n| r1 | v |")
    cells, _ = place_cells(table)
    assert [c.is_heading for c in cells] == [True, True, True, False]
