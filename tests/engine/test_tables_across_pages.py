"""Tables across pages (engine/tables/across_pages.py): joined when the next page goes on with the
same columns or repeats the header, kept apart otherwise; one table in the Markdown, the content
list and the workbook; and one real two-page PDF converted both ways."""

from __future__ import annotations

import io
import json
from dataclasses import replace

import openpyxl
import pytest

from engine.content.tables import Table, TableCell, filled_rows
from engine.export.xlsx import build_xlsx
from engine.options import ConvertOptions
from engine.output.content_list import content_list
from engine.output.markdown import render_markdown
from engine.tables.across_pages import join_tables_across_pages
from engine.types import (Block, BlockKind, Box, DocumentResult, Line, PageResult,
                          TextSource)

WIDTH, HEIGHT, ROW = 1000, 1400, 30
COLUMNS = (100, 400, 600, 800)
"""Left edges of the usual four columns, in page pixels."""
HEADER = ("Name", "Count", "Share", "Mean")


def table_block(rows: list[tuple[str, ...]], top: float, lefts=COLUMNS, header_rows: int = 0
                ) -> Block:
    """A table of `rows` whose first `header_rows` rows are its head, its lines standing at
    `lefts`, from `top` down."""
    cells = tuple(TableCell(r, c, text, header=r < header_rows)
                  for r, row in enumerate(rows) for c, text in enumerate(row))
    table = Table(cells, len(rows), len(rows[0]), header_rows)
    lines = tuple(Line(text, Box(x, top + r * ROW, x + 12 * len(text), top + r * ROW + 20))
                  for r, row in enumerate(rows) for x, text in zip(lefts, row))
    box = Box(lefts[0] - 10, top - 5, max(ln.box.x1 for ln in lines) + 10, top + len(rows) * ROW)
    return Block(BlockKind.TABLE, box, lines, " ".join(ln.text for ln in lines), table=table)


def data_rows(start: int, count: int, width: int = 4) -> list[tuple[str, ...]]:
    return [(f"item {n}",) + tuple(str(n * (c + 3)) for c in range(width - 1))
            for n in range(start, start + count)]


def text_block(text: str, top: float, kind: BlockKind = BlockKind.TEXT) -> Block:
    box = Box(100, top, 900, top + 20)
    return Block(kind, box, (Line(text, box),), text)


def page(number: int, *blocks: Block) -> PageResult:
    footer = text_block(str(number), HEIGHT - 60, BlockKind.FOOTER)
    return PageResult(number, WIDTH, HEIGHT, 144.0, TextSource.TEXT_LAYER, "", (*blocks, footer))


def ending_page(rows: int = 20, number: int = 1, bottom: float = HEIGHT - 100) -> PageResult:
    """Text, then a table with its header that ends at `bottom` (the foot of the page)."""
    top = bottom - rows * ROW
    return page(number, text_block("Some text before the table.", top - 60),
                table_block([HEADER] + data_rows(1, rows - 1), top, header_rows=1))


def tables(pages: list[PageResult]) -> list[Block]:
    return [b for p in pages for b in p.blocks if b.kind is BlockKind.TABLE]


def test_rows_going_on_at_the_head_of_the_next_page_are_one_table():
    pages = join_tables_across_pages([ending_page(),
                                      page(2, table_block(data_rows(20, 6), 80),
                                           text_block("Text after the table.", 300))])
    first, second = tables(pages)
    assert first.table_pages == (1, 2) and second.continues_from_page == 1
    grid = filled_rows(first.table)
    assert grid.rows == 26 and grid.cols == 4
    assert [c.text for c in grid.cells if c.row == 25][0] == "item 25"
    assert [c.header for c in grid.cells if c.row in (0, 1)] == [True] * 4 + [False] * 4
    markdown = render_markdown(pages)
    assert markdown.count("<table>") == 1 and "item 25" in markdown
    assert [item["type"] for item in content_list(pages)].count("table") == 1


def test_a_repeated_header_is_dropped():
    pages = join_tables_across_pages([
        ending_page(), page(2, table_block([HEADER] + data_rows(20, 5), 80, header_rows=1))])
    grid = filled_rows(tables(pages)[0].table)
    assert grid.rows == 25
    assert sum(c.text == "Name" for c in grid.cells) == 1


def test_a_header_the_layout_model_set_apart_as_headings_is_dropped_with_it():
    heads = [Block(BlockKind.SECTION_HEADER, Box(x, 80, x + 60, 100),
                   (Line(text, Box(x, 80, x + 60, 100)),), text)
             for x, text in zip(COLUMNS, HEADER)]
    pages = join_tables_across_pages([ending_page(),
                                      page(2, *heads, table_block(data_rows(20, 5), 110))])
    assert filled_rows(tables(pages)[0].table).rows == 25
    assert all(b.continues_from_page == 1 for b in pages[1].blocks[:4])
    assert "Name" not in render_markdown(pages).split("<table>")[0]


