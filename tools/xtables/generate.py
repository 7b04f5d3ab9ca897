"""Generated documents with tables broken at a page end, and look-alikes that must stay apart,
each with its truth: which page breaks a table crosses and how many rows the whole table has.

Pages are drawn with PyMuPDF (text, and a table's rules as vector lines) on A4, with a running
head and a page number in the margins. Every document has one table that reaches the foot of
its first page; what opens the next page is the family:

    join_rows      the table's rows go on (no header repeated)
    join_header    the table's header row is repeated, then its rows go on
    join_long      the table fills the whole second page and ends on the third
    apart_columns  another table, with more or fewer columns and a header of its own
    apart_places   another table, as many columns at other places, a header of its own
    apart_header   another table, the same columns at the same places, another header
    apart_text     body text

The look-alike tables have a caption over them in half of the documents (a caption that names
a new table is evidence the joiner may use; without it only the columns and header tell).
Prose is CPython's docstrings (tools/structure/text_source.py); table words come from it."""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass
from pathlib import Path

import pymupdf

from tools.structure.text_source import load_prose

REPO = Path(__file__).resolve().parents[2]
FAMILIES = ("join_rows", "join_header", "join_long", "apart_columns", "apart_places",
            "apart_header", "apart_text")
PAGE_W, PAGE_H = 595.0, 842.0
FONTS = (("helv", "hebo"), ("tiro", "tibo"))
STYLES = ("grid", "rules", "plain")


@dataclass(frozen=True)
class Look:
    """How a document is set: fonts, sizes, margins and the table's rules."""

    font: str
    bold: str
    size: float
    table_size: float
    top: float
    bottom: float
    left: float
    right: float
    style: str

    @property
    def row_h(self) -> float:
        return self.table_size * 1.9


@dataclass(frozen=True)
class Table:
    widths: tuple[float, ...]
    x0: float
    numeric: tuple[bool, ...]
    header: tuple[str, ...]


class Writer:
    """One document being drawn: its pages and the next free height on the last one."""

    def __init__(self, look: Look, title: str) -> None:
        self.doc = pymupdf.open()
        self.look = look
        self.title = title
        self.page = None
        self.y = 0.0
        self.new_page()

    @property
    def floor(self) -> float:
        return PAGE_H - self.look.bottom

    def new_page(self) -> None:
        look = self.look
        self.page = self.doc.new_page(width=PAGE_W, height=PAGE_H)
        number = self.doc.page_count
        self.page.insert_text((look.left, look.top - 22), self.title, fontname=look.font,
                              fontsize=look.size - 1.5)
        label = str(number)
        width = pymupdf.get_text_length(label, fontname=look.font, fontsize=look.size - 1)
        self.page.insert_text(((PAGE_W - width) / 2, PAGE_H - look.bottom + 30), label,
                              fontname=look.font, fontsize=look.size - 1)
        self.y = look.top

    def paragraph(self, text: str, bold: bool = False, size: float | None = None) -> bool:
        """The paragraph under the last thing drawn; False (nothing drawn) when it does not fit."""
        look = self.look
        size = size or look.size
        rect = pymupdf.Rect(look.left, self.y, PAGE_W - look.right, self.floor)
        font = look.bold if bold else look.font
        shape = self.page.new_shape()
        left = shape.insert_textbox(rect, text, fontname=font, fontsize=size)
        if left < 0:
            return False
        shape.commit()
        self.y = rect.y1 - left + size * 0.8
        return True

    def row(self, table: Table, cells: tuple[str, ...], bold: bool) -> None:
        look = self.look
        baseline = self.y + look.row_h * 0.68
        x = table.x0
        font = look.bold if bold else look.font
        for text, width, numeric in zip(cells, table.widths, table.numeric):
            length = pymupdf.get_text_length(text, fontname=font, fontsize=look.table_size)
            at = x + width - 5 - length if numeric and not bold else x + 5
            self.page.insert_text((at, baseline), text, fontname=font, fontsize=look.table_size)
            x += width
        self.y += look.row_h

    def rule(self, table: Table, y: float, width: float = 0.6) -> None:
        self.page.draw_line((table.x0, y), (table.x0 + sum(table.widths), y), width=width)

    def grid_lines(self, table: Table, top: float, rows: int) -> None:
        """A full grid over `rows` rows drawn from `top`."""
        h = self.look.row_h
        for r in range(rows + 1):
            self.rule(table, top + r * h)
        x = table.x0
        for width in (0.0,) + table.widths:
            x += width
            self.page.draw_line((x, top), (x, top + rows * h), width=0.6)

    def table_part(self, table: Table, rows: list[tuple[str, ...]], header: bool,
                   ends: bool) -> None:
        """The header (when asked) and `rows`, ruled as the look says; `ends`: the table's
        last part (a closing rule in the journal style)."""
        top = self.y
        look = self.look
        if header:
            if look.style == "rules":
                self.rule(table, self.y, 1.2)
            self.row(table, table.header, True)
            if look.style == "rules":
                self.rule(table, self.y)
        for cells in rows:
            self.row(table, cells, False)
        if look.style == "grid":
            self.grid_lines(table, top, len(rows) + header)
        elif look.style == "rules" and ends:
            self.rule(table, self.y, 1.2)
        self.y += look.row_h * 0.6

    def rows_that_fit(self) -> int:
        return int((self.floor - self.y) / self.look.row_h)


