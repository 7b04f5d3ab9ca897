"""Tables found in Markdown output: HTML and GFM pipe tables parsed into one shape."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from html.parser import HTMLParser

from tools.eval.markdown_text import normalise_whitespace, strip_emphasis


@dataclass(frozen=True)
class SourceCell:
    """One `<td>`/`<th>` or pipe-table cell as written, before it is placed on the grid."""

    text: str
    rowspan: int = 1
    colspan: int = 1
    is_header_tag: bool = False


@dataclass(frozen=True)
class TableSection:
    """A `thead`, `tbody` or `tfoot` and its rows; rows outside any section go in a tbody."""

    tag: str
    rows: tuple[tuple[SourceCell, ...], ...]


@dataclass(frozen=True)
class SourceTable:
    """A table as written: ordered sections of rows of cells."""

    sections: tuple[TableSection, ...]
    from_markdown: bool = False

    @property
    def rows(self) -> list[tuple[SourceCell, ...]]:
        return [row for section in self.sections for row in section.rows]


@dataclass(frozen=True)
class PlacedCell:
    """A cell placed on the table grid: top-left `row`/`col` and its spans."""

    text: str
    row: int
    col: int
    rowspan: int
    colspan: int
    is_heading: bool


def _span(value: str | None) -> int:
    """A rowspan/colspan attribute as a positive int; anything unreadable counts as 1."""
    try:
        span = int(value) if value is not None else 1
    except ValueError:
        return 1
    return span if span > 0 else 1


class _TableCollector(HTMLParser):
    """Collects every `<table>` of an HTML fragment; nested tables become tables of their own."""

    _SECTIONS = ("thead", "tbody", "tfoot")

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tables: list[tuple[int, SourceTable]] = []
        # One frame per open table: [order, sections, open section tag, rows, row, cell].
        self._stack: list[dict] = []
        self._opened = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            self._stack.append(
                {"order": self._opened, "sections": [], "section": None, "row": None, "cell": None}
            )
            self._opened += 1
            return
        if not self._stack:
            return
        frame = self._stack[-1]
        if tag in self._SECTIONS:
            self._close_row(frame)
            frame["section"] = (tag, [])
            frame["sections"].append(frame["section"])
        elif tag == "tr":
            self._close_row(frame)
            frame["row"] = []
        elif tag in ("td", "th"):
            self._close_cell(frame)
            if frame["row"] is None:
                frame["row"] = []
            named = dict(attrs)
            frame["cell"] = {
                "parts": [],
                "rowspan": _span(named.get("rowspan")),
                "colspan": _span(named.get("colspan")),
                "th": tag == "th",
            }
        elif tag == "br" and frame["cell"] is not None:
            frame["cell"]["parts"].append(" ")

    def handle_endtag(self, tag: str) -> None:
        if not self._stack:
            return
        frame = self._stack[-1]
        if tag == "table":
            self._close_row(frame)
            self._stack.pop()
            sections = tuple(TableSection(t, tuple(rows)) for t, rows in frame["sections"] if rows)
            self.tables.append((frame["order"], SourceTable(sections)))
        elif tag in ("td", "th"):
            self._close_cell(frame)
        elif tag == "tr":
            self._close_row(frame)
        elif tag in self._SECTIONS:
            self._close_row(frame)
            frame["section"] = None

    def handle_data(self, data: str) -> None:
        if self._stack and self._stack[-1]["cell"] is not None:
            self._stack[-1]["cell"]["parts"].append(data)

    def _close_cell(self, frame: dict) -> None:
        cell = frame["cell"]
        if cell is None:
            return
        text = normalise_whitespace("".join(cell["parts"]))
        frame["row"].append(SourceCell(text, cell["rowspan"], cell["colspan"], cell["th"]))
        frame["cell"] = None

    def _close_row(self, frame: dict) -> None:
        self._close_cell(frame)
        if frame["row"] is None:
            return
        if frame["section"] is None:
            # Rows outside a section belong to an implied tbody, as in an HTML5 parser.
            frame["section"] = ("tbody", [])
            frame["sections"].append(frame["section"])
        frame["section"][1].append(tuple(frame["row"]))
        frame["row"] = None

    def finish(self) -> list[SourceTable]:
        self.close()
        while self._stack:  # unclosed tables still count, as a browser would show them
            self.handle_endtag("table")
        return [table for _, table in sorted(self.tables, key=lambda pair: pair[0])]


def html_tables(text: str) -> list[SourceTable]:
    """Every HTML table in `text`, outermost first, in document order."""
    if "<table" not in text.lower():
        return []
    collector = _TableCollector()
    collector.feed(text)
    return collector.finish()


_PIPE_SEPARATOR = re.compile(r"^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$")
_UNESCAPED_PIPE = re.compile(r"(?<!\\)\|")
_BR_TAG = re.compile(r"<br\s*/?>", re.IGNORECASE)


def _split_pipe_row(line: str) -> tuple[SourceCell, ...]:
    parts = _UNESCAPED_PIPE.split(line.strip())
    if parts and not parts[0].strip():
        parts = parts[1:]
    if parts and not parts[-1].strip():
        parts = parts[:-1]
    cells = []
    for part in parts:
        text = strip_emphasis(_BR_TAG.sub(" ", part.replace("\\|", "|")))
        cells.append(SourceCell(normalise_whitespace(html.unescape(text))))
    return tuple(cells)


def _pipe_table(lines: list[str]) -> SourceTable | None:
    separators = [i for i, line in enumerate(lines) if _PIPE_SEPARATOR.match(line)]
    rows = [_split_pipe_row(line) for i, line in enumerate(lines) if i not in separators]
    rows = [row for row in rows if row]
    if not rows:
        return None
    # GFM: one header row, then the delimiter row. Without that shape every row is body.
    header_rows = 1 if separators and separators[0] == 1 else 0
    sections = []
    if header_rows:
        sections.append(TableSection("thead", tuple(rows[:header_rows])))
    if rows[header_rows:]:
        sections.append(TableSection("tbody", tuple(rows[header_rows:])))
    return SourceTable(tuple(sections), from_markdown=True)


def pipe_tables(markdown: str) -> list[SourceTable]:
    """Every pipe table in `markdown`: runs of two or more lines that contain a `|`.

    Lenient on purpose (no delimiter row required), so that a tool's nearly-GFM table is
    still read as a table.
    """
    tables: list[SourceTable] = []
    block: list[str] = []
    for line in [*markdown.splitlines(), ""]:
        if _UNESCAPED_PIPE.search(line):
            block.append(line)
            continue
        if len(block) >= 2 and (table := _pipe_table(block)) is not None:
            tables.append(table)
        block = []
    return tables


def all_tables(markdown: str) -> list[SourceTable]:
    """Pipe tables and HTML tables of a Markdown document (pipe tables first)."""
    return [*pipe_tables(markdown), *html_tables(markdown)]


def table_to_html(table: SourceTable) -> str:
    """Serialise a table as `<table>` HTML with thead/tbody and span attributes."""
    parts = ["<table>"]
    for section in table.sections:
        parts.append(f"<{section.tag}>")
        for row in section.rows:
            parts.append("<tr>")
            for cell in row:
                spans = ""
                if cell.rowspan > 1:
                    spans += f' rowspan="{cell.rowspan}"'
                if cell.colspan > 1:
                    spans += f' colspan="{cell.colspan}"'
                parts.append(f"<td{spans}>{html.escape(cell.text, quote=False)}</td>")
            parts.append("</tr>")
        parts.append(f"</{section.tag}>")
    parts.append("</table>")
    return "".join(parts)


def markdown_table_to_html(markdown: str) -> str:
    """The first pipe table in `markdown` as HTML (header row in thead); "" if there is none."""
    tables = pipe_tables(markdown)
    return table_to_html(tables[0]) if tables else ""


_HTML_TABLE_BLOCK = re.compile(r"<table\b.*?</table\s*>", re.IGNORECASE | re.DOTALL)


def first_table_html(markdown: str) -> str:
    """The first table of a tool's output as HTML: a `<table>` block, else a pipe table."""
    match = _HTML_TABLE_BLOCK.search(markdown)
    if match:
        return match.group(0)
    return markdown_table_to_html(markdown)


