"""The kinds of page in the handwriting set, each drawn as a one-page PDF with its label.

Mostly handwriting: `letter` (a letter on plain or ruled paper), `note` (notebook paper, lists
and short lines), `letterhead` (a printed letterhead above a handwritten letter). Not mostly
handwriting: `form` (a printed form with handwritten fill-ins), `printed` (pages in print
fonts, some with a heading in a script display font, some in two columns) and `table` (a
printed table of words and numbers). The label is the
share of the page's characters written by hand: a page is handwriting when it is over half."""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

import pymupdf

from tools.handwriting.fonts import FontPools
from tools.handwriting.pen import Pen, random_hand
from tools.structure.text_source import Prose

HANDWRITING_KINDS = ("letter", "note", "letterhead")
PRINTED_KINDS = ("form", "printed", "table")
SIZES = {"a4": (595, 842), "letter": (612, 792), "a5": (420, 595)}
MONTHS = ("January February March April May June July August September October November "
          "December").split()


@dataclass(frozen=True)
class DrawnPage:
    pdf: bytes
    kind: str
    handwritten_chars: int
    printed_chars: int
    fonts: tuple[str, ...]

    @property
    def handwriting_share(self) -> float:
        total = self.handwritten_chars + self.printed_chars
        return self.handwritten_chars / total if total else 0.0


class Printer:
    """Print on a page: regular lines from one font, wrapped, optionally justified."""

    def __init__(self, page: pymupdf.Page, font_path, name: str, size: float,
                 color=(0, 0, 0)) -> None:
        self.page, self.path, self.name, self.size, self.color = page, font_path, name, size, color
        self.font = pymupdf.Font(fontfile=str(font_path))
        self.shape = page.new_shape()
        self.chars = 0

    def text(self, x: float, baseline: float, text: str, size: float | None = None) -> float:
        size = size or self.size
        text = "".join(c for c in text if self.font.has_glyph(ord(c)) or c == " ")
        self.shape.insert_text((x, baseline), text, fontsize=size, fontname=self.name,
                               fontfile=str(self.path), color=self.color)
        self.chars += len(text.replace(" ", ""))
        return self.font.text_length(text, size)

    def paragraph(self, text: str, left: float, right: float, baseline: float, bottom: float,
                  leading: float = 1.25, justify: bool = False) -> float:
        words = [w for w in text.split() if w]
        space = self.font.text_length(" ", self.size)
        while words and baseline < bottom:
            line, width = [], 0.0
            for word in words:
                w = self.font.text_length(word, self.size)
                if line and width + space + w > right - left:
                    break
                line.append((word, w))
                width += (space if len(line) > 1 else 0) + w
            words = words[len(line):]
            gap = space
            if justify and words and len(line) > 1:
                gap = (right - left - sum(w for _, w in line)) / (len(line) - 1)
            x = left
            for word, w in line:
                self.text(x, baseline, word)
                x += w + gap
            baseline += self.size * leading
        return baseline

    def finish(self) -> None:
        self.shape.commit()


def _words(prose: Prose, rng: random.Random, count: int) -> str:
    words = " ".join(prose.sample(rng, 6)).split()
    start = rng.randrange(max(1, len(words) - count))
    return " ".join(words[start:start + count])


def _date(rng: random.Random) -> str:
    day, month, year = rng.randint(1, 28), rng.choice(MONTHS), rng.randint(1850, 2024)
    return rng.choice((f"{month} {day}th {year}.", f"{day} {month} {year}",
                       f"{rng.randint(1, 12)}/{day}/{year % 100:02d}"))


def _rules(page: pymupdf.Page, rng: random.Random, top: float, pitch: float,
           margin_line: bool) -> None:
    shape = page.new_shape()
    y = top
    while y < page.rect.height - 20:
        shape.draw_line((0, y), (page.rect.width, y))
        y += pitch
    shape.finish(color=(0.55, 0.7, 0.9), width=rng.uniform(0.4, 0.9))
    if margin_line:
        x = rng.uniform(55, 80)
        shape.draw_line((x, 0), (x, page.rect.height))
        shape.finish(color=(0.9, 0.45, 0.45), width=0.8)
    shape.commit()


