"""A table as typed cells (engine/content/tables.py) and its two writers, HTML and GFM
(engine/content/table_html.py, engine/output/tables.py); and that nothing in the engine reads
a table back from HTML."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from engine.office.model import Cell, OfficeDocument, OfficePage, Part, office_table
from engine.content.table_html import table_html
from engine.output.tables import table_markdown
from engine.content.tables import (CellEntry, Table, TableCell, TableTooLarge, filled_rows,
                                   place_rows, with_head)
from engine.tables.recognizer import ReadCell, as_table
from engine.types import Block, BlockKind, Box, DocumentResult, PageResult, TextSource

ENGINE = Path(__file__).resolve().parents[2] / "engine"


def rows(*texts: list[str]) -> Table:
    return place_rows([[CellEntry(t) for t in row] for row in texts])


def test_html_escapes_text_and_writes_spans_head_header_cells_and_line_breaks():
    table = Table((TableCell(0, 0, "a<b & c>", colspan=2, header=True),
                   TableCell(1, 0, "x", rowspan=2), TableCell(1, 1, '"y"'),
                   TableCell(2, 1, "two\nlines", header=True)), 3, 2, header_rows=1)
    assert table_html(table) == (
        '<table><thead><tr><td colspan="2">a&lt;b &amp; c&gt;</td></tr></thead>'
        '<tbody><tr><td rowspan="2">x</td><td>"y"</td></tr>'
        '<tr><th>two<br>lines</th></tr></tbody></table>')


def test_html_keeps_a_row_without_cells_and_a_table_without_head_has_only_a_body():
    table = Table((TableCell(0, 0, "a", rowspan=2), TableCell(0, 1, "b", rowspan=2),
                   TableCell(2, 0, "c"), TableCell(2, 1, "d")), 3, 2)
    assert table_html(table) == ('<table><tbody><tr><td rowspan="2">a</td><td rowspan="2">b'
                                 '</td></tr><tr></tr><tr><td>c</td><td>d</td></tr></tbody></table>')
    assert table_html(rows(["a"])) == "<table><tbody><tr><td>a</td></tr></tbody></table>"


def test_gfm_escapes_cell_text_as_document_text():
    table = rows(["Crop", "t/ha"], ["Wheat | rye", "$7.1"], ["<b>&amp;", "x\ny"])
    assert table_markdown(table) == ("| Crop | t/ha |\n| --- | --- |\n| Wheat \\| rye | \\$7.1 |\n"
                                     "| &lt;b>&amp;amp; | x y |")


def test_gfm_pads_short_rows_skips_rows_without_cells_and_refuses_merged_cells():
    ragged = Table((TableCell(0, 0, "a"), TableCell(0, 1, "b"), TableCell(2, 0, "c")), 3, 2)
    assert table_markdown(ragged) == "| a | b |\n| --- | --- |\n| c |  |"
    merged = rows(["Both"], ["a", "b"])
    merged = Table((TableCell(0, 0, "Both", colspan=2),) + merged.cells[1:], 2, 2)
    assert table_markdown(merged) is None
    assert table_markdown(Table((), 0, 0)) is None


def test_cells_are_placed_past_rowspans_and_a_rowspan_is_cut_at_the_last_row():
    table = place_rows([[CellEntry("a", rowspan=5), CellEntry("b")], [CellEntry("c")]])
    assert table == Table((TableCell(0, 0, "a", rowspan=2), TableCell(0, 1, "b"),
                           TableCell(1, 1, "c")), 2, 2)
    with pytest.raises(TableTooLarge):
        place_rows([[CellEntry("huge", rowspan=1, colspan=10_000)]] * 101)


def test_the_grid_a_reader_sees_leaves_out_rows_without_cells():
    table = Table((TableCell(0, 0, " Head  one ", header=True), TableCell(0, 1, "b"),
                   TableCell(2, 0, "c"), TableCell(2, 1, "d")), 3, 2, header_rows=1)
    grid = filled_rows(table)
    assert grid == Table((TableCell(0, 0, "Head one", header=True),
                          TableCell(0, 1, "b", header=True), TableCell(1, 0, "c"),
                          TableCell(1, 1, "d")), 2, 2, header_rows=1)
    assert with_head(reversed(grid.cells), 2, 2) == grid


def test_the_recogniser_head_is_its_leading_head_rows():
    read = (ReadCell(0, 0, 1, 1, Box(0, 0, 1, 1), "h", True),
            ReadCell(1, 0, 1, 1, Box(0, 1, 1, 2), "x", True))  # a head row further down
    table = as_table(read, 2, 1, header_rows=1)
    assert [c.header for c in table.cells] == [True, False]
    assert table_html(table) == ("<table><thead><tr><td>h</td></tr></thead>"
                                 "<tbody><tr><td>x</td></tr></tbody></table>")


def test_the_json_writes_a_table_as_its_html_where_it_wrote_it_before():
    table = rows(["a", "b"])
    page = PageResult(1, 10, 10, 72.0, TextSource.OCR, "scan", blocks=(
        Block(BlockKind.TABLE, Box(0, 0, 5, 5), table=table),
        Block(BlockKind.TEXT, Box(0, 6, 5, 7))))
    blocks = DocumentResult("a.png", "png", 1, (page,)).to_json()["pages"][0]["blocks"]
    assert list(blocks[0])[5:8] == ["level", "html", "latex"]
    assert blocks[0]["html"] == table_html(table) and blocks[1]["html"] == ""
    assert Block(BlockKind.TABLE, Box(0, 0, 1, 1), table=table).html == table_html(table)


HTML_READERS = ("html.parser", "HTMLParser", "lxml.html", "bs4", "html5lib", "read_table")
NOT_TABLES = {"models/download.py": ["HTMLParser", "html.parser"]}
"""HTML the engine reads that is no table of ours: a package index's page of links (PEP 503)."""


