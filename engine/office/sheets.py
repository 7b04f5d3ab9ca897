"""Workbooks (XLSX) read with openpyxl: one page per worksheet, its name a heading and its used
range one table, merged cells as spans, each cell as the value its last save computed (never
a formula evaluated here: formula cells saved without a value make the sheet partial,
engine/office/left_out.py); the pictures drawn on a sheet after its table, found through the
package's relationships (openpyxl does not say which part holds them)."""

from __future__ import annotations

import datetime as dt
import posixpath
import zipfile
from pathlib import Path

from engine.office.left_out import uncached_formulas
from engine.office.model import PICTURE, Cell, OfficeDocument, OfficePage, Part, office_table

# Cells of one sheet taken into its table; the rows past it are left out, with a warning.
MAX_SHEET_CELLS = 1_000_000


def read_workbook(path: Path) -> OfficeDocument:
    import openpyxl

    # data_only: the cached values, never formulas; keep_links False: no external workbook.
    book = openpyxl.load_workbook(path, data_only=True, keep_links=False, keep_vba=False,
                                  rich_text=False)
    pages = []
    pictures = sheet_pictures(path)
    uncached = uncached_formulas(path)
    for sheet in book.worksheets:
        rows, cut = _sheet_rows(sheet)
        unread = (f"sheet {sheet.title!r}: only its first {cut:,} rows were read "
                  f"({MAX_SHEET_CELLS:,} cells)",) if cut else ()
        if uncached.get(sheet.title):
            unread += (f"sheet {sheet.title!r}: formula cells saved without their values "
                       f"({uncached[sheet.title]:,}; the program that wrote the file does not "
                       "calculate) are shown empty; open and save the file in a spreadsheet "
                       "application to keep the values",)
        parts = [Part("section_header", sheet.title, level=1)]
        if rows:
            parts.append(Part("table", table=office_table(rows)))
        parts.extend(Part(PICTURE, picture=member) for member in pictures.get(sheet.title, ()))
        pages.append(OfficePage(tuple(parts), title=sheet.title, unread=unread))
    book.close()
    return OfficeDocument("xlsx", tuple(pages))


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


_REL = "{http://schemas.openxmlformats.org/package/2006/relationships}Relationship"
_MAIN = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
_R_ID = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"


def sheet_pictures(path: Path) -> dict[str, list[str]]:
    """Sheet name -> the package members of the pictures its drawing shows, in order."""
    from lxml import etree

    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)
    found: dict[str, list[str]] = {}
    with zipfile.ZipFile(path) as archive:
        names = set(archive.namelist())

        def related(part: str, kind: str) -> list[str]:
            folder, name = posixpath.split(part)
            rels = posixpath.join(folder, "_rels", name + ".rels")
            if rels not in names:
                return []
            root = etree.fromstring(archive.read(rels), parser)
            return [_resolve(folder, r.get("Target", "")) for r in root.iter(_REL)
                    if r.get("Type", "").endswith("/" + kind)
                    and r.get("TargetMode") != "External"]

        if "xl/workbook.xml" not in names or "xl/_rels/workbook.xml.rels" not in names:
            return found
        relations = etree.fromstring(archive.read("xl/_rels/workbook.xml.rels"), parser)
        targets = {r.get("Id"): _resolve("xl", r.get("Target", "")) for r in relations.iter(_REL)}
        workbook = etree.fromstring(archive.read("xl/workbook.xml"), parser)
        for sheet in workbook.iter(_MAIN + "sheet"):
            part = targets.get(sheet.get(_R_ID), "")
            members = [image for drawing in related(part, "drawing")
                       for image in related(drawing, "image") if image in names]
            if members:
                found[sheet.get("name", "")] = members
    return found


def _resolve(folder: str, target: str) -> str:
    """A relationship's target as a member name: from the package root when it starts with
    "/", else from the folder of the part that names it."""
    if target.startswith("/"):
        return posixpath.normpath(target.lstrip("/"))
    return posixpath.normpath(posixpath.join(folder, target))
