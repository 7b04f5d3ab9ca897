"""A Table's cells as a pandoc document-tree table (pandoc's JSON, API 1.23): the Word
export's tables are built from the typed cells, row and column spans included, never read back
from their HTML."""

from __future__ import annotations

import re

from engine.content.tables import Table, TableCell

_NO_ATTR = ["", [], []]
_ALIGN = {"t": "AlignDefault"}
# The spaces pandoc reads as Space: ASCII ones only (a no-break space stays in its word).
_SPACES = re.compile(r"[ \t\r\f\v]+")


def pandoc_inlines(text: str) -> list[dict]:
    """Plain text as pandoc inlines: words as Str, the spaces between them as Space, a line
    break inside a cell ("\\n") as LineBreak."""
    inlines: list[dict] = []
    for k, part in enumerate(text.split("\n")):
        if k:
            inlines.append({"t": "LineBreak"})
        for j, word in enumerate(w for w in _SPACES.split(part) if w):
            if j:
                inlines.append({"t": "Space"})
            inlines.append({"t": "Str", "c": word})
    return inlines


def _cell(cell: TableCell) -> list:
    inlines = pandoc_inlines(cell.text)
    return [_NO_ATTR, _ALIGN, cell.rowspan, cell.colspan,
            [{"t": "Plain", "c": inlines}] if inlines else []]


def _row(cells: list[TableCell]) -> list:
    return [_NO_ATTR, [_cell(cell) for cell in cells]]


def pandoc_table(table: Table, caption: str = "") -> dict:
    """The table as a pandoc Table block: its head rows in the table head, the rest in one
    body, `caption` (plain text) as its caption. Columns take an equal share of the width
    when a cell spans several, as pandoc gives them for such an HTML table."""
    rows = table.by_row()
    caption_inlines = pandoc_inlines(" ".join(caption.split()))
    cols = max(table.cols, 1)
    spanned = any(cell.rowspan > 1 or cell.colspan > 1 for cell in table.cells)
    width = {"t": "ColWidth", "c": 1 / cols} if spanned else {"t": "ColWidthDefault"}
    return {"t": "Table", "c": [
        _NO_ATTR,
        [None, [{"t": "Plain", "c": caption_inlines}] if caption_inlines else []],
        [[_ALIGN, width] for _ in range(cols)],
        [_NO_ATTR, [_row(row) for row in rows[:table.header_rows]]],
        [[_NO_ATTR, 0, [], [_row(row) for row in rows[table.header_rows:]]]],
        [_NO_ATTR, []],
    ]}
