"""Page layouts with known reading order: each family draws a born-digital page with PyMuPDF and
returns the Markdown a person would write for it, in the order a person reads it.

Families: `paper` (title and abstract across, two columns, a float at the top or bottom),
`newspaper` (masthead, a headline over three of four columns beside a one-column article, a
second story across all columns), `magazine` (three columns cut by a figure across the page:
read above the figure column by column, then below it), `textbook` (a main column with a side
note, a boxed example, a numbered exercise list in two columns) and `single` (one column).
Side notes are read after the main column; figures are read where they cut the text. Half the
pages store their text out of reading order, as many PDF producers do."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import pymupdf

from tools.structure.text_source import Prose

A4 = (595.0, 842.0)
SERIF, SERIF_BOLD = pymupdf.Font("tiro"), pymupdf.Font("tibo")
SANS, SANS_BOLD = pymupdf.Font("helv"), pymupdf.Font("hebo")
FAMILIES = ("paper", "newspaper", "magazine", "textbook", "single")


@dataclass
class Sheet:
    """One page being drawn and its truth, piece by piece in reading order."""

    page: pymupdf.Page
    truth: list[str] = field(default_factory=list)
    writers: list[pymupdf.TextWriter] = field(default_factory=list)
    """Text drawn so far; `finish` writes it to the page, in reading order or shuffled."""

    def words(self, rect: pymupdf.Rect, text: str, font: pymupdf.Font, size: float,
              align: int = 3) -> tuple[str, float]:
        """Fill `rect` with as much of `text` as fits; returns (what did not fit, the y below
        the last line placed, or rect.y0 when nothing fit)."""
        if rect.height < size * 1.3 or rect.width < size * 3:
            return text, rect.y0
        writer = pymupdf.TextWriter(self.page.rect)
        rest = writer.fill_textbox(rect, text, font=font, fontsize=size, align=align)
        left = " ".join(line for line, _ in rest).split()
        words = text.split()
        placed = len(words) - len(left)
        if placed <= 0:
            return text, rect.y0
        self.writers.append(writer)
        return " ".join(left), writer.last_point.y + size * 0.45

    def heading(self, rect: pymupdf.Rect, text: str, level: int, size: float,
                font: pymupdf.Font = SANS_BOLD, align: int = 0) -> float:
        drawn = len(self.writers)
        rest, bottom = self.words(rect, text, font, size, align)
        if rest:
            del self.writers[drawn:]  # nothing of a heading that does not fit is drawn
            raise ValueError("heading does not fit")
        self.truth.append(f"{'#' * level} {text}")
        return bottom + size * 0.5

    def flow(self, columns: list[pymupdf.Rect], items: list[tuple[str, str]], size: float,
             gap: float = 4.0, heading_level: int = 3) -> tuple[list[tuple[str, str]], float]:
        """Headings ("h") and paragraphs ("p") poured into the columns in order; returns the
        items that did not fit and the y below the last one placed. A paragraph split across
        columns is one paragraph of truth."""
        column, y = 0, columns[0].y0
        items = list(items)
        while items and column < len(columns):
            kind, text = items[0]
            rect = pymupdf.Rect(columns[column].x0, y, columns[column].x1, columns[column].y1)
            if kind == "h":
                if rect.height < size * 5:  # no heading alone at a column's foot
                    column, y = column + 1, columns[min(column + 1, len(columns) - 1)].y0
                    continue
                y = self.heading(rect, text, heading_level, size * 1.15) + 1
                items.pop(0)
                continue
            rest, bottom = self.words(rect, text, SERIF, size)
            placed = text[:len(text) - len(rest)].strip() if rest else text
            if bottom > rect.y0:
                self._paragraph(placed, continues=kind == "cont")
            if rest:
                items[0] = ("cont", rest)
                column += 1
                y = columns[column].y0 if column < len(columns) else y
            else:
                items.pop(0)
                y = bottom + gap
        return items, y

    def _paragraph(self, text: str, continues: bool) -> None:
        if continues and self.truth:
            self.truth[-1] = f"{self.truth[-1]} {text}"
        else:
            self.truth.append(text)

    def figure(self, rect: pymupdf.Rect, rng: random.Random) -> None:
        """A drawing without words: a frame, axes and a curve or bars."""
        shape = self.page.new_shape()
        shape.draw_rect(rect)
        x0, y0, x1, y1 = rect.x0 + 12, rect.y0 + 10, rect.x1 - 12, rect.y1 - 10
        shape.draw_line((x0, y1), (x1, y1))
        shape.draw_line((x0, y0), (x0, y1))
        bars = rng.randint(4, 9)
        for i in range(bars):
            h = rng.uniform(0.2, 0.95) * (y1 - y0)
            bx = x0 + (i + 0.3) * (x1 - x0) / bars
            shape.draw_rect(pymupdf.Rect(bx, y1 - h, bx + 0.5 * (x1 - x0) / bars, y1))
        shape.finish(color=(0.2, 0.2, 0.2), fill=(0.75, 0.78, 0.85), width=0.8)
        shape.commit()

    def finish(self, rng: random.Random, shuffled: bool) -> None:
        """The text into the page's content stream: in reading order, or (as many producers
        do) in another order, so that the PDF's own text order is not the truth."""
        order = list(self.writers)
        if shuffled:
            rng.shuffle(order)
        for writer in order:
            writer.write_text(self.page)

    def rule(self, y: float, x0: float, x1: float) -> None:
        self.page.draw_line((x0, y), (x1, y), color=(0, 0, 0), width=0.8)

    def folio(self, number: int) -> None:
        """A page number at the foot: furniture, not part of the truth."""
        self.page.insert_text((A4[0] / 2 - 6, A4[1] - 24), str(number), fontname="helv",
                              fontsize=9)


