"""Excel workbook: one sheet per table, named by its page and caption, the caption above the
table, merged cells kept and numbers stored as numbers. A cell written mostly right to left
(Arabic, Hebrew, Persian) reads right to left (readingOrder 2), and a sheet whose table is
mostly in such letters runs right to left, its columns mirrored so that it looks like the page
and column A is the column read first."""

from __future__ import annotations

import io
import re
import zipfile
from dataclasses import dataclass

from openpyxl import Workbook
from openpyxl.styles import Alignment, Font
from openpyxl.utils import get_column_letter

from engine.tables.cell_numbers import parse_number, uses_decimal_comma
from engine.formats import ExportFailed
from engine.content.tables import Table, TableTooLarge, filled_rows
from engine.text import right_to_left
from engine.types import Block, BlockKind, DocumentResult

# Excel's own limits.
MAX_ROWS = 1_048_576
MAX_COLS = 16_384
MAX_CELL_CHARS = 32_767
SHEET_NAME_CHARS = 31
_SHEET_FORBIDDEN = re.compile(r"[\[\]:*?/\\]")
# The label a caption starts with: "Table 2", "Tab. S1", "TABLE IV", "表 3", "表3-1".
_CAPTION_LABEL = re.compile(r"(?:tables?|tab\.?|tbl\.?)\s*"
                            r"(?:[A-Z]?\d+(?:\.\d+)*[a-z]?\b|[IVXLC]+\b)"
                            r"|表\s*[\d一二三四五六七八九十]+(?:[.\-]\d+)*", re.IGNORECASE)
# Excel's reading orders of a cell (ST_ReadingOrder's 0 is by its content, 1 left to right).
RIGHT_TO_LEFT_READING = 2
TABLE_FIRST_ROW = 3
"""Row 1 holds the caption (or the table's page), row 2 stays empty, the table starts here."""
# The members of the workbook's zip get this fixed time, so the same document gives the same
# bytes (openpyxl stamps the current time otherwise).
ZIP_TIME = (1980, 1, 1, 0, 0, 0)
FIXED_TIME = b"1980-01-01T00:00:00Z"
_CORE_TIMES = re.compile(rb"(<dcterms:(?:created|modified)[^>]*>)([^<]*)(</dcterms:)")


@dataclass(frozen=True)
class PageTable:
    page_number: int
    index: int
    """1-based among the document's tables."""
    block: Block
    caption: str

    @property
    def pages_label(self) -> str:
        """'3', or '3-4' for a table joined across pages."""
        pages = self.block.table_pages
        return f"{pages[0]}-{pages[-1]}" if len(pages) > 1 else str(self.page_number)


def document_tables(result: DocumentResult) -> list[PageTable]:
    """Every table of the document in reading order, with the caption next to it (the caption
    block just before or after the table on the same page); a table joined across pages is one
    table, on its first page."""
    tables: list[PageTable] = []
    for page in result.pages:
        blocks = page.blocks
        for i, block in enumerate(blocks):
            if block.kind is not BlockKind.TABLE or block.is_continuation:
                continue
            caption = ""
            for j in (i - 1, i + 1):
                if 0 <= j < len(blocks) and blocks[j].kind is BlockKind.CAPTION:
                    caption = " ".join(blocks[j].text.split())
                    break
            tables.append(PageTable(page.page_number, len(tables) + 1, block, caption))
    return tables


def sheet_name(table: PageTable, taken: set[str]) -> str:
    """'p3 Table 2. Yields' ('p3-4 ...' across pages) cut to Excel's 31 characters, without
    the characters Excel forbids, unique in the workbook (compared without case, as Excel
    does)."""
    label = table.caption or f"table {table.index}"
    short = _CAPTION_LABEL.match(label)
    if short:  # "Table 2: Yields by crop" is known as Table 2
        label = short.group(0)
    base = _SHEET_FORBIDDEN.sub(" ", f"p{table.pages_label} {label}")
    base = " ".join(base.split()).strip("'") or f"table {table.index}"
    name = base[:SHEET_NAME_CHARS].rstrip()
    number = 2
    while name.lower() in taken:
        suffix = f" ({number})"
        name = base[:SHEET_NAME_CHARS - len(suffix)].rstrip() + suffix
        number += 1
    taken.add(name.lower())
    return name