def _words(prose) -> list[str]:
    words = sorted({w for p in prose.paragraphs[:400] for w in re.findall(r"[A-Za-z]{3,12}", p)})
    return words


def make_table(rng: random.Random, words: list[str], body_w: float, left: float,
               cols: int | None = None, widths: tuple[float, ...] | None = None) -> Table:
    cols = cols or rng.randint(3, 6)
    if widths is None:
        total = body_w * rng.uniform(0.7, 1.0)
        shares = [rng.uniform(1.0, 2.2) for _ in range(cols)]
        shares[0] *= 1.6
        widths = tuple(total * s / sum(shares) for s in shares)
    x0 = left + (body_w - sum(widths)) * rng.choice([0.0, 0.5])
    numeric = (False,) + tuple(rng.random() < 0.75 for _ in range(cols - 1))
    if not any(numeric):
        numeric = (False, True) + numeric[2:]
    header = tuple(" ".join(rng.sample(words, rng.randint(1, 2))).title()[:int(w / 6)]
                   for w in widths)
    return Table(widths, x0, numeric, header)


def make_row(rng: random.Random, words: list[str], table: Table) -> tuple[str, ...]:
    cells = []
    for width, numeric in zip(table.widths, table.numeric):
        if numeric:
            cells.append(rng.choice([f"{rng.uniform(0, 1000):,.1f}", f"{rng.randint(1, 9999)}",
                                     f"{rng.uniform(0, 1):.3f}", f"{rng.randint(1, 99)}%"]))
        else:
            text = " ".join(rng.sample(words, rng.randint(1, 2)))
            cells.append(text[:max(4, int(width / 5.5))])
    return tuple(cells)


def other_widths(rng: random.Random, words: list[str], table: Table, body_w: float
                 ) -> tuple[float, ...]:
    """As many columns at places clearly not the table's: every inner edge moved 25 pt or more."""
    edges = _edges(table.widths)
    for _ in range(200):
        candidate = make_table(rng, words, body_w, 0.0, cols=len(table.widths)).widths
        if all(abs(a - b) >= 25 for a, b in zip(_edges(candidate), edges)):
            return candidate
    return tuple(reversed(table.widths))


def _edges(widths: tuple[float, ...]) -> list[float]:
    edges, x = [], 0.0
    for width in widths[:-1]:
        x += width
        edges.append(x)
    return edges


