"""The Excel export: numbers typed as numbers, sheet names Excel accepts, and every table of the
dev set's table items round-tripping (the sheet's grid is our HTML's grid: TEDS 1.0)."""

from __future__ import annotations

import io
from pathlib import Path

import openpyxl
import pytest

from engine.tables.cell_numbers import parse_number, uses_decimal_comma
from engine.formats import OutputFormat
from engine.content.tables import filled_rows
from engine.export.xlsx import TABLE_FIRST_ROW, PageTable, build_xlsx, document_tables, sheet_name
from engine.options import ConvertOptions
from engine.types import Block, BlockKind, Box, DocumentResult, PageResult, TextSource
from tools.eval.tables import (SourceCell, SourceTable, TableSection, html_tables,
                               place_cells, table_to_html)
from tools.eval.teds import teds
from table_samples import table_of

EVAL_DEV_DIR = Path(__file__).resolve().parents[3] / "shared" / "eval" / "dev"


@pytest.mark.parametrize("text, decimal_comma, value, number_format", [
    ("42", False, 42, "0"),
    ("1,234", False, 1234, "#,##0"),
    ("1,234.50", False, 1234.5, "#,##0.00"),
    ("-0.75", False, -0.75, "0.00"),
    ("\u22123.2", False, -3.2, "0.0"),
    ("12.5%", False, 0.125, "0.0%"),
    ("(1,234)", False, -1234, "#,##0;(#,##0)"),
    ("$1,200", False, 1200, '"$"#,##0'),
    ("1.234,5", True, 1234.5, "#,##0.0"),
    ("3,14", True, 3.14, "0.00"),
    ("12 345", False, 12345, "#,##0"),
])
def test_numbers_are_read_with_their_format(text, decimal_comma, value, number_format):
    number = parse_number(text, decimal_comma)
    assert number is not None and number.value == value and number.number_format == number_format


@pytest.mark.parametrize("text", ["007", "12 kg", "2019-2020", "1,23,4", "", "-", "n/a",
                                  "1234567890123456", "(12", "12.5.3", "1.5e3"])
def test_text_stays_text(text):
    assert parse_number(text) is None


def test_a_table_writes_decimal_commas_when_a_cell_must_be_one():
    assert uses_decimal_comma(["1.234,5", "7"])
    assert uses_decimal_comma(["3,14"])
    assert not uses_decimal_comma(["1,234", "1,234.5", "12%"])


def test_sheet_names_follow_excel_rules():
    taken: set[str] = set()

    def table(caption: str, page: int = 3, index: int = 1) -> PageTable:
        return PageTable(page, index, Block(BlockKind.TABLE, Box(0, 0, 1, 1)), caption)

    first = sheet_name(table("Table 2: Yields [t/ha] per field*?"), taken)
    assert first == "p3 Table 2"
    long = sheet_name(table("Annual rainfall and temperature by region and month"), taken)
    assert len(long) <= 31 and not set("[]:*?/\\") & set(long)
    again = sheet_name(table("Table 2: other"), taken)
    assert again != first and again.lower() != first.lower() and len(again) <= 31
    assert sheet_name(table("", page=9, index=4), taken) == "p9 table 4"


def test_merged_cells_caption_and_typed_numbers():
    html = ('<table><thead><tr><td rowspan="2">Crop</td><td colspan="2">Yield</td></tr>'
            '<tr><td>2023</td><td>2024</td></tr></thead><tbody>'
            '<tr><td>Wheat</td><td>1,250.5</td><td>12%</td></tr>'
            '<tr><td>=SUM(A1)</td><td>007</td><td>(30)</td></tr></tbody></table>')
    page = PageResult(1, 1000, 1000, 200, TextSource.OCR, "test", blocks=(
        Block(BlockKind.CAPTION, Box(0, 0, 10, 10), text="Table 1. Yields by crop"),
        Block(BlockKind.TABLE, Box(0, 10, 10, 20), table=table_of(html))))
    data, notes = build_xlsx(DocumentResult("/data/crops.pdf", "pdf", 1, (page,)))
    assert notes == ()
    sheet = openpyxl.load_workbook(io.BytesIO(data)).worksheets[0]
    assert sheet.title == "p1 Table 1"
    assert sheet["A1"].value == "Table 1. Yields by crop"
    first = TABLE_FIRST_ROW
    merged = {str(r) for r in sheet.merged_cells.ranges}
    assert merged == {f"A{first}:A{first + 1}", f"B{first}:C{first}"}
    assert sheet[f"B{first + 1}"].value == "2023"  # a header is a label, kept as written
    assert sheet[f"B{first + 2}"].value == 1250.5 and sheet[f"B{first + 2}"].data_type == "n"
    assert sheet[f"C{first + 2}"].value == 0.12 and sheet[f"C{first + 2}"].number_format == "0%"
    assert sheet[f"A{first + 3}"].value == "=SUM(A1)" and sheet[f"A{first + 3}"].data_type == "s"
    assert sheet[f"B{first + 3}"].value == "007"
    assert sheet[f"C{first + 3}"].value == -30