def place_cells(table: SourceTable) -> tuple[list[PlacedCell], list[list[int | None]]]:
    """Lay the cells on a grid honouring spans.

    Returns the placed cells and the occupancy grid, where each slot holds the index of the
    cell covering it (None for holes left by short rows).
    """
    placed: list[PlacedCell] = []
    grid: list[list[int | None]] = []
    for row_index, (section_tag, row) in enumerate(
        (section.tag, row) for section in table.sections for row in section.rows
    ):
        while len(grid) <= row_index:
            grid.append([])
        col = 0
        for cell in row:
            while col < len(grid[row_index]) and grid[row_index][col] is not None:
                col += 1
            if table.from_markdown:
                heading = row_index == 0 or col == 0
            else:
                heading = cell.is_header_tag or section_tag == "thead"
            index = len(placed)
            placed.append(
                PlacedCell(cell.text, row_index, col, cell.rowspan, cell.colspan, heading)
            )
            for r in range(row_index, row_index + cell.rowspan):
                while len(grid) <= r:
                    grid.append([])
                for c in range(col, col + cell.colspan):
                    while len(grid[r]) <= c:
                        grid[r].append(None)
                    grid[r][c] = index
            col += cell.colspan
    width = max((len(row) for row in grid), default=0)
    for row in grid:
        row.extend([None] * (width - len(row)))
    return placed, grid
