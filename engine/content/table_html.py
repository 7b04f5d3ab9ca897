"""A table's cells written as our HTML (`<thead>`/`<tbody>`, spans as attributes), which the
JSON, the content list and the Markdown carry: the one place a Table becomes HTML."""

from __future__ import annotations

import html

from engine.content.tables import Table, TableCell


def table_html(table: Table) -> str:
    """A `<table>`: its head rows in `<thead>`, the rest in `<tbody>`, each row a `<tr>` of
    cells left to right (`<th>` for a header cell below the head), rowspan and colspan where
    over 1, the text escaped and a line break inside a cell as `<br>`."""
    rows = table.by_row()

    def row_html(row: list[TableCell], in_head: bool) -> str:
        parts = []
        for cell in row:
            tag = "th" if cell.header and not in_head else "td"
            spans = "".join(f' {name}="{value}"' for name, value in
                            (("rowspan", cell.rowspan), ("colspan", cell.colspan)) if value > 1)
            text = "<br>".join(html.escape(part, quote=False) for part in cell.text.split("\n"))
            parts.append(f"<{tag}{spans}>{text}</{tag}>")
        return "<tr>" + "".join(parts) + "</tr>"

    head = "".join(row_html(row, True) for row in rows[:table.header_rows])
    body = "".join(row_html(row, False) for row in rows[table.header_rows:])
    return (f"<table>{f'<thead>{head}</thead>' if head else ''}"
            f"{f'<tbody>{body}</tbody>' if body else ''}</table>")
