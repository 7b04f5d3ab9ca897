"""Paperlens as OCRmyPDF's OCR engine: a real `ocrmypdf --plugin paperlens_ocrmypdf` run on a
scan made here (English and Chinese lines), its text read back with pdftotext and PyMuPDF; and
the page's boxes laid back on OCRmyPDF's image when the reader turned the page."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

pytest.importorskip("ocrmypdf", reason="the ocrmypdf extra is not installed: "
                                       "pip install -e '.[ocrmypdf]'")

from engine.content.tables import Table, TableCell  # noqa: E402
from engine.types import Block, BlockKind, Box, Line, PageResult, TextSource, Word  # noqa: E402
from paperlens_ocrmypdf.page_tree import page_text, page_tree  # noqa: E402

REPO_ROOT = Path(__file__).resolve().parents[2]
ENGLISH = ["Quarterly report", "The river rose at noon.", "Invoice 4471 total 38 pounds"]
CHINESE = "今天天气很好"


def write_scan(path: Path) -> Path:
    """A one-page image-only PDF at 150 dpi: the lines typeset by MuPDF (its built-in CJK font
    for the Chinese one), rendered to pixels, and only the pixels kept."""
    import pymupdf

    typeset = pymupdf.open()
    page = typeset.new_page(width=420, height=300)
    for row, text in enumerate(ENGLISH):
        page.insert_text((36, 60 + 40 * row), text, fontsize=16, fontname="helv")
    page.insert_text((36, 60 + 40 * len(ENGLISH)), CHINESE, fontsize=18, fontname="china-s")
    pixels = page.get_pixmap(dpi=150, colorspace=pymupdf.csGRAY)
    scan = pymupdf.open()
    scan.new_page(width=420, height=300).insert_image(pymupdf.Rect(0, 0, 420, 300),
                                                      stream=pixels.tobytes("png"))
    scan.save(str(path))
    return path


@pytest.mark.model
@pytest.mark.slow
def test_ocrmypdf_makes_a_searchable_pdf_with_paperlens_text(tmp_path, default_models):
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext (poppler-utils) is not installed")
    if shutil.which("tesseract") is None:
        pytest.skip("OCRmyPDF checks for the tesseract program on every run, whichever engine "
                    "reads: apt-get install tesseract-ocr")
    import pymupdf

    scan = write_scan(tmp_path / "scan.pdf")
    out = tmp_path / "out.pdf"
    env = {**os.environ, "PAPERLENS_CONFIG": str(tmp_path / "settings.json"),
           "PYTHONPATH": str(REPO_ROOT)}
    run = subprocess.run([sys.executable, "-m", "ocrmypdf", "--plugin", "paperlens_ocrmypdf",
                          "--output-type", "pdf", "--jobs", "1", str(scan), str(out)],
                         env=env, capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert run.returncode == 0, run.stderr[-3000:]
    with pymupdf.open(str(scan)) as before:
        assert before[0].get_text().strip() == ""  # the text can only have come from the OCR
    text = subprocess.run(["pdftotext", str(out), "-"], capture_output=True, text=True,
                          check=True).stdout
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    assert lines[:3] == ENGLISH, text
    assert CHINESE in lines, text  # CJK characters without spaces between them
    with pymupdf.open(str(out)) as done:
        words = done[0].get_text("words")
        creator = done.metadata["creator"]
    assert "/ Paperlens " in creator, creator  # read by Paperlens, not OCRmyPDF's Tesseract
    river = [w for w in words if w[4] == "river"]
    assert len(river) == 1
    # On the pixels it was read from: the second line, about 100 pt down the 300 pt page.
    assert 80 < river[0][1] < 110 and 36 < river[0][0] < 110


def test_boxes_of_a_turned_page_are_laid_back_on_the_image():
    # Read turned a quarter clockwise: the analysed page is 200 x 100, the image 100 x 200.
    word = Word("north", Box(10, 20, 60, 40))
    line = Line("north", Box(10, 20, 60, 40), score=0.9, words=(word,))
    page = PageResult(page_number=1, width=200, height=100, dpi=150,
                      text_source=TextSource.OCR, text_source_reason="ocr", rotation=90,
                      blocks=(Block(BlockKind.TEXT, Box(10, 20, 60, 40), lines=(line,)),
                              Block(BlockKind.FIGURE, Box(0, 0, 5, 5))))
    tree = page_tree(page, (200, 400), 300.0, 0)  # and the image twice the size
    (paragraph,) = tree.paragraphs  # a block without lines gives no paragraph
    (element,) = paragraph.words
    box = element.bbox
    # (x, y) was at (y, W - x) before the turn: x 20..40, y 140..190; then doubled.
    assert (box.left, box.top, box.right, box.bottom) == (40, 280, 80, 380)
    assert element.text == "north" and element.confidence == pytest.approx(0.9)
    assert page_text(tree) == "north\n"
    # Left to right on the analysed page runs bottom to top on the image: a quarter turn
    # counter-clockwise, so a PDF reader gives the words back in order.
    (laid_line,) = paragraph.lines
    assert laid_line.textangle == 90
    upright = page_tree(replace(page, rotation=0), (200, 100), 300.0, 0)
    assert upright.paragraphs[0].lines[0].textangle is None


def test_a_line_without_word_boxes_is_one_word_and_a_table_reads_in_cell_order():
    cells = [Line("B", Box(60, 0, 80, 10)), Line("A", Box(0, 0, 20, 10))]
    table = Block(BlockKind.TABLE, Box(0, 0, 80, 10), lines=tuple(cells),
                  table=Table((TableCell(0, 0, "A"), TableCell(0, 1, "B")), 1, 2))
    footer = Block(BlockKind.FOOTER, Box(0, 90, 50, 100),
                   lines=(Line("Page 2", Box(0, 90, 50, 100)),))
    page = PageResult(page_number=1, width=100, height=100, dpi=150,
                      text_source=TextSource.OCR, text_source_reason="ocr",
                      blocks=(table, footer))
    tree = page_tree(page, (100, 100), 150.0, 0)
    assert [line.get_text_recursive() for line in tree.lines] == ["A", "B", "Page 2"]
    assert tree.lines[2].ocr_class == "ocr_footer"
    assert [w.text for w in tree.lines[2].words] == ["Page 2"]
