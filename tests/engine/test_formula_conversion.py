"""Whole conversions with the real models: a formula image and a page with a display formula come
out as $$ LaTeX; a line of text stays text; nobody is told formula recognition is unavailable."""

from __future__ import annotations

import json
from pathlib import Path

import pymupdf
import pytest

from engine.formulas.reading import UNAVAILABLE_WARNING
from engine.formulas.latex_tokens import normalized
from engine.options import ConvertOptions
from engine.types import BlockKind
from tools.eval.formula_scores import token_similarity

pytestmark = pytest.mark.model

REPO_ROOT = Path(__file__).resolve().parents[2]
FORMULA_IMAGES = REPO_ROOT.parent / "shared" / "eval" / "formula" / "images"


def display_formulas(markdown: str) -> list[str]:
    """The LaTeX of every $$ block."""
    parts = markdown.split("$$\n")
    return [parts[i].rsplit("\n", 1)[0] for i in range(1, len(parts), 2)]


def test_a_formula_screenshot_becomes_latex(engine, tmp_path):
    # KaTeX screenshot, 1024x768 with the formula in the top-left corner; the layout model calls
    # it a section header.
    path = FORMULA_IMAGES / "katex-ss-LeftRightListStyling-chrome.png"
    if not path.is_file():
        pytest.skip(f"formula evaluation images not found at {FORMULA_IMAGES}")
    result = engine.convert(path, ConvertOptions(output_dir=str(tmp_path)))
    assert [normalized(latex) for latex in display_formulas(result.markdown)] == [
        normalized(r"a+\left(x+y\right)-x")]
    [equation] = json.loads((tmp_path / f"{path.stem}_content_list.json").read_text(encoding="utf-8"))
    assert equation["type"] == "equation" and equation["text_format"] == "latex"
    assert equation["confidence"] >= 0.8
    assert UNAVAILABLE_WARNING not in " ".join(result.warnings)


@pytest.mark.parametrize("name", ["im2latex-smallocr-526", "im2latex-smallocr-860"])
def test_a_formula_the_ocr_turned_upside_down_is_read_as_given(engine, name):
    # The OCR's line classifier takes these formulas' signs for text standing on its head and
    # turns the image; turned, the formula reads as garbage (0.15 and 0.32 token similarity).
    # 860's minus-plus sign is read by the text recogniser as the CJK letter 干 as well.
    path = FORMULA_IMAGES / f"{name}.png"
    if not path.is_file():
        pytest.skip(f"formula evaluation images not found at {FORMULA_IMAGES}")
    truth = next(item["truth"] for item in json.loads(
        (FORMULA_IMAGES.parent / "manifest.json").read_text(encoding="utf-8")) if item["id"] == name)
    result = engine.convert(path, ConvertOptions())
    [page] = result.pages
    assert page.rotation == 0 and not any("turned" in w for w in page.warnings)
    [latex] = display_formulas(result.markdown)
    assert token_similarity(latex, truth) >= 0.9


def test_every_formula_crop_of_the_dev_set_becomes_one_latex_block(engine, eval_dev_dir):
    folders = sorted((eval_dev_dir / "items").glob("im2latex-*"))
    assert len(folders) == 10
    for folder in folders:
        result = engine.convert(folder / "input.png", ConvertOptions())
        assert len(display_formulas(result.markdown)) == 1, folder.name
    # Read exactly; the layout model calls this crop a figure.
    folder = eval_dev_dir / "items" / "im2latex-4b4263156b"
    result = engine.convert(folder / "input.png", ConvertOptions())
    assert [normalized(latex) for latex in display_formulas(result.markdown)] == [
        normalized((folder / "truth.tex").read_text(encoding="utf-8"))]


def test_a_display_formula_on_a_pdf_page_becomes_latex(engine, eval_dev_dir):
    path = eval_dev_dir / "items" / "docling-code_and_formula" / "input.pdf"
    result = engine.convert(path, ConvertOptions(pages=(2,)))
    assert [normalized(latex) for latex in display_formulas(result.markdown)] == [
        normalized("a^2 + 8 = 12")]
    assert not any(UNAVAILABLE_WARNING in warning for warning in result.warnings)


def test_a_line_of_text_in_a_serif_font_stays_text(engine, tmp_path):
    # The formula model reads this as \text { F i g u r e 2 : R e s u l t s } with confidence
    # above 0.8: only the "holds math" half of the rule keeps it text.
    doc = pymupdf.open()
    page = doc.new_page(width=260, height=40)
    page.insert_text((10, 27), "Figure 2: Results", fontsize=16, fontname="tiro")
    path = tmp_path / "line.png"
    page.get_pixmap(dpi=150).save(str(path))
    doc.close()
    result = engine.convert(path, ConvertOptions())
    assert "$$" not in result.markdown and "Results" in result.markdown
    assert all(b.kind is not BlockKind.FORMULA for p in result.pages for b in p.blocks)