def body(prose: Prose, rng: random.Random, paragraphs: int, sections: int = 0,
         numbered: bool = False) -> list[tuple[str, str]]:
    items: list[tuple[str, str]] = []
    per = max(1, paragraphs // max(sections, 1))
    for i in range(paragraphs):
        if sections and i % per == 0:
            title = prose.title(rng)
            items.append(("h", f"{i // per + 1} {title}" if numbered else title))
        items.append(("p", prose.sample(rng, 1)[0]))
    return items


def columns(x0: float, x1: float, y0: float, y1: float, count: int, gutter: float
            ) -> list[pymupdf.Rect]:
    width = (x1 - x0 - gutter * (count - 1)) / count
    return [pymupdf.Rect(x0 + i * (width + gutter), y0, x0 + i * (width + gutter) + width, y1)
            for i in range(count)]


def paper(sheet: Sheet, prose: Prose, rng: random.Random) -> None:
    left, right, top, foot = 56.0, A4[0] - 56.0, 60.0, A4[1] - 50.0
    y = sheet.heading(pymupdf.Rect(left, top, right, top + 60), prose.title(rng), 1, 17,
                      align=1)
    authors = "Ada Lovelace, Alan Turing and Grace Hopper"
    _, y = sheet.words(pymupdf.Rect(left, y, right, y + 20), authors, SANS, 10, align=1)
    sheet.truth.append(authors)
    y = sheet.heading(pymupdf.Rect(left + 30, y + 6, right - 30, y + 30), "Abstract", 2, 10,
                      align=1)
    abstract = prose.sample(rng, 1)[0]
    rest, y = sheet.words(pymupdf.Rect(left + 30, y, right - 30, y + 110), abstract, SERIF, 9)
    sheet.truth.append(abstract[:len(abstract) - len(rest)].strip())
    y += 10
    float_at = rng.choice(("top", "bottom", "none"))
    height = rng.uniform(150, 220)
    caption = f"Figure {rng.randint(1, 9)}. {prose.sample(rng, 1)[0]}"
    if float_at == "top":
        sheet.figure(pymupdf.Rect(left + 40, y, right - 40, y + height), rng)
        rest, y = sheet.words(pymupdf.Rect(left, y + height + 6, right, y + height + 60),
                              caption, SERIF, 8.5)
        sheet.truth.append(caption[:len(caption) - len(rest)].strip())
        y += 12
    bottom = foot - (height + 70 if float_at == "bottom" else 0)
    # A paper's numbered sections are the abstract's siblings, not under it.
    sheet.flow(columns(left, right, y, bottom, 2, 18), body(prose, rng, 14, 4, True), 9.5,
               heading_level=2)
    if float_at == "bottom":
        sheet.figure(pymupdf.Rect(left + 40, bottom + 12, right - 40, bottom + 12 + height), rng)
        rest, _ = sheet.words(pymupdf.Rect(left, bottom + height + 18, right, foot + 10),
                              caption, SERIF, 8.5)
        sheet.truth.append(caption[:len(caption) - len(rest)].strip())
    sheet.folio(rng.randint(2, 300))


def newspaper(sheet: Sheet, prose: Prose, rng: random.Random) -> None:
    left, right, top, foot = 30.0, A4[0] - 30.0, 30.0, A4[1] - 36.0
    name = f"The {rng.choice(('Morning', 'Evening', 'Daily', 'Weekly'))} " \
           f"{rng.choice(('Herald', 'Courier', 'Observer', 'Gazette', 'Ledger'))}"
    y = sheet.heading(pymupdf.Rect(left, top, right, top + 50), name, 1, 30,
                      font=SERIF_BOLD, align=1)
    sheet.rule(y - 4, left, right)
    cols = columns(left, right, y + 6, foot, 4, 12)
    split = y + rng.uniform(0.45, 0.6) * (foot - y)
    wide = pymupdf.Rect(cols[0].x0, cols[0].y0, cols[2].x1, split)
    head_y = sheet.heading(wide, prose.title(rng), 2, 19, font=SERIF_BOLD)
    sheet.flow([pymupdf.Rect(c.x0, head_y, c.x1, split) for c in cols[:3]],
               body(prose, rng, 9), 8.5)
    side = pymupdf.Rect(cols[3].x0, cols[3].y0, cols[3].x1, split)
    side_y = sheet.heading(side, prose.title(rng), 2, 12, font=SERIF_BOLD)
    sheet.flow([pymupdf.Rect(side.x0, side_y, side.x1, split)], body(prose, rng, 4), 8.5)
    sheet.rule(split + 4, left, right)
    lower_y = sheet.heading(pymupdf.Rect(left, split + 10, right, split + 60),
                            prose.title(rng), 2, 17, font=SERIF_BOLD)
    sheet.flow([pymupdf.Rect(c.x0, lower_y, c.x1, foot) for c in cols], body(prose, rng, 10),
               8.5)


def magazine(sheet: Sheet, prose: Prose, rng: random.Random) -> None:
    left, right, top, foot = 48.0, A4[0] - 48.0, 54.0, A4[1] - 50.0
    y = sheet.heading(pymupdf.Rect(left, top, right, top + 50), prose.title(rng), 1, 20)
    cut = y + rng.uniform(0.3, 0.45) * (foot - y)
    height = rng.uniform(140, 200)
    cols = columns(left, right, y + 4, cut, 3, 14)
    sheet.flow(cols, body(prose, rng, 6), 9)
    sheet.figure(pymupdf.Rect(left, cut + 8, right, cut + 8 + height), rng)
    caption = f"Figure {rng.randint(1, 9)}. {prose.sample(rng, 1)[0]}"
    rest, below = sheet.words(pymupdf.Rect(left, cut + height + 12, right, cut + height + 60),
                              caption, SANS, 8)
    sheet.truth.append(caption[:len(caption) - len(rest)].strip())
    sheet.flow(columns(left, right, below + 10, foot, 3, 14), body(prose, rng, 8), 9)
    sheet.folio(rng.randint(2, 120))


def textbook(sheet: Sheet, prose: Prose, rng: random.Random) -> None:
    left, main_right, side_left, right = 56.0, 400.0, 416.0, A4[0] - 40.0
    top, foot = 60.0, A4[1] - 56.0
    number = rng.randint(1, 12)
    y = sheet.heading(pymupdf.Rect(left, top, main_right, top + 50),
                      f"{number}.{rng.randint(1, 9)} {prose.title(rng)}", 2, 15)
    _, y = sheet.flow([pymupdf.Rect(left, y, main_right, y + 200)], body(prose, rng, 3), 10)
    y += 10
    box = pymupdf.Rect(left, y, main_right, y + rng.uniform(90, 130))
    sheet.page.draw_rect(box, color=(0.3, 0.3, 0.5), fill=(0.93, 0.94, 0.98), width=0.8)
    inner = pymupdf.Rect(box.x0 + 8, box.y0 + 6, box.x1 - 8, box.y1 - 4)
    head = sheet.heading(inner, f"Example {number}.{rng.randint(1, 9)}", 4, 10)
    text = prose.sample(rng, 1)[0]
    left_over, _ = sheet.words(pymupdf.Rect(inner.x0, head, inner.x1, inner.y1), text, SERIF, 9.5)
    sheet.truth.append(text[:len(text) - len(left_over)].strip())
    y = box.y1 + 16
    y = sheet.heading(pymupdf.Rect(left, y, main_right, y + 30), "Exercises", 3, 11)
    first = rng.randint(1, 20)
    items = [f"{first + i}. {_exercise(rng)}" for i in range(rng.choice((6, 8, 10)))]
    half = (len(items) + 1) // 2
    for column, chunk in zip(columns(left, main_right, y, foot, 2, 14), (items[:half],
                                                                          items[half:])):
        cy = column.y0
        for item in chunk:
            spare, cy = sheet.words(pymupdf.Rect(column.x0, cy, column.x1, column.y1), item,
                                    SERIF, 9.5, align=0)
            if spare:
                break
            sheet.truth.append(item)
            cy += 5
    note = prose.sample(rng, 1)[0]
    note_top = rng.uniform(top + 120, 420)
    side = pymupdf.Rect(side_left, note_top, right, note_top + 220)
    sheet.page.draw_rect(side, color=(0.5, 0.4, 0.2), fill=(0.98, 0.95, 0.88), width=0.6)
    head = sheet.heading(pymupdf.Rect(side.x0 + 6, side.y0 + 6, side.x1 - 6, side.y1), "Note", 4,
                         9.5)
    spare, _ = sheet.words(pymupdf.Rect(side.x0 + 6, head, side.x1 - 6, side.y1 - 4), note, SANS,
                           8, align=0)
    sheet.truth.append(note[:len(note) - len(spare)].strip())
    sheet.folio(rng.randint(2, 400))


def _exercise(rng: random.Random) -> str:
    a, b, c = rng.randint(2, 9), rng.randint(1, 9), rng.randint(1, 9)
    return rng.choice((
        f"Find the derivative of f(x) = x^{a} - {b}x + {c}.",
        f"Solve {a}x + {b} = {c * a} for x.",
        f"Show that the sum of the first {a * 10} odd numbers is a square.",
        f"Evaluate the integral of {a}x from {b} to {b + c}.",
        f"Explain why a list of {a} items has {a * (a - 1) // 2} pairs.",
    ))


def single(sheet: Sheet, prose: Prose, rng: random.Random) -> None:
    left, right, top, foot = 72.0, A4[0] - 72.0, 72.0, A4[1] - 60.0
    y = sheet.heading(pymupdf.Rect(left, top, right, top + 50), prose.title(rng), 1, 16)
    sheet.flow([pymupdf.Rect(left, y, right, foot)], body(prose, rng, 8, 2), 10.5)
    sheet.folio(rng.randint(2, 200))


DRAW = {"paper": paper, "newspaper": newspaper, "magazine": magazine, "textbook": textbook,
        "single": single}


def draw_page(family: str, prose: Prose, seed: int) -> tuple[bytes, str]:
    """A one-page PDF of the family and its Markdown truth, the same for the same seed."""
    return draw_sheet(Sheet, DRAW[family], prose, seed)


def draw_sheet(make_sheet, draw, prose: Prose, seed: int,
               size: tuple[float, float] = A4) -> tuple[bytes, str]:
    """`draw` on a sheet of `size` points (A4 unless said) made by `make_sheet` (Sheet, or
    tools/structure/cjk_sheet.py's CjkSheet), as a one-page PDF and its Markdown truth, the
    same for the same seed."""
    doc = pymupdf.open()
    sheet = make_sheet(doc.new_page(width=size[0], height=size[1]))
    rng = random.Random(seed)
    draw(sheet, prose, rng)
    # Half the pages keep their text in reading order in the content stream, half do not.
    sheet.finish(rng, shuffled=rng.random() < 0.5)
    data = doc.tobytes(garbage=3, deflate=True, no_new_id=True)
    doc.close()
    return data, "\n\n".join(t for t in sheet.truth if t.strip()) + "\n"