def _handwritten_body(page, pen: Pen, prose: Prose, rng: random.Random, top: float,
                      left: float, right: float, bottom: float, note: bool) -> float:
    y = top
    if note:
        y = pen.write_paragraph(_words(prose, rng, rng.randint(2, 5)), left, right, y, bottom)
        while y < bottom and rng.random() < 0.93:
            if rng.random() < 0.6:
                item = rng.choice(("- ", "* ", f"{rng.randint(1, 9)}. ", ""))
                y = pen.write_paragraph(item + _words(prose, rng, rng.randint(2, 9)), left,
                                        right, y, bottom)
            else:
                y = pen.write_paragraph(_words(prose, rng, rng.randint(12, 50)), left, right,
                                        y, bottom)
        return y
    pen.write_line(_date(rng).split(), right - rng.uniform(140, 200), y, right)
    y += pen.line_height() * rng.uniform(1.0, 1.8)
    pen.write_line(["Dear", prose.title(rng).split()[0] + ","], left, y, right)
    y += pen.line_height()
    fill = rng.uniform(0.55, 0.95) * (bottom - y) + y
    while y < fill:
        y = pen.write_paragraph(_words(prose, rng, rng.randint(25, 90)), left, right, y, fill,
                                indent=rng.choice((0.0, pen.hand.size_pt * 2)))
        y += pen.line_height() * rng.uniform(0.0, 0.6)
    closing = rng.choice(("Yours truly,", "With best regards,", "Sincerely yours,", "Love,"))
    x = left + rng.uniform(0.3, 0.55) * (right - left)
    pen.write_line(closing.split(), x, y, right)
    pen.write_line(prose.title(rng).split()[:2], x + rng.uniform(0, 30), y + pen.line_height(),
                   right)
    return y


def _handwriting_page(kind: str, prose: Prose, fonts: FontPools, rng: random.Random
                      ) -> DrawnPage:
    doc = pymupdf.open()
    width, height = SIZES[rng.choice(("a4", "letter", "a5") if kind == "note" else ("a4", "letter"))]
    page = doc.new_page(width=width, height=height)
    hand = random_hand(rng, fonts.handwriting)
    left, right = rng.uniform(40, 90), width - rng.uniform(30, 70)
    top, bottom = rng.uniform(50, 90), height - rng.uniform(40, 90)
    printed_chars, used = 0, [hand.font.name]
    if kind == "letterhead":
        head = Printer(page, rng.choice(fonts.bold), "lh", rng.uniform(15, 22))
        head.text(left, top, prose.title(rng))
        small = Printer(page, rng.choice(fonts.printed), "la", rng.uniform(7.5, 9.5),
                        color=(0.2, 0.2, 0.25))
        small.text(left, top + 18, f"{rng.randint(1, 999)} {_words(prose, rng, 3).title()}, "
                                   f"Telephone {rng.randint(100, 999)} {rng.randint(1000, 9999)}")
        rule = page.new_shape()
        rule.draw_line((left, top + 26), (right, top + 26))
        rule.finish(color=(0.2, 0.2, 0.2), width=1)
        rule.commit()
        head.finish()
        small.finish()
        printed_chars, top = head.chars + small.chars, top + 70
        used += [head.path.name, small.path.name]
    ruled = kind == "note" or rng.random() < 0.3
    if ruled:
        pitch = rng.uniform(20, 28)
        _rules(page, rng, top - pitch * 0.8, pitch, margin_line=kind == "note" and rng.random() < 0.7)
        hand = replace(hand, size_pt=pitch / rng.uniform(1.35, 1.7), pitch_jitter=0.0)
        hand = replace(hand, pitch=pitch / hand.size_pt)
    pen = Pen(page, hand, rng, "hw")
    _handwritten_body(page, pen, prose, rng, top, left, right, bottom, note=kind == "note")
    pen.finish()
    pdf = doc.tobytes(deflate=True, garbage=3)
    return DrawnPage(pdf, kind, pen.chars, printed_chars, tuple(used))


def _form_page(prose: Prose, fonts: FontPools, rng: random.Random) -> DrawnPage:
    doc = pymupdf.open()
    width, height = SIZES[rng.choice(("a4", "letter"))]
    page = doc.new_page(width=width, height=height)
    left, right = rng.uniform(40, 70), width - rng.uniform(40, 70)
    body = Printer(page, rng.choice(fonts.printed), "fb", rng.uniform(9, 11))
    title = Printer(page, rng.choice(fonts.bold), "ft", rng.uniform(14, 20))
    y = rng.uniform(55, 80)
    title.text(left, y, prose.title(rng).upper() if rng.random() < 0.5 else prose.title(rng))
    y = body.paragraph(" ".join(prose.sample(rng, 2)), left, right, y + 30, y + 200,
                       justify=rng.random() < 0.5) + 10
    hand = random_hand(rng, fonts.handwriting)
    hand = replace(hand, size_pt=rng.uniform(11, 16), tilt_deg=min(hand.tilt_deg, 1.0))
    pen = Pen(page, hand, rng, "hw")
    lines = page.new_shape()
    field_gap = rng.uniform(28, 40)
    for _ in range(rng.randint(6, 12)):
        if y > height - 180:
            break
        label = " ".join(prose.title(rng).split()[:rng.randint(1, 3)]) + ":"
        x = left + body.text(left, y, label) + 6
        lines.draw_line((x, y + 2), (right, y + 2))
        if rng.random() < 0.8:
            pen.write_line(_words(prose, rng, rng.randint(1, 4)).split(), x + rng.uniform(4, 30),
                           y - rng.uniform(0, 3), right)
        y += field_gap
    lines.finish(color=(0.3, 0.3, 0.3), width=0.5)
    lines.commit()
    y = body.paragraph(" ".join(prose.sample(rng, rng.randint(2, 4))), left, right, y + 10,
                       height - 90, justify=rng.random() < 0.5)
    if y < height - 60:
        x = left + body.text(left, y + 20, "Signature:") + 10
        pen.write_line(prose.title(rng).split()[:2], x, y + 18, right)
    body.finish()
    title.finish()
    pen.finish()
    pdf = doc.tobytes(deflate=True, garbage=3)
    return DrawnPage(pdf, "form", pen.chars, body.chars + title.chars,
                     (body.path.name, title.path.name, hand.font.name))