def row_blocks(row: tuple[str, ...], top: float) -> list[Block]:
    """A table row the layout model set apart: one text block per cell."""
    return [Block(BlockKind.TEXT, Box(x, top, x + 12 * len(t), top + 20),
                  (Line(t, Box(x, top, x + 12 * len(t), top + 20)),), t)
            for x, t in zip(COLUMNS, row)]


def test_rows_the_layout_model_set_apart_at_the_break_are_kept_in_the_table():
    first = ending_page(rows=19, bottom=HEIGHT - 130)
    last_row = row_blocks(("item 19", "57", "76", "95"), HEIGHT - 125)
    first = replace(first, blocks=first.blocks[:-1] + tuple(last_row) + first.blocks[-1:])
    lead = row_blocks(("item 20", "60", "80", "100"), 80)
    pages = join_tables_across_pages([first, page(2, *lead, table_block(data_rows(21, 5), 110))])
    grid = filled_rows(tables(pages)[0].table)
    assert grid.rows == 1 + 18 + 1 + 1 + 5
    texts = [c.text for c in sorted(grid.cells, key=lambda c: (c.row, c.col)) if c.col == 0]
    assert texts[18:22] == ["item 18", "item 19", "item 20", "item 21"]
    assert all(b.is_continuation for b in pages[0].blocks[2:6] + pages[1].blocks[:4])
    assert render_markdown(pages).count("item 20") == 1


def test_two_rows_set_apart_above_the_next_part_join_it_but_two_columns_of_text_do_not():
    def cell_block(x: float, texts: tuple[str, str]) -> Block:
        lines = tuple(Line(t, Box(x, 80 + r * ROW, x + 12 * len(t), 100 + r * ROW))
                      for r, t in enumerate(texts))
        return Block(BlockKind.TEXT, Box(x, 80, max(ln.box.x1 for ln in lines), 100 + ROW), lines,
                     " ".join(texts))

    columns = (("item 20", "item 21"), ("60", "63"), ("80", "84"), ("100", "105"))
    two_rows = [cell_block(x, texts) for x, texts in zip(COLUMNS, columns)]
    pages = join_tables_across_pages([ending_page(),
                                      page(2, *two_rows, table_block(data_rows(22, 4), 140))])
    grid = filled_rows(tables(pages)[0].table)
    assert grid.rows == 20 + 2 + 4
    assert [c.text for c in grid.cells if c.row == 21] == ["item 21", "63", "84", "105"]
    prose = [cell_block(100, ("Two columns of", "text above it.")),
             cell_block(500, ("The other column", "of the text."))]
    pages = join_tables_across_pages([ending_page(),
                                      page(2, *prose, table_block(data_rows(22, 4), 140))])
    assert not tables(pages)[0].table_pages


def test_a_column_set_apart_inside_the_table_neither_ends_its_page_nor_parts_it():
    first = ending_page()
    table = first.blocks[1]
    last_column = [ln for ln in table.lines if ln.box.x0 == COLUMNS[-1]]
    column = Block(BlockKind.TEXT, Box(COLUMNS[-1], table.box.y0, table.box.x1 - 10,
                                       table.box.y1 - 10), tuple(last_column), "")
    kept = tuple(ln for ln in table.lines if ln not in last_column)
    first = replace(first, blocks=(first.blocks[0], replace(table, lines=kept),
                                   first.blocks[2], column))
    pages = join_tables_across_pages([first, page(2, table_block(data_rows(20, 6), 80))])
    assert tables(pages)[0].table_pages == (1, 2)


def test_a_table_over_three_pages_is_one_table():
    middle = table_block(data_rows(20, 40), 80)
    pages = join_tables_across_pages([ending_page(), page(2, middle),
                                      page(3, table_block(data_rows(60, 4), 80))])
    first = tables(pages)[0]
    assert first.table_pages == (1, 2, 3)
    assert filled_rows(first.table).rows == 20 + 40 + 4


@pytest.mark.parametrize("second", [
    pytest.param(lambda: table_block(data_rows(1, 6, width=3), 80, lefts=COLUMNS[:3]),
                 id="other column count"),
    pytest.param(lambda: table_block(data_rows(1, 6), 80, lefts=(100, 250, 480, 700)),
                 id="other column places"),
    pytest.param(lambda: table_block([("Town", "Year", "Rain", "Sun")] + data_rows(1, 6), 80,
                                     header_rows=1), id="a header of its own"),
])
def test_a_different_table_on_the_next_page_stays_apart(second):
    pages = join_tables_across_pages([ending_page(), page(2, second())])
    assert all(not b.table_pages and not b.continues_from_page for b in tables(pages))


