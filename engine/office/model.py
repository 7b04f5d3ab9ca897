"""What an Office reader finds, before it becomes blocks: pages (the body of a text document,
a slide, a sheet) of parts in reading order. Plain data that crosses the identification
child's pipe as JSON (engine/input/probe.py reads Office documents in that bounded child)."""

from __future__ import annotations

import html
from dataclasses import asdict, dataclass, field
from typing import Any

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
    html: str = ""
    """Tables: `<table>` rows with rowspan/colspan, as the table recogniser writes them."""
    latex: str = ""
    """Display formulas: the document's own equation as LaTeX."""
    spans: tuple[tuple[str, str], ...] = ()
    """Text with inline formulas: (text, latex) pieces in order; latex "" for plain text."""
    picture: str = ""
    """Pictures: the member of the package holding the picture's bytes."""


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
                                                                          p.get("spans", ()))})
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


def table_html(rows: list[list[Cell]], header_rows: int = 0) -> str:
    """A `<table>` of `<tr>`/`<td>` rows with rowspan/colspan, the first `header_rows` rows in
    `<thead>` (the form engine/tables/recognizer.py writes); cell text escaped."""

    def row_html(row: list[Cell]) -> str:
        parts = []
        for cell in row:
            spans = "".join(f' {name}="{value}"' for name, value in
                            (("rowspan", cell.rowspan), ("colspan", cell.colspan)) if value > 1)
            parts.append(f"<td{spans}>{html.escape(cell.text, quote=False)}</td>")
        return "<tr>" + "".join(parts) + "</tr>"

    head = "".join(row_html(r) for r in rows[:header_rows])
    body = "".join(row_html(r) for r in rows[header_rows:])
    return ("<table>" + (f"<thead>{head}</thead>" if head else "")
            + (f"<tbody>{body}</tbody>" if body else "") + "</table>")


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