def generate_document(rng: random.Random, prose, words: list[str], family: str, name: str,
                      folder: Path) -> dict:
    font, bold = rng.choice(FONTS)
    size = rng.choice([9.5, 10.0, 11.0])
    look = Look(font, bold, size, size - rng.choice([0.0, 1.0, 1.5]), rng.uniform(60, 85),
                rng.uniform(60, 90), rng.uniform(55, 80), rng.uniform(55, 80),
                rng.choice(STYLES))
    body_w = PAGE_W - look.left - look.right
    writer = Writer(look, prose.title(rng))
    writer.paragraph(prose.title(rng), bold=True, size=size + 3)
    for text in prose.sample(rng, 3):
        if writer.y > PAGE_H * rng.uniform(0.25, 0.5) or not writer.paragraph(text):
            break
    table = make_table(rng, words, body_w, look.left)
    writer.paragraph(f"Table 1: {prose.title(rng)}", size=size - 0.5)
    header_rows = 1
    first_rows = [make_row(rng, words, table) for _ in range(writer.rows_that_fit() - header_rows)]
    writer.table_part(table, first_rows, header=True, ends=False)
    total_rows = header_rows + len(first_rows)
    boundaries = [{"pages": [1, 2], "joined": family.startswith("join")}]
    tables = 1
    writer.new_page()
    if family in ("join_rows", "join_header", "join_long"):
        repeat = family == "join_header" or (family == "join_long" and rng.random() < 0.5)
        if family == "join_long":
            rows = [make_row(rng, words, table) for _ in range(writer.rows_that_fit() - repeat)]
            writer.table_part(table, rows, header=repeat, ends=False)
            total_rows += len(rows)
            writer.new_page()
            boundaries.append({"pages": [2, 3], "joined": True})
        rows = [make_row(rng, words, table) for _ in range(rng.randint(2, 12))]
        writer.table_part(table, rows, header=repeat, ends=True)
        total_rows += len(rows)
    elif family == "apart_text":
        if rng.random() < 0.5:
            writer.paragraph(prose.title(rng), bold=True, size=size + 2)
        total_rows = None
    else:
        cols = len(table.widths)
        if family == "apart_columns":
            cols = rng.choice([c for c in (cols - 1, cols + 1, cols + 2) if 2 <= c <= 7])
            other = make_table(rng, words, body_w, look.left, cols=cols)
        elif family == "apart_places":
            other = make_table(rng, words, body_w, look.left,
                               widths=other_widths(rng, words, table, body_w))
        else:
            other = make_table(rng, words, body_w, look.left, widths=table.widths)
            other = Table(table.widths, table.x0, table.numeric, other.header)
        if rng.random() < 0.5:
            writer.paragraph(f"Table 2: {prose.title(rng)}", size=size - 0.5)
        rows = [make_row(rng, words, other) for _ in range(rng.randint(3, 12))]
        writer.table_part(other, rows, header=True, ends=True)
        tables = 2
        total_rows = None
    for text in prose.sample(rng, 2):
        if not writer.paragraph(text):
            break
    path = folder / f"{name}.pdf"
    writer.doc.save(path, garbage=3, deflate=True)
    truth = {"name": name, "family": family, "style": look.style, "font": look.font,
             "pages": writer.doc.page_count, "boundaries": boundaries, "tables": tables,
             "first_table_rows": total_rows, "columns": len(table.widths)}
    path.with_suffix(".json").write_text(json.dumps(truth, indent=1), encoding="utf-8")
    return truth


def scanned_copy(pdf: Path, target: Path, rng: random.Random, dpi: int = 200) -> None:
    """The document printed and scanned: each page a grey picture with a little noise and a
    slight blur, in a PDF with no text layer."""
    import cv2
    import numpy as np

    out = pymupdf.open()
    with pymupdf.open(pdf) as doc:
        for page in doc:
            pix = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY)
            image = np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.width)
            image = cv2.GaussianBlur(image, (3, 3), 0.6).astype(np.float32)
            noise = np.random.default_rng(rng.randint(0, 2**31)).normal(0, 9, image.shape)
            image = np.clip(image * 0.92 + 12 + noise, 0, 255).astype(np.uint8)
            ok, png = cv2.imencode(".png", image)
            sheet = out.new_page(width=page.rect.width, height=page.rect.height)
            sheet.insert_image(sheet.rect, stream=png.tobytes())
    out.save(target, garbage=3, deflate=True)


def generate(folder: Path, seed: int, count: int, scans: int = 0) -> list[dict]:
    """`count` documents of every family (and a scanned copy of the first `scans` of each)."""
    folder.mkdir(parents=True, exist_ok=True)
    prose = load_prose()
    words = _words(prose)
    rng = random.Random(seed)
    truths = []
    for family in FAMILIES:
        for index in range(count):
            name = f"{family}-{index:02d}"
            truth = generate_document(rng, prose, words, family, name, folder)
            truths.append(truth)
            if index < scans:
                scan = folder / f"{name}-scan.pdf"
                # Its own generator: the digital documents are the same with or without scans.
                scanned_copy(folder / f"{name}.pdf", scan, random.Random(f"{seed}-{name}"))
                scan.with_suffix(".json").write_text(json.dumps(
                    {**truth, "name": scan.stem, "scanned": True}, indent=1), encoding="utf-8")
    return truths
