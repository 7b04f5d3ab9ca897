"""Whole conversions with the real models of image inputs drawn here: a formula on a dark theme's
background and a matrix on a transparent background become one $$ block each (before the rule of
engine/formulas/image_rule.py the first had no ink on light paper and the second's sixteen OCR
lines counted as a page of text); screenshots of a paragraph, dark or transparent, stay text."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pymupdf
import pytest

from engine.formulas.latex_tokens import normalized
from engine.options import ConvertOptions
from engine.types import BlockKind

pytestmark = pytest.mark.model

DARK_THEME = ((30, 30, 30), (212, 212, 212))  # VS Code's background and text, RGB


def draw(width: float, height: float, paint, dpi: int = 200) -> np.ndarray:
    """A page `width` x `height` points painted by `paint(page)`, as grey pixels (ink dark)."""
    doc = pymupdf.open()
    page = doc.new_page(width=width, height=height)
    paint(page)
    pix = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY)
    doc.close()
    return np.frombuffer(pix.samples, np.uint8).reshape(pix.height, pix.width).copy()


def sum_of_squares(page) -> None:
    """x² + y² = r² in Times: italic letters, raised small exponents."""
    for x, y, text, size, font in [(10, 30, "x", 16, "tiit"), (19, 22, "2", 11, "tiro"),
                                   (30, 30, "+", 16, "tiro"), (44, 30, "y", 16, "tiit"),
                                   (53, 22, "2", 11, "tiro"), (64, 30, "=", 16, "tiro"),
                                   (78, 30, "r", 16, "tiit"), (86, 22, "2", 11, "tiro")]:
        page.insert_text((x, y), text, fontsize=size, fontname=font)


def homogeneous_matrix(page) -> None:
    """M = [4 x 4 matrix] with square brackets drawn as lines."""
    page.insert_text((8, 58), "M", fontsize=15, fontname="tiit")
    page.insert_text((26, 58), "=", fontsize=15, fontname="tiro")
    for x, tick in ((46, 4), (134, -4)):
        page.draw_line((x, 14), (x, 92))
        page.draw_line((x, 14), (x + tick, 14))
        page.draw_line((x, 92), (x + tick, 92))
    rows = ["100x", "010y", "001z", "0001"]
    for i, row in enumerate(rows):
        for j, entry in enumerate(row):
            page.insert_text((54 + j * 20, 30 + i * 18), entry, fontsize=15,
                             fontname="tiit" if entry.isalpha() else "tiro")


def paragraph(page) -> None:
    page.insert_textbox(pymupdf.Rect(10, 10, 330, 90), (
        "The conversion reads every page of a document and writes Markdown beside it. "
        "Tables become HTML, formulas become LaTeX, and figures are kept as images."),
        fontsize=12, fontname="helv")


def on_dark(grey: np.ndarray) -> np.ndarray:
    """BGR: the ink in the dark theme's text colour on its background, edges blended."""
    background, ink = (np.array(c[::-1], np.float32) for c in DARK_THEME)
    coverage = (255.0 - grey.astype(np.float32))[..., None] / 255.0
    return (background * (1 - coverage) + ink * coverage).round().astype(np.uint8)


def transparent(grey: np.ndarray) -> np.ndarray:
    """BGRA: black ink whose alpha is its coverage, on nothing."""
    return np.dstack([np.zeros(grey.shape + (3,), np.uint8), 255 - grey])


def convert(engine, path: Path, image: np.ndarray):
    assert cv2.imwrite(str(path), image)
    return engine.convert(path, ConvertOptions())


def test_a_formula_on_a_dark_background_becomes_its_latex(engine, tmp_path):
    result = convert(engine, tmp_path / "dark.png", on_dark(draw(100, 40, sum_of_squares)))
    [block] = result.pages[0].blocks
    assert block.kind is BlockKind.FORMULA
    assert normalized(block.formula.latex) == normalized("x^2 + y^2 = r^2")


def test_a_matrix_on_a_transparent_background_becomes_one_formula(engine, tmp_path):
    result = convert(engine, tmp_path / "matrix.png",
                     transparent(draw(142, 104, homogeneous_matrix)))
    [block] = result.pages[0].blocks
    assert block.kind is BlockKind.FORMULA
    tokens = normalized(block.formula.latex)
    assert "\\begin{bmatrix}" in tokens and tokens.count("\\\\") == 3  # four rows


@pytest.mark.parametrize("finish", [on_dark, transparent])
def test_a_screenshot_of_a_paragraph_stays_text(engine, tmp_path, finish):
    result = convert(engine, tmp_path / "paragraph.png", finish(draw(340, 80, paragraph, 150)))
    blocks = result.pages[0].blocks
    assert blocks and all(b.kind is not BlockKind.FORMULA for b in blocks)
    assert "formulas become LaTeX" in " ".join(b.text for b in blocks)