def build_xlsx(result: DocumentResult) -> tuple[bytes, tuple[str, ...]]:
    """The workbook's bytes and notes about tables left out of it."""
    tables = document_tables(result)
    name = _document_name(result)
    if not tables:
        raise ExportFailed(f"No table was found in {name}, so no .xlsx was written.")
    workbook = Workbook()
    workbook.remove(workbook.active)
    taken: set[str] = set()
    notes: list[str] = []
    for table in tables:
        where = f"table {table.index} (page {table.pages_label})"
        if table.block.table is None:
            notes.append(f"{where} of {name} could not be read as cells (it is kept as an "
                         "image in the Markdown); it is not in the .xlsx.")
            continue
        try:
            grid = filled_rows(table.block.table)
        except TableTooLarge as exc:
            notes.append(f"{where} of {name} is left out of the .xlsx: {exc}.")
            continue
        problem = _too_large(grid)
        if problem:
            notes.append(f"{where} of {name} is left out of the .xlsx: {problem}.")
            continue
        _write_sheet(workbook.create_sheet(sheet_name(table, taken)), table, grid)
    if not workbook.worksheets:
        raise ExportFailed(f"None of the tables of {name} could be written as cells, so no "
                           f".xlsx was written ({'; '.join(notes)})")
    workbook.properties.creator = "Paperlens"
    buffer = io.BytesIO()
    workbook.save(buffer)
    return _fixed_times(buffer.getvalue()), tuple(notes)


def _pages_words(table: PageTable) -> str:
    label = table.pages_label
    return f"pages {label}" if "-" in label else f"page {label}"


def _document_name(result: DocumentResult) -> str:
    return result.path.replace("\\", "/").rsplit("/", 1)[-1]


def _too_large(grid: Table) -> str:
    if grid.rows + TABLE_FIRST_ROW - 1 > MAX_ROWS or grid.cols > MAX_COLS:
        return (f"its {grid.rows} rows by {grid.cols} columns exceed a sheet's "
                f"{MAX_ROWS:,} by {MAX_COLS:,}")
    longest = max((len(c.text) for c in grid.cells), default=0)
    if longest > MAX_CELL_CHARS:
        return f"a cell holds {longest:,} characters, more than the {MAX_CELL_CHARS:,} Excel allows"
    return ""


def _write_sheet(sheet, table: PageTable, grid: Table) -> None:
    title = sheet.cell(row=1, column=1, value=table.caption or
                       f"Table {table.index} ({_pages_words(table)})")
    title.font = Font(bold=True)
    if right_to_left([title.value]):
        title.alignment = Alignment(readingOrder=RIGHT_TO_LEFT_READING)
    # Our table HTML holds a table's columns as the page shows them, left to right. A sheet
    # running right to left shows column A on the right, so its columns are written mirrored:
    # A is the page's rightmost column, the one read first, and the sheet looks like the page.
    mirrored = right_to_left([c.text for c in grid.cells])
    sheet.sheet_view.rightToLeft = mirrored
    decimal_comma = uses_decimal_comma(c.text for c in grid.cells)
    bold = Font(bold=True)
    for cell in grid.cells:
        row, col = cell.row + TABLE_FIRST_ROW, _column(cell.col, cell.colspan, grid, mirrored)
        target = sheet.cell(row=row, column=col)
        number = None if cell.header else parse_number(cell.text, decimal_comma)
        if number is not None:
            target.value = number.value
            target.number_format = number.number_format
        elif cell.text:
            target.value = cell.text
            target.data_type = "s"  # never a formula, whatever the text starts with
            alignment = _alignment(cell.text)
            if alignment is not None:
                target.alignment = alignment
        if cell.header:
            target.font = bold
        if cell.rowspan > 1 or cell.colspan > 1:
            sheet.merge_cells(start_row=row, start_column=col,
                              end_row=row + cell.rowspan - 1, end_column=col + cell.colspan - 1)
    for col in range(1, grid.cols + 1):
        widest = max((len(c.text) for c in grid.cells if c.colspan == 1
                      and _column(c.col, 1, grid, mirrored) == col), default=8)
        sheet.column_dimensions[get_column_letter(col)].width = min(60, max(8, widest + 2))


def _column(col: int, span: int, grid: Table, mirrored: bool) -> int:
    """The sheet column (from 1) of a cell's first column `col` (from 0, as the page shows
    it left to right), over `span` columns."""
    return grid.cols - col - span + 1 if mirrored else col + 1


def _alignment(text: str) -> Alignment | None:
    """A text cell's alignment: wrapped at the top when it holds several lines, read right to
    left when its letters mostly run that way; None when it needs neither."""
    wrap = "\n" in text
    rtl = right_to_left([text])
    if not (wrap or rtl):
        return None
    return Alignment(wrap_text=wrap or None, vertical="top" if wrap else None,
                     readingOrder=RIGHT_TO_LEFT_READING if rtl else 0)


def _fixed_times(data: bytes) -> bytes:
    """The workbook re-zipped with fixed member times and creation and modification dates
    (same document, same bytes)."""
    source = zipfile.ZipFile(io.BytesIO(data))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            fixed = zipfile.ZipInfo(info.filename, ZIP_TIME)
            fixed.compress_type = zipfile.ZIP_DEFLATED
            fixed.external_attr = info.external_attr
            content = source.read(info.filename)
            if info.filename == "docProps/core.xml":
                content = _CORE_TIMES.sub(rb"\g<1>" + FIXED_TIME + rb"\g<3>", content)
            target.writestr(fixed, content)
    return buffer.getvalue()
