"""The pages the photo set photographs: an English and a Chinese prose page (a heading and
paragraphs in one column, on A5 as a book page), an English and a Chinese page in two columns,
and an English page holding a ruled table between two paragraphs, drawn with tools/structure's
sheets so their truth is known, rendered to pixels at a camera's resolution."""

from __future__ import annotations

import random
import re

import numpy as np
import pymupdf

from engine.text import UNSPACED
from tools.structure import cjk_layouts, layouts
from tools.structure.cjk_sheet import CjkSheet
from tools.structure.cjk_text import load_chinese_prose
from tools.structure.text_source import Prose, load_prose

A5 = (420.0, 595.0)
MARGIN_PT = 42.0
RENDER_DPI = 200
"""A5 at 200 dpi is 1167 x 1653 pixels: the page filling most of a phone photo's frame."""
PAGES = ("en_prose", "zh_prose", "en_columns", "zh_columns", "en_table")
LANGUAGES = {"en_prose": "eng", "zh_prose": "chi_sim", "en_columns": "eng",
             "zh_columns": "chi_sim", "en_table": "eng"}
"""Tesseract's language for each page."""
_UNSPACED = "".join(f"{chr(lo)}-{chr(hi)}" for lo, hi in UNSPACED)
# The manual pages' prose keeps a space after a Chinese full stop or comma; set in a page it
# is a gap no reader sees as a character, so the page is drawn (and its truth written) without.
_SPACE_BY_CJK = re.compile(f"\\s+(?=[{_UNSPACED}])|(?<=[{_UNSPACED}])\\s+")


def chinese_text(text: str) -> str:
    """`text` without the spaces next to Chinese characters and punctuation."""
    return _SPACE_BY_CJK.sub("", text)


def _english(sheet: layouts.Sheet, prose: Prose, rng: random.Random) -> None:
    left, right = MARGIN_PT, A5[0] - MARGIN_PT
    y = sheet.heading(pymupdf.Rect(left, MARGIN_PT, right, MARGIN_PT + 40), prose.title(rng),
                      2, 14)
    sheet.flow([pymupdf.Rect(left, y, right, A5[1] - MARGIN_PT)],
               [("p", p) for p in prose.sample(rng, 12)], 11)


def _columns(sheet: layouts.Sheet, prose: Prose, rng: random.Random) -> None:
    """A heading across the page over two columns of 9-point text, read column by column."""
    left, right = MARGIN_PT * 0.8, A5[0] - MARGIN_PT * 0.8
    y = sheet.heading(pymupdf.Rect(left, MARGIN_PT, right, MARGIN_PT + 40), prose.title(rng),
                      2, 13)
    sheet.flow(layouts.columns(left, right, y, A5[1] - MARGIN_PT, 2, 16),
               [("p", p) for p in prose.sample(rng, 14)], 9)


def _chinese(sheet: CjkSheet, prose: Prose, rng: random.Random) -> None:
    left, right = MARGIN_PT, A5[0] - MARGIN_PT
    y = sheet.heading(pymupdf.Rect(left, MARGIN_PT, right, MARGIN_PT + 40), prose.title(rng),
                      2, 14)
    cjk_layouts.flow(sheet, [pymupdf.Rect(left, y + 4, right, A5[1] - MARGIN_PT)],
                     [("p", chinese_text(p)) for p in prose.sample(rng, 12)], 11, gap=4.0)


def _chinese_columns(sheet: CjkSheet, prose: Prose, rng: random.Random) -> None:
    """A heading across the page over two columns of 9-point Chinese, read column by column."""
    left, right = MARGIN_PT * 0.8, A5[0] - MARGIN_PT * 0.8
    y = sheet.heading(pymupdf.Rect(left, MARGIN_PT, right, MARGIN_PT + 40), prose.title(rng),
                      2, 13)
    cjk_layouts.flow(sheet, layouts.columns(left, right, y + 4, A5[1] - MARGIN_PT, 2, 16),
                     [("p", chinese_text(p)) for p in prose.sample(rng, 14)], 9, gap=3.0)


TABLE_HEADER = ("Module", "Calls", "Errors", "Share")
TABLE_ROWS = 12
TABLE_SIZE = 10.0


