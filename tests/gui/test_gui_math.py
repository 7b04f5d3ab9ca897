"""Formulas typeset in the Rendered tab: drawn as pictures, never shown as TeX source unless
the renderer rejects them, and then as the crop from the page when there is one."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QUrl
from PySide6.QtGui import QColor, QGuiApplication, QImage, QTextCursor, QTextDocument

from engine.content.crops import Crop
from engine.content.formulas import Formula
from engine.output.markdown import render_markdown
from engine.content.tables import Table, TableCell
from engine.types import Block, BlockKind, Box, DocumentResult, PageResult, Span, TextSource
from gui.markdown_pane import image_positions
from gui.math_view import MATH_SCHEME, FormulaRejected, find_formulas, formula_image
from gui.preview import PreviewPane
from gui.queue_model import JobState, QueueModel
from gui_samples import run_again_under_xvfb

pytestmark = pytest.mark.gui

EULER = r"e^{i\pi}+1=0"
FRACTION = r"\frac{a+b}{2} \geq \sqrt{ab}"
BROKEN = r"\frac{a}{"  # an unclosed group: latex2mathml gives up
UNKNOWN = r"\notacommand{x}"  # a command the renderer does not know


def math_job(tmp_path: Path):
    """A converted page as the writer puts it in Markdown: a sentence with inline formulas and
    money, a display formula, a doubtful reading the renderer rejects (its crop beside it), a
    rejected inline formula without one, and a table (HTML) with a formula in a cell."""
    out = tmp_path / "out"
    (out / "images").mkdir(parents=True)
    crop = QImage(300, 60, QImage.Format.Format_RGB888)
    crop.fill(QColor("darkseagreen"))
    assert crop.save(str(out / "images" / "page-p1-formula-2.png"))
    inline = (Span("Euler wrote "), Span("eiπ+1=0", latex=EULER), Span(" for $5, and "),
              Span("x", latex=UNKNOWN), Span(" too."))
    blocks = (
        Block(BlockKind.TEXT, Box(20, 20, 580, 60), text="Euler wrote eiπ+1=0 for $5, and x too.",
              spans=inline),
        Block(BlockKind.FORMULA, Box(20, 80, 580, 140), formula=Formula(FRACTION, 0.97)),
        Block(BlockKind.FORMULA, Box(20, 160, 580, 220), formula=Formula(BROKEN, 0.41),
              crop=Crop("images/page-p1-formula-2.png")),
        Block(BlockKind.TABLE, Box(20, 240, 580, 300), text="x_1 2",
              table=Table((TableCell(0, 0, "$x_1$"), TableCell(0, 1, "2")), 1, 2)),
    )
    page = PageResult(page_number=1, width=600, height=400, dpi=72.0,
                      text_source=TextSource.OCR, text_source_reason="image", blocks=blocks)
    markdown = render_markdown([page])
    (out / "page.md").write_text(markdown, encoding="utf-8")
    source = tmp_path / "page.png"
    scan = QImage(600, 400, QImage.Format.Format_RGB888)
    scan.fill(QColor("white"))
    assert scan.save(str(source))
    result = DocumentResult(path=str(source), kind="png", page_count=1, pages=(page,),
                            markdown=markdown, outputs=(str(out / "page.md"),))
    job = QueueModel().add(source, out)
    job.state, job.result, job.pages = JobState.DONE, result, {0: page}
    job.page_count = job.pages_done = 1
    return job


def ink(image: QImage) -> int:
    """Pixels with any paint on them."""
    image = image.convertToFormat(QImage.Format.Format_ARGB32)
    pixels = np.frombuffer(image.constBits(), np.uint8).reshape(image.height(),
                                                                image.bytesPerLine() // 4, 4)
    return int((pixels[..., 3] > 0).sum())


def test_formulas_are_found_where_markdown_has_them():
    markdown = ("Price \\$5 and $x^2$ here; $5 and $6 are money.\n\n$$\n\\frac{1}{2}\n$$\n\n"
                "`$code$` and\n\n```\n$$fenced$$\n```\n<!-- $comment$ -->\n$ spaced$ $a$")
    assert [(f.latex, f.display) for f in find_formulas(markdown)] == \
        [("x^2", False), ("\\frac{1}{2}", True), ("a", False)]


def test_a_formula_is_drawn_and_bad_latex_is_rejected(qapp):
    image = formula_image(FRACTION, True, 16, 8)
    assert image.width() > 40 and ink(image) > 200
    for latex in (BROKEN, UNKNOWN):
        with pytest.raises(FormulaRejected):
            formula_image(latex, False, 16, 8)


def test_rendered_tab_typesets_math_and_shows_a_rejected_formulas_crop(qtbot, tmp_path):
    pane = PreviewPane()
    qtbot.addWidget(pane)
    pane.resize(1000, 700)
    pane.show()
    job = math_job(tmp_path)
    pane.show_job(job)
    document = pane.rendered.document()
    qtbot.waitUntil(lambda: any(name.startswith(MATH_SCHEME)
                                for name in image_positions(document)), timeout=20_000)
    qtbot.waitUntil(lambda: pane.page_view.has_image, timeout=10_000)
    print(f"platform: {QGuiApplication.platformName()}")  # read by the run under X below

    names = [name for name in image_positions(document) if name.startswith(MATH_SCHEME)]
    assert len(names) == 3  # Euler's identity inline, the fraction displayed, the cell's
    for name in names:
        picture = document.resource(QTextDocument.ResourceType.ImageResource.value, QUrl(name))
        assert isinstance(picture, QImage) and ink(picture) > 30, name
    text = pane.rendered.toPlainText()
    assert "\\frac{a+b}" not in text and "\\pi" not in text and "\\geq" not in text
    assert "$5" in text  # the escaped dollar is money, not a formula's start
    # The rejected display formula: its crop from the page, once, and no TeX in its place.
    assert "images/page-p1-formula-2.png" in image_positions(document)
    assert sum(1 for c in text if c == "\ufffc") == 4
    assert "x_1" not in text and text.rstrip().endswith("2")  # the table is whole
    assert "\\frac{a}{" not in text
    # The rejected inline formula has no crop: its TeX source, set as code.
    assert "$\\notacommand{x}$" in text
    cursor = QTextCursor(document)
    cursor.setPosition(text.index("$\\notacommand") + 1)
    code = cursor.charFormat()
    assert code.fontFixedPitch() or "mono" in code.fontFamilies()[0].lower()

    # A click on the typeset display formula selects its block on the page.
    display_at = image_positions(document)[names[1]]
    pane.markdown.click_at("rendered", display_at)
    assert pane.page_view.highlighted() == 1


TYPESET_TEST = "test_rendered_tab_typesets_math_and_shows_a_rejected_formulas_crop"


@pytest.mark.skipif(os.environ.get("QT_QPA_PLATFORM") == "xcb", reason="already on X")
def test_the_same_under_an_x_server():
    """The Rendered tab's formulas again on the xcb platform a desktop runs (Xvfb)."""
    run_again_under_xvfb(__file__, TYPESET_TEST)
