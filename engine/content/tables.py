"""A table as typed content: cells with their place in the grid, their spans, text and header
flag. The table recogniser, the Office readers and the join of tables across pages make it;
the HTML and Markdown writers (engine/content/table_html.py, engine/output/tables.py) and the
exports read it."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

MAX_SPAN = 10_000
"""The largest span a cell may claim: no table anyone reads comes near it, and a grid that a
rowspan of a million would make is refused before it is built."""
MAX_GRID_CELLS = 1_000_000
"""Grid places a table may cover before it is refused as not a table anyone could use."""


class TableTooLarge(ValueError):
    """The table's grid would cover more than MAX_GRID_CELLS places."""


@dataclass(frozen=True)
class TableCell:
    row: int
    col: int
    """0-based place of the cell's top-left corner."""
    text: str
    """The cell's text; a line break inside the cell is "\\n"."""
    rowspan: int = 1
    colspan: int = 1
    header: bool = False
    """A header cell: in the table's head rows, or a header cell below them."""


@dataclass(frozen=True)
class Table:
    cells: tuple[TableCell, ...]
    """In reading order: row by row, each row left to right."""
    rows: int
    """Rows of the grid, a row that holds no cell of its own (every place covered by a rowspan
    from above) included."""
    cols: int
    header_rows: int = 0
    """Leading rows that form the table's head (HTML's `<thead>`)."""

    @property
    def merged(self) -> tuple[TableCell, ...]:
        return tuple(c for c in self.cells if c.rowspan > 1 or c.colspan > 1)

    def by_row(self) -> list[list[TableCell]]:
        """The cells of each row (an empty list for a row without cells), left to right."""
        rows: list[list[TableCell]] = [[] for _ in range(self.rows)]
        for cell in self.cells:
            rows[cell.row].append(cell)
        return [sorted(row, key=lambda c: c.col) for row in rows]


@dataclass(frozen=True)
class CellEntry:
    """A cell as a row lists it, before it has a place in the grid."""

    text: str
    rowspan: int = 1
    colspan: int = 1
    header: bool = False


def place_rows(rows: Sequence[Sequence[CellEntry]], header_rows: int = 0) -> Table:
    """The grid of rows of cells: each cell placed left to right in the first free column of
    its row, past columns a rowspan from above still covers; a rowspan reaching past the last
    row is cut there, spans held to 1..MAX_SPAN. Raises TableTooLarge past MAX_GRID_CELLS."""
    covered: set[tuple[int, int]] = set()
    cells: list[TableCell] = []
    cols = 0
    for r, row in enumerate(rows):
        col = 0
        for entry in row:
            while (r, col) in covered:
                col += 1
            rowspan = max(1, min(entry.rowspan, MAX_SPAN, len(rows) - r))
            colspan = max(1, min(entry.colspan, MAX_SPAN))
            if len(covered) + rowspan * colspan > MAX_GRID_CELLS:
                raise TableTooLarge(f"the table covers more than {MAX_GRID_CELLS:,} cells")
            for dr in range(rowspan):
                for dc in range(colspan):
                    covered.add((r + dr, col + dc))
            cells.append(TableCell(r, col, entry.text, rowspan, colspan, entry.header))
            col += colspan
            cols = max(cols, col)
    return Table(tuple(cells), len(rows), cols, header_rows)


def leading_header_rows(table_rows: Iterable[Sequence[TableCell]]) -> int:
    """How many leading rows hold cells that are all header cells (a row without cells ends
    the count)."""
    count = 0
    for row in table_rows:
        if not row or not all(c.header for c in row):
            break
        count += 1
    return count


def with_head(cells: Iterable[TableCell], rows: int, cols: int) -> Table:
    """A table of `cells` (put in reading order) whose head is its leading rows of header
    cells."""
    cells = tuple(sorted(cells, key=lambda c: (c.row, c.col)))
    table = Table(cells, rows, cols)
    return Table(cells, rows, cols, leading_header_rows(table.by_row()))


def filled_rows(table: Table) -> Table:
    """The table as the grid a reader of its HTML sees: rows that hold no cell left out and
    the cells placed again, each cell's text with its runs of white space one space (line by
    line), a cell of a head row a header cell. Spreadsheets, word processors and the join of
    tables across pages work on this grid."""
    rows = [[CellEntry(_squeezed(c.text), c.rowspan, c.colspan,
                       c.header or c.row < table.header_rows) for c in row]
            for row in table.by_row() if row]
    placed = place_rows(rows)
    return Table(placed.cells, placed.rows, placed.cols, leading_header_rows(placed.by_row()))


def _squeezed(text: str) -> str:
    return "\n".join(" ".join(part.split()) for part in text.split("\n")).strip()
