"""Tables for tests, written as the HTML people read (read by the eval's own table reader,
tools/eval/tables.py, never by the engine)."""

from __future__ import annotations

from engine.content.tables import CellEntry, Table, place_rows
from tools.eval.tables import html_tables


def table_of(html: str) -> Table:
    """The one table of `html` as typed cells: rows of its `<thead>` the head."""
    (source,) = html_tables(html)
    rows, head = [], 0
    for section in source.sections:
        for row in section.rows:
            in_head = section.tag == "thead"
            head += in_head and len(rows) == head
            rows.append([CellEntry(c.text, c.rowspan, c.colspan, c.is_header_tag or in_head)
                         for c in row])
    return place_rows(rows, head)