def _printed_page(prose: Prose, fonts: FontPools, rng: random.Random) -> DrawnPage:
    doc = pymupdf.open()
    width, height = SIZES[rng.choice(("a4", "letter"))]
    page = doc.new_page(width=width, height=height)
    left, right = rng.uniform(45, 80), width - rng.uniform(45, 80)
    y, bottom = rng.uniform(60, 90), height - rng.uniform(50, 80)
    heading_font = rng.choice(fonts.display if rng.random() < 0.5 else fonts.bold)
    heading = Printer(page, heading_font, "ph", rng.uniform(18, 32))
    heading.text(left, y + 10, prose.title(rng))
    y += 50
    body = Printer(page, rng.choice(fonts.printed), "pb", rng.uniform(9, 12.5),
                   color=(0, 0, 0) if rng.random() < 0.8 else (0.1, 0.12, 0.3))
    columns = 2 if rng.random() < 0.3 else 1
    gutter = 18
    col_width = (right - left - gutter * (columns - 1)) / columns
    justify, leading = rng.random() < 0.6, rng.uniform(1.15, 1.45)
    for col in range(columns):
        x0 = left + col * (col_width + gutter)
        cy = y
        while cy < bottom - body.size * 3:
            cy = body.paragraph(prose.sample(rng, 1)[0], x0, x0 + col_width, cy, bottom,
                                leading=leading, justify=justify) + body.size * 0.6
    heading.finish()
    body.finish()
    pdf = doc.tobytes(deflate=True, garbage=3)
    return DrawnPage(pdf, "printed", 0, heading.chars + body.chars,
                     (heading.path.name, body.path.name))


def _table_page(prose: Prose, fonts: FontPools, rng: random.Random) -> DrawnPage:
    """A printed table under a caption and above a paragraph: cells of words and numbers at
    column stops, with or without rules."""
    doc = pymupdf.open()
    width, height = SIZES[rng.choice(("a4", "letter"))]
    page = doc.new_page(width=width, height=height)
    left, right = rng.uniform(45, 80), width - rng.uniform(45, 80)
    body = Printer(page, rng.choice(fonts.printed), "tb", rng.uniform(8, 11))
    head = Printer(page, rng.choice(fonts.bold), "th", body.size)
    y = rng.uniform(60, 90)
    y = body.paragraph(f"Table {rng.randint(1, 9)}. " + prose.title(rng), left, right, y,
                       y + 40) + 8
    columns = rng.randint(3, 7)
    stops = [left + (right - left) * k / columns for k in range(columns)]
    rules = page.new_shape()
    pitch = body.size * rng.uniform(1.5, 2.2)
    for row in range(rng.randint(12, 30)):
        if y > height - 150:
            break
        for k, x in enumerate(stops):
            if row == 0:
                head.text(x + 2, y, prose.title(rng).split()[0])
            elif k == 0:
                body.text(x + 2, y, " ".join(prose.title(rng).split()[:rng.randint(1, 3)]))
            else:
                body.text(x + 2, y, rng.choice((f"{rng.uniform(0, 999):.1f}",
                                                f"{rng.randint(1, 99999):,}",
                                                f"{rng.uniform(0, 100):.2f}%")))
        if rng.random() < 0.6:
            rules.draw_line((left, y + pitch * 0.35), (right, y + pitch * 0.35))
        y += pitch
    rules.finish(color=(0.3, 0.3, 0.3), width=0.5)
    rules.commit()
    body.paragraph(" ".join(prose.sample(rng, 2)), left, right, y + 20, height - 60)
    body.finish()
    head.finish()
    pdf = doc.tobytes(deflate=True, garbage=3)
    return DrawnPage(pdf, "table", 0, body.chars + head.chars, (body.path.name, head.path.name))


def draw_page(kind: str, prose: Prose, fonts: FontPools, rng: random.Random) -> DrawnPage:
    if kind in HANDWRITING_KINDS:
        return _handwriting_page(kind, prose, fonts, rng)
    if kind == "form":
        return _form_page(prose, fonts, rng)
    if kind == "printed":
        return _printed_page(prose, fonts, rng)
    if kind == "table":
        return _table_page(prose, fonts, rng)
    raise ValueError(f"unknown page kind {kind!r}")
