"""What an Office reader finds, before it becomes blocks: pages (the body of a text document,
a slide, a sheet) of parts in reading order. Plain data that crosses the identification
child's pipe as JSON (engine/input/probe.py reads Office documents in that bounded child)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from engine.content.table_html import table_html
from engine.content.tables import CellEntry, Table, TableCell, place_rows

PICTURE = "picture"
"""A part's kind for a picture inside the document; the others are BlockKind values."""


@dataclass(frozen=True)
class Part:
    kind: str
    """A BlockKind value (title, section_header, text, list_item, table, formula, caption,
    footnote, code), or PICTURE."""
    text: str = ""
    level: int = 0
    """Headings: 1 = top. List items: how deep the list is nested (0 = top)."""
    table: Table | None = None
    """Tables: the cells with their spans, as the table recogniser makes them."""
    latex: str = ""
    """Display formulas: the document's own equation as LaTeX."""
    spans: tuple[tuple[str, str], ...] = ()
    """Text with inline formulas: (text, latex) pieces in order; latex "" for plain text."""
    picture: str = ""
    """Pictures: the member of the package holding the picture's bytes."""

    @property
    def html(self) -> str:
        """Tables: the cells as our HTML ("" for any other part)."""
        return table_html(self.table) if self.table is not None else ""


@dataclass(frozen=True)
class OfficePage:
    parts: tuple[Part, ...]
    title: str = ""
    """A slide's title or a sheet's name ("" for the body of a text document)."""
    width_pt: float = 612.0
    height_pt: float = 792.0
    """The page's size in points where the document says it (a slide, a section's paper)."""
    unread: tuple[str, ...] = ()
    """What of the page the reader left out, one line each (a chart, rows past the cap): the
    page is partial and says so."""


@dataclass(frozen=True)
class OfficeDocument:
    kind: str
    pages: tuple[OfficePage, ...]
    warnings: tuple[str, ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @staticmethod
    def from_json(data: dict[str, Any]) -> "OfficeDocument":
        pages = tuple(OfficePage(parts=tuple(Part(**{**p, "spans": tuple(tuple(s) for s in
                                                                          p.get("spans", ())),
                                                     "table": _table(p.get("table"))})
                                             for p in page["parts"]),
                                 title=page.get("title", ""), width_pt=page["width_pt"],
                                 height_pt=page["height_pt"],
                                 unread=tuple(page.get("unread", ())))
                      for page in data["pages"])
        return OfficeDocument(str(data["kind"]), pages, tuple(data.get("warnings", ())))


@dataclass(frozen=True)
class Cell:
    text: str
    rowspan: int = 1
    colspan: int = 1


def _table(data: dict[str, Any] | None) -> Table | None:
    """A table back from its JSON form (dataclasses.asdict's)."""
    if data is None:
        return None
    return Table(tuple(TableCell(**cell) for cell in data["cells"]), data["rows"], data["cols"],
                 data["header_rows"])


def office_table(rows: list[list[Cell]], header_rows: int = 0) -> Table:
    """Rows of cells as a table, the first `header_rows` rows its head (raises TableTooLarge
    past a million grid places, which the reader reports as a damaged document)."""
    return place_rows([[CellEntry(c.text, c.rowspan, c.colspan, r < header_rows) for c in row]
                       for r, row in enumerate(rows)], header_rows)


def joined(pieces: list[str]) -> str:
    """Text pieces as one line: runs of white space one space."""
    return " ".join("".join(pieces).split())


def painted_head(fills: list[list[str]]) -> int:
    """1 when a table's first row is painted as a head: its cells share one fill colour that no
    cell of the rows below has ("" for a cell without one), else 0. For a slide's table whose
    file lost its header-row marking (LibreOffice drops PowerPoint's `firstRow` and writes no
    `table:use-first-row-styles` when it saves a PPTX or an ODP) but kept the look the marking
    gave: the head's dark fill over banded rows. Banded rows without a head repeat the first
    row's fill two rows down, so at least three rows are needed."""
    if len(fills) < 3 or not fills[0]:
        return 0
    head = set(fills[0])
    if len(head) != 1 or "" in head:
        return 0
    below = {fill for row in fills[1:] for fill in row}
    return 0 if head & below else 1
