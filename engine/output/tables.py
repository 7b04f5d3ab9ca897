"""A table's cells written as a GFM pipe table, for the Markdown where its cells allow one (our
HTML, which the JSON, the content list and the Markdown carry: engine/content/table_html.py)."""

from __future__ import annotations

from engine.output.escaping import escape_inline
from engine.content.tables import Table


def table_markdown(table: Table) -> str | None:
    """A GFM pipe table, its first row the header; None when a cell is merged (pipe tables
    cannot say so) or the table has no cell. Cell text is document text: escaped as such, and
    a pipe or a dollar sign in it cannot end the cell or open a formula."""
    rows = [row for row in table.by_row() if row]
    if table.merged or not rows:
        return None
    width = max(len(row) for row in rows)

    def cell(text: str) -> str:
        return escape_inline(" ".join(text.split())).replace("|", "\\|").replace("$", "\\$")

    lines = []
    for i, row in enumerate(rows):
        texts = [c.text for c in row] + [""] * (width - len(row))
        lines.append("| " + " | ".join(cell(t) for t in texts) + " |")
        if i == 0:
            lines.append("|" + "|".join(" --- " for _ in range(width)) + "|")
    return "\n".join(lines)