def html_readers(source: str) -> set[str]:
    """The HTML readers a module's source imports or names."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module or ""] + [alias.name for alias in node.names]
        elif isinstance(node, ast.Name):
            names = [node.id]
        elif isinstance(node, ast.Attribute):
            names = [node.attr]
        else:
            continue
        found.update(reader for reader in HTML_READERS for name in names
                     if name == reader or name.startswith(reader + "."))
    return found


def test_nothing_in_the_engine_reads_html_back():
    """Tables travel as cells; HTML is only written (engine/content/table_html.py)."""
    readers = {str(path.relative_to(ENGINE)): sorted(found)
               for path in sorted(ENGINE.rglob("*.py"))
               if (found := html_readers(path.read_text(encoding="utf-8")))}
    assert readers == NOT_TABLES


def test_the_html_reader_check_finds_each_way_in():
    assert html_readers("from html.parser import HTMLParser\n") == {"html.parser", "HTMLParser"}
    assert html_readers("import lxml.html\n") == {"lxml.html"}
    assert html_readers("x = read_table(block.html)\n") == {"read_table"}
    assert html_readers("import html\nhtml.escape(text)\n") == set()


def test_an_office_table_is_placed_and_crosses_the_readers_pipe_whole():
    rows = [[Cell("Region", rowspan=9), Cell("Q1")], [Cell("12")]]
    table = office_table(rows, header_rows=1)
    assert table == Table((TableCell(0, 0, "Region", rowspan=2, header=True),
                           TableCell(0, 1, "Q1", header=True), TableCell(1, 1, "12")), 2, 2, 1)
    document = OfficeDocument("docx", (OfficePage((Part("table", table=table),)),))
    assert OfficeDocument.from_json(json.loads(json.dumps(document.to_json()))) == document
    with pytest.raises(TableTooLarge):
        office_table([[Cell("wide", colspan=10_000)]] * 101)