def _table_rows(prose: Prose, rng: random.Random) -> list[tuple[str, ...]]:
    """A header and rows of a module name, two counts and a percentage: words and numbers
    mixed as a report's table holds them."""
    names = rng.sample(sorted({w.strip(".,;:()").lower() for w in " ".join(
        prose.paragraphs[:300]).split() if w.isalpha() and 4 <= len(w) <= 10}),
        TABLE_ROWS)
    return [TABLE_HEADER] + [(name, f"{rng.randint(10, 9999):,}", str(rng.randint(0, 99)),
                              f"{rng.uniform(0, 100):.1f}%") for name in names]


def _table(sheet: layouts.Sheet, prose: Prose, rng: random.Random) -> None:
    """A heading, a paragraph, a ruled table of four columns (a grid of 0.6 pt lines) and a
    paragraph under it."""
    left, right = MARGIN_PT, A5[0] - MARGIN_PT
    y = sheet.heading(pymupdf.Rect(left, MARGIN_PT, right, MARGIN_PT + 40), prose.title(rng),
                      2, 14)
    paragraphs = prose.sample(rng, 6)
    _, y = sheet.flow([pymupdf.Rect(left, y, right, y + 160)], [("p", paragraphs[0])], 11)
    rows = _table_rows(prose, rng)
    widths = (130.0, 70.0, 60.0, 70.0)
    row_h = TABLE_SIZE * 2.0
    top = y + 8
    x0 = left + (right - left - sum(widths)) / 2
    for r, cells in enumerate(rows):
        x = x0
        font = layouts.SANS_BOLD if r == 0 else layouts.SANS
        for c, (text, width) in enumerate(zip(cells, widths)):
            length = font.text_length(text, TABLE_SIZE)
            at = x + 5 if c == 0 or r == 0 else x + width - 5 - length
            sheet.page.insert_text((at, top + r * row_h + row_h * 0.68), text,
                                   fontname="hebo" if r == 0 else "helv", fontsize=TABLE_SIZE)
            x += width
    bottom = top + len(rows) * row_h
    for r in range(len(rows) + 1):
        sheet.page.draw_line((x0, top + r * row_h), (x0 + sum(widths), top + r * row_h),
                             width=0.6)
    x = x0
    for width in (0.0,) + widths:
        x += width
        sheet.page.draw_line((x, top), (x, bottom), width=0.6)
    sheet.truth.append("\n".join(["| " + " | ".join(rows[0]) + " |",
                                   "| " + " | ".join("---" for _ in rows[0]) + " |"]
                                  + ["| " + " | ".join(cells) + " |" for cells in rows[1:]]))
    sheet.flow([pymupdf.Rect(left, bottom + 14, right, A5[1] - MARGIN_PT)],
               [("p", p) for p in paragraphs[1:]], 11)


def draw(name: str, seed: int) -> tuple[bytes, str]:
    """The page's one-page PDF and its Markdown truth."""
    if name == "en_prose":
        return layouts.draw_sheet(layouts.Sheet, _english, load_prose(), seed, A5)
    if name == "en_columns":
        return layouts.draw_sheet(layouts.Sheet, _columns, load_prose(), seed, A5)
    if name == "zh_columns":
        return layouts.draw_sheet(CjkSheet, _chinese_columns, load_chinese_prose(), seed, A5)
    if name == "en_table":
        return layouts.draw_sheet(layouts.Sheet, _table, load_prose(), seed, A5)
    if name == "zh_prose":
        return layouts.draw_sheet(CjkSheet, _chinese, load_chinese_prose(), seed, A5)
    raise ValueError(f"unknown page {name!r}; known: {', '.join(PAGES)}")


def pixels(pdf: bytes, dpi: int = RENDER_DPI) -> np.ndarray:
    """The PDF's first page as RGB pixels."""
    with pymupdf.open(stream=pdf) as doc:
        pix = doc[0].get_pixmap(dpi=dpi, colorspace=pymupdf.csRGB, alpha=False)
        return np.frombuffer(pix.samples, np.uint8).reshape(pix.height, pix.width, 3).copy()