def test_text_opening_the_next_page_or_a_table_ending_mid_page_keeps_tables_apart():
    going_on = table_block(data_rows(20, 6), 80)
    cases = [
        [ending_page(), page(2, text_block("A paragraph.", 80), replace(going_on, box=Box(
            90, 120, 900, 300)))],
        [ending_page(bottom=HEIGHT / 2), page(2, going_on)],  # the first ends half way down
        [ending_page(), page(2, text_block("Table 2: Rain by town", 50, BlockKind.CAPTION),
                             going_on)],
        [ending_page(), page(3, going_on)],  # not the next page
    ]
    for pages in cases:
        assert all(not b.table_pages for b in tables(join_tables_across_pages(pages)))


def test_two_columns_of_text_under_a_table_are_not_its_last_rows():
    first = ending_page(bottom=HEIGHT - 200)

    def paragraph(x: float) -> Block:
        lines = tuple(Line("some words of text", Box(x, HEIGHT - 190 + r * ROW, x + 300,
                                                     HEIGHT - 170 + r * ROW)) for r in range(3))
        return Block(BlockKind.TEXT, Box(x, HEIGHT - 190, x + 300, HEIGHT - 110), lines,
                     "some words of text " * 3)

    first = replace(first, blocks=first.blocks[:2] + (paragraph(100), paragraph(500))
                    + first.blocks[2:])
    pages = join_tables_across_pages([first, page(2, table_block(data_rows(20, 6), 80))])
    assert not tables(pages)[0].table_pages


def test_a_caption_saying_the_table_goes_on_does_not_part_it():
    pages = join_tables_across_pages([ending_page(), page(
        2, text_block("Table 1 (continued)", 50, BlockKind.CAPTION),
        table_block(data_rows(20, 6), 80))])
    assert tables(pages)[0].table_pages == (1, 2)


def test_the_workbook_has_one_sheet_for_a_joined_table():
    pages = join_tables_across_pages([ending_page(), page(2, table_block(data_rows(20, 6), 80))])
    result = DocumentResult("report.pdf", "pdf", 2, tuple(pages))
    data, notes = build_xlsx(result)
    workbook = openpyxl.load_workbook(io.BytesIO(data))
    assert notes == () and workbook.sheetnames == ["p1-2 table 1"]
    assert workbook.active["A1"].value == "Table 1 (pages 1-2)"
    assert workbook.active.max_row == 2 + 26


@pytest.fixture(scope="module")
def two_page_pdf(tmp_path_factory):
    """A report whose table runs from the foot of page 1 onto page 2, its header repeated."""
    import random

    from tools.xtables.generate import Look, Table, Writer

    rng = random.Random(5)
    look = Look("helv", "hebo", 10.0, 9.0, 70.0, 70.0, 60.0, 60.0, "grid")
    writer = Writer(look, "Quarterly figures")
    writer.paragraph("Sales by region and quarter, as reported by each office.")
    table = Table((160.0, 90.0, 90.0, 90.0), 60.0, (False, True, True, True),
                  ("Region", "Units", "Revenue", "Margin"))

    def rows(count: int) -> list[tuple[str, ...]]:
        return [(f"Office {rng.randint(100, 999)}", str(rng.randint(10, 9999)),
                 f"{rng.uniform(10, 900):.1f}", f"{rng.randint(5, 60)}%") for _ in range(count)]

    first = rows(writer.rows_that_fit() - 1)
    writer.table_part(table, first, header=True, ends=False)
    writer.new_page()
    writer.table_part(table, rows(6), header=True, ends=True)
    writer.paragraph("The figures are provisional until the audit is closed.")
    path = tmp_path_factory.mktemp("xtables") / "report.pdf"
    writer.doc.save(path)
    return path, 1 + len(first) + 6


@pytest.mark.model
def test_a_real_two_page_table_is_joined(engine, two_page_pdf):
    path, rows = two_page_pdf
    joined = engine.convert(path, ConvertOptions())
    found = [b for p in joined.pages for b in p.blocks if b.table_pages]
    assert len(found) == 1 and found[0].table_pages == (1, 2)
    grid = filled_rows(found[0].table)
    filled = {c.row for c in grid.cells if c.text}  # the table model may add an empty row
    assert len(filled) == rows and sum(c.text == "Region" for c in grid.cells) == 1
    assert joined.markdown.count("<table>") == 1
    assert joined.to_json()["pages"][0]["blocks"][-2]["table_pages"] == [1, 2]


@pytest.mark.model
def test_the_cli_keeps_them_apart_on_request(two_page_pdf, tmp_path, monkeypatch):
    from engine.cli.main import main as cli_main

    monkeypatch.setenv("PAPERLENS_CONFIG", str(tmp_path / "settings.json"))
    path, _rows = two_page_pdf
    out = tmp_path / "out"
    assert cli_main(["convert", str(path), "-o", str(out), "--tables-across-pages", "keep"]) == 0
    assert (out / "report.md").read_text(encoding="utf-8").count("<table>") == 2
    data = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert not any(b["table_pages"] or b["continues_from_page"]
                   for p in data["pages"] for b in p["blocks"])