def sheet_html(sheet, decimal_comma: bool) -> str:
    """The sheet's table as HTML again: spans from the merged ranges, numbers shown through
    their number format (written here independently of the exporter)."""
    spans = {}
    hidden = set()
    for merged in sheet.merged_cells.ranges:
        spans[(merged.min_row, merged.min_col)] = (merged.max_row - merged.min_row + 1,
                                                   merged.max_col - merged.min_col + 1)
        for r in range(merged.min_row, merged.max_row + 1):
            for c in range(merged.min_col, merged.max_col + 1):
                if (r, c) != (merged.min_row, merged.min_col):
                    hidden.add((r, c))
    head, body = [], []
    for r in range(TABLE_FIRST_ROW, sheet.max_row + 1):
        cells, bold = [], True
        for c in range(1, sheet.max_column + 1):
            if (r, c) in hidden:
                continue
            rowspan, colspan = spans.get((r, c), (1, 1))
            attrs = (f' rowspan="{rowspan}"' if rowspan > 1 else "") + \
                    (f' colspan="{colspan}"' if colspan > 1 else "")
            cells.append(f"<td{attrs}>{shown(sheet.cell(r, c), decimal_comma)}</td>")
            bold = bold and bool(sheet.cell(r, c).font.b)
        # Header rows are the bold ones at the top (the exporter sets <thead> cells in bold).
        (head if bold and not body else body).append("<tr>" + "".join(cells) + "</tr>")
    sections = (f"<thead>{''.join(head)}</thead>" if head else "") + \
        (f"<tbody>{''.join(body)}</tbody>" if body else "")
    return "<table>" + sections + "</table>"


def padded_html(html: str) -> str:
    """Our HTML with the positions a short row leaves uncovered filled by empty cells: the
    grid a spreadsheet has (parsed by the evaluation's own table reader)."""
    table = html_tables(html)[0]
    placed, grid = place_cells(table)
    tags = [section.tag for section in table.sections for _ in section.rows]
    sections: list[tuple[str, list[tuple[SourceCell, ...]]]] = []
    for r, slots in enumerate(grid):
        row = []
        for c, slot in enumerate(slots):
            if slot is None:
                row.append(SourceCell(""))
            elif (placed[slot].row, placed[slot].col) == (r, c):
                cell = placed[slot]
                row.append(SourceCell(cell.text, cell.rowspan, cell.colspan))
        tag = tags[r] if r < len(tags) else "tbody"
        if not sections or sections[-1][0] != tag:
            sections.append((tag, []))
        sections[-1][1].append(tuple(row))
    return table_to_html(SourceTable(tuple(TableSection(t, tuple(rows)) for t, rows in sections)))


def shown(cell, decimal_comma: bool) -> str:
    import html as html_lib

    value = cell.value
    if value is None:
        return ""
    if not isinstance(value, (int, float)):
        return html_lib.escape(str(value), quote=False)
    fmt = cell.number_format.split(";")[0]
    negative_parens = ";(" in cell.number_format
    currency = fmt.split('"')[1] if fmt.startswith('"') else ""
    fmt = fmt.split('"')[-1]
    percent = fmt.endswith("%")
    number = abs(value) * 100 if percent else abs(value)
    decimals = len(fmt.split(".")[1].rstrip("%")) if "." in fmt else 0
    text = f"{number:,.{decimals}f}" if "#,##0" in fmt else f"{number:.{decimals}f}"
    if decimal_comma:
        text = text.replace(",", "\0").replace(".", ",").replace("\0", ".")
    text = currency + text + ("%" if percent else "")
    if value < 0:
        text = f"({text})" if negative_parens else "-" + text
    return text


@pytest.fixture(scope="module")
def dev_tables(engine, tmp_path_factory):
    import json

    if not EVAL_DEV_DIR.is_dir():
        pytest.skip(f"evaluation documents not found at {EVAL_DEV_DIR}")
    manifest = json.loads((EVAL_DEV_DIR / "manifest.json").read_text())
    items = manifest["items"] if isinstance(manifest, dict) else manifest
    folder = tmp_path_factory.mktemp("dev-tables")
    converted = []
    for index, item in enumerate(i for i in items if i["category"] == "table"):
        options = ConvertOptions(output_dir=str(folder), output_name=f"t{index}",
                                 exports=(OutputFormat.XLSX,))
        result = engine.convert(EVAL_DEV_DIR / item["input"], options)
        converted.append((item["id"], result, folder / f"t{index}.xlsx"))
    return converted


@pytest.mark.model
def test_dev_tables_round_trip(dev_tables):
    checked = 0
    for item, result, path in dev_tables:
        tables = [t for t in document_tables(result) if t.block.table]
        assert tables, item
        workbook = openpyxl.load_workbook(path)
        assert len(workbook.worksheets) == len(tables), item
        for table, sheet in zip(tables, workbook.worksheets):
            grid = filled_rows(table.block.table)
            decimal_comma = uses_decimal_comma(c.text for c in grid.cells)
            own = padded_html(table.block.html)
            assert teds(sheet_html(sheet, decimal_comma), own) == 1.0, item
            for cell in grid.cells:
                target = sheet.cell(cell.row + TABLE_FIRST_ROW, cell.col + 1)
                number = None if cell.header else parse_number(cell.text, decimal_comma)
                if number is not None:
                    assert target.data_type == "n" and target.value == number.value, item
            checked += 1
    assert checked >= 12
