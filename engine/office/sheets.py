"""Workbooks (XLSX) read with openpyxl: one page per worksheet, its name a heading and its used
range one table, merged cells as spans, each cell as the value its last save computed (never
a formula evaluated here)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from engine.office.model import Cell, OfficeDocument, OfficePage, Part, table_html

# Cells of one sheet taken into its table; the rows past it are left out, with a warning.
MAX_SHEET_CELLS = 1_000_000


def read_workbook(path: Path) -> OfficeDocument:
    import openpyxl

    # data_only: the cached values, never formulas; keep_links False: no external workbook.
    book = openpyxl.load_workbook(path, data_only=True, keep_links=False, keep_vba=False,
                                  rich_text=False)
    pages, warnings = [], []
    for sheet in book.worksheets:
        rows, cut = _sheet_rows(sheet)
        if cut:
            warnings.append(f"sheet {sheet.title!r}: only its first {cut:,} rows were read "
                            f"({MAX_SHEET_CELLS:,} cells)")
        parts = [Part("section_header", sheet.title, level=1)]
        if rows:
            parts.append(Part("table", html=table_html(rows)))
        pages.append(OfficePage(tuple(parts), title=sheet.title))
    book.close()
    return OfficeDocument("xlsx", tuple(pages), tuple(warnings))


def _sheet_rows(sheet) -> tuple[list[list[Cell]], int]:
    """The used range as rows of cells (merged ranges as one cell with spans); the row count
    kept when the sheet was cut at MAX_SHEET_CELLS, else 0."""
    values: dict[tuple[int, int], str] = {}
    for row in sheet.iter_rows():
        for cell in row:
            text = cell_text(cell.value)
            if text:
                values[(cell.row, cell.column)] = text
    merged = {(r.min_row, r.min_col): (r.max_row - r.min_row + 1, r.max_col - r.min_col + 1)
              for r in sheet.merged_cells.ranges}
    if not values and not merged:
        return [], 0
    corners = list(values) + [(r + h - 1, c + w - 1) for (r, c), (h, w) in merged.items()] + \
        list(merged)
    top, left = min(r for r, _ in corners), min(c for _, c in corners)
    bottom, right = max(r for r, _ in corners), max(c for _, c in corners)
    covered = {(r, c) for (r0, c0), (h, w) in merged.items()
               for r in range(r0, r0 + h) for c in range(c0, c0 + w) if (r, c) != (r0, c0)}
    width = right - left + 1
    last, cut = bottom, 0
    if (bottom - top + 1) * width > MAX_SHEET_CELLS:
        cut = MAX_SHEET_CELLS // width
        last = top + cut - 1
    rows = []
    for r in range(top, last + 1):
        row = []
        for c in range(left, right + 1):
            if (r, c) in covered:
                continue
            height, span = merged.get((r, c), (1, 1))
            row.append(Cell(values.get((r, c), ""), rowspan=min(height, last - r + 1),
                            colspan=span))
        rows.append(row)
    return rows, cut


def cell_text(value: object) -> str:
    """A cell's value as a person reads it: whole numbers without ".0", dates as ISO dates."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() and abs(value) < 1e15 else f"{value:.15g}"
    if isinstance(value, dt.datetime):
        return value.date().isoformat() if value.time() == dt.time() else value.isoformat(" ")
    if isinstance(value, (dt.date, dt.time)):
        return value.isoformat()
    return " ".join(str(value).split())
