"""Our tables' HTML read back into a grid (each cell's text, place and spans, as spreadsheets and
word processors need them) and a grid written as our HTML again."""

from __future__ import annotations

import html as html_lib
from dataclasses import dataclass
from html.parser import HTMLParser

# The largest span a cell may claim: a table we wrote never comes near it, and a grid that
# a rowspan of a million would make is refused before it is built.
MAX_SPAN = 10_000
# Grid positions a table may cover before it is refused as not a table anyone could use.
MAX_GRID_CELLS = 1_000_000


class TableTooLarge(ValueError):
    """The table's grid would cover more than MAX_GRID_CELLS positions."""


@dataclass(frozen=True)
class GridCell:
    row: int
    col: int
    """0-based place of the cell's top-left corner."""
    text: str
    rowspan: int = 1
    colspan: int = 1
    header: bool = False
    """In <thead>, or a <th>."""


@dataclass(frozen=True)
class TableGrid:
    cells: tuple[GridCell, ...]
    rows: int
    cols: int

    @property
    def merged(self) -> tuple[GridCell, ...]:
        return tuple(c for c in self.cells if c.rowspan > 1 or c.colspan > 1)


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.rows: list[list[tuple[str, int, int, bool]]] = []
        self._in_head = False
        self._cell: list[str] | None = None
        self._cell_attrs: tuple[int, int, bool] = (1, 1, False)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "thead":
            self._in_head = True
        elif tag in ("tbody", "tfoot"):
            self._in_head = False
        elif tag == "tr":
            self._close_cell()
            self.rows.append([])
        elif tag in ("td", "th"):
            self._close_cell()
            values = dict(attrs)
            self._cell = []
            self._cell_attrs = (_span(values.get("rowspan")), _span(values.get("colspan")),
                                self._in_head or tag == "th")
        elif tag == "br" and self._cell is not None:
            self._cell.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th"):
            self._close_cell()
        elif tag == "thead":
            self._in_head = False

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)

    def _close_cell(self) -> None:
        if self._cell is None:
            return
        if not self.rows:
            self.rows.append([])
        text = "\n".join(" ".join(part.split()) for part in "".join(self._cell).split("\n"))
        self.rows[-1].append((text.strip(), *self._cell_attrs))
        self._cell = None


def _span(value: str | None) -> int:
    try:
        return max(1, min(int(value or 1), MAX_SPAN))
    except ValueError:
        return 1


def read_table(html: str) -> TableGrid:
    """The grid of one HTML table: cells placed left to right in the first free column of
    their row, past columns a rowspan from above still covers; a rowspan past the last row is
    cut there."""
    reader = _Reader()
    reader.feed(html)
    reader.close()
    reader._close_cell()
    rows = [row for row in reader.rows if row]
    covered: set[tuple[int, int]] = set()
    cells: list[GridCell] = []
    cols = 0
    for r, row in enumerate(rows):
        col = 0
        for text, rowspan, colspan, header in row:
            while (r, col) in covered:
                col += 1
            rowspan = min(rowspan, len(rows) - r)
            if len(covered) + rowspan * colspan > MAX_GRID_CELLS:
                raise TableTooLarge(f"the table covers more than {MAX_GRID_CELLS:,} cells")
            for dr in range(rowspan):
                for dc in range(colspan):
                    covered.add((r + dr, col + dc))
            cells.append(GridCell(r, col, text, rowspan, colspan, header))
            col += colspan
            cols = max(cols, col)
    return TableGrid(tuple(cells), len(rows), cols)


def write_table(grid: TableGrid) -> str:
    """The grid as our table HTML (engine/tables/recognizer.render_html's shape): the leading
    rows whose every cell is a header in `<thead>`, the rest in `<tbody>`, spans as attributes,
    line breaks inside a cell as `<br>`; read_table gives the same grid back."""
    by_row: list[list[GridCell]] = [[] for _ in range(grid.rows)]
    for cell in grid.cells:
        by_row[cell.row].append(cell)
    head_rows = 0
    while head_rows < grid.rows and by_row[head_rows] and all(c.header for c in by_row[head_rows]):
        head_rows += 1

    def row_html(row: list[GridCell], in_head: bool) -> str:
        parts = []
        for cell in sorted(row, key=lambda c: c.col):
            tag = "th" if cell.header and not in_head else "td"
            spans = "".join(f' {name}="{value}"' for name, value in
                            (("rowspan", cell.rowspan), ("colspan", cell.colspan)) if value > 1)
            text = "<br>".join(html_lib.escape(part, quote=False)
                               for part in cell.text.split("\n"))
            parts.append(f"<{tag}{spans}>{text}</{tag}>")
        return "<tr>" + "".join(parts) + "</tr>"

    head = "".join(row_html(row, True) for row in by_row[:head_rows])
    body = "".join(row_html(row, False) for row in by_row[head_rows:])
    return (f"<table>{f'<thead>{head}</thead>' if head else ''}"
            f"{f'<tbody>{body}</tbody>' if body else ''}</table>")
