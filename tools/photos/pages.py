"""The pages the photo set photographs: an English and a Chinese prose page (a heading and
paragraphs in one column, on A5 as a book page) and an English page in two columns, drawn with tools/structure's sheets so their
truth is known, rendered to pixels at a camera's resolution."""

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
PAGES = ("en_prose", "zh_prose", "en_columns")
LANGUAGES = {"en_prose": "eng", "zh_prose": "chi_sim", "en_columns": "eng"}
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


def draw(name: str, seed: int) -> tuple[bytes, str]:
    """The page's one-page PDF and its Markdown truth."""
    if name == "en_prose":
        return layouts.draw_sheet(layouts.Sheet, _english, load_prose(), seed, A5)
    if name == "en_columns":
        return layouts.draw_sheet(layouts.Sheet, _columns, load_prose(), seed, A5)
    if name == "zh_prose":
        return layouts.draw_sheet(CjkSheet, _chinese, load_chinese_prose(), seed, A5)
    raise ValueError(f"unknown page {name!r}; known: {', '.join(PAGES)}")


def pixels(pdf: bytes, dpi: int = RENDER_DPI) -> np.ndarray:
    """The PDF's first page as RGB pixels."""
    with pymupdf.open(stream=pdf) as doc:
        pix = doc[0].get_pixmap(dpi=dpi, colorspace=pymupdf.csRGB, alpha=False)
        return np.frombuffer(pix.samples, np.uint8).reshape(pix.height, pix.width, 3).copy()
