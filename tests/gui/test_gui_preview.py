"""The preview on a hand-made result: page picture, boxes by kind, pictures found beside the .md."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QUrl
from PySide6.QtGui import QColor, QImage, QTextCursor, QTextDocument

from engine.content.crops import Crop
from engine.types import Block, BlockKind, Box, DocumentResult, PageResult, TextSource
from gui.markdown_pane import MAX_INLINE_IMAGE_WIDTH
from gui.preview import PreviewPane
from gui.queue_model import JobState, QueueModel

pytestmark = pytest.mark.gui


def make_done_job(tmp_path: Path):
    scan = QImage(600, 400, QImage.Format.Format_RGB888)
    scan.fill(QColor("white"))
    source = tmp_path / "scan.png"
    assert scan.save(str(source))
    out = tmp_path / "out"
    (out / "images").mkdir(parents=True)
    figure = QImage(1600, 800, QImage.Format.Format_RGB888)
    figure.fill(QColor("steelblue"))
    assert figure.save(str(out / "images" / "scan-p1-0.png"))
    blocks = (
        Block(BlockKind.TITLE, Box(20, 20, 580, 60), text="Quarterly report", level=1),
        Block(BlockKind.TEXT, Box(20, 80, 580, 200), text="Revenue grew in every region."),
        Block(BlockKind.FIGURE, Box(20, 220, 580, 380), crop=Crop("images/scan-p1-0.png")),
    )
    page = PageResult(page_number=1, width=600, height=400, dpi=72.0,
                      text_source=TextSource.OCR, text_source_reason="image", blocks=blocks)
    markdown = ("# Quarterly report\n\nRevenue grew in every region.\n\n"
                "![figure](images/scan-p1-0.png)\n")
    (out / "scan.md").write_text(markdown)
    result = DocumentResult(path=str(source), kind="png", page_count=1, pages=(page,),
                            markdown=markdown, outputs=(str(out / "scan.md"),))
    job = QueueModel().add(source, out)
    job.state, job.result, job.pages = JobState.DONE, result, {0: page}
    job.page_count = job.pages_done = 1
    return job


def test_preview_shows_page_boxes_and_markdown_with_its_pictures(qtbot, tmp_path):
    pane = PreviewPane()
    qtbot.addWidget(pane)
    pane.resize(1200, 700)
    pane.show()
    job = make_done_job(tmp_path)
    pane.show_job(job)
    assert pane.pages.count() == 1
    assert pane.page_view.box_count == 3
    qtbot.waitUntil(lambda: pane.page_view.has_image, timeout=10_000)
    assert "Title" in pane.legend.text() and "Figure" in pane.legend.text()

    # The picture's relative link resolves against the output folder, not the working folder.
    image = pane.rendered.loadResource(QTextDocument.ResourceType.ImageResource.value,
                                       QUrl("images/scan-p1-0.png"))
    assert image is not None and not QImage.fromData(image).isNull()
    assert "Quarterly report" in pane.rendered.toPlainText()

    # Box -> text, and text -> box.
    pane.page_view.click_block(1)
    assert pane.highlighted_text("source") == "Revenue grew in every region."
    assert "Revenue" in pane.highlighted_text("rendered")
    pane.markdown.click_at("source", 3)  # inside "# Quarterly report"
    assert pane.page_view.highlighted() == 0
    before_path = "# Quarterly report\n\nRevenue grew in every region.\n\n![figure]("
    pane.markdown.click_at("source", len(before_path) + 3)
    assert pane.page_view.highlighted() == 2
    pane.page_view.highlight(None)
    picture_at = pane.rendered.toPlainText().index("\ufffc")
    pane.markdown.click_at("rendered", picture_at)  # a click on the picture in the rendered view
    assert pane.page_view.highlighted() == 2
    cursor = QTextCursor(pane.rendered.document())
    cursor.setPosition(picture_at + 1)
    assert cursor.charFormat().toImageFormat().width() == MAX_INLINE_IMAGE_WIDTH  # 1600 shrunk

    pane.boxes_toggle.setChecked(False)
    assert not any(item.isVisible() for item in pane.page_view._boxes)


def test_a_page_picture_that_arrives_after_its_window_closed_is_dropped(qtbot):
    """Page pictures render in the background; one can arrive after the window is gone (closing
    mid-render, or the end of a test). Delivering it must not touch the deleted scene."""
    import shiboken6

    from gui.page_view import PageView

    view = PageView()
    image = QImage(20, 20, QImage.Format.Format_RGB32)
    image.fill(QColor("white"))
    qtbot.addWidget(view)
    view.set_page(PageResult(page_number=1, width=20, height=20, dpi=72.0,
                             text_source=TextSource.OCR, text_source_reason="image"), None)
    shiboken6.delete(view.scene())  # what closing the window does to it, before the picture came
    view.set_image(image)  # raised "Internal C++ object already deleted" before the check
    assert not view.has_image


def test_a_page_read_from_office_markup_is_named_so_and_has_no_picture_to_draw(qtbot, tmp_path):
    from dataclasses import replace

    pane = PreviewPane()
    qtbot.addWidget(pane)
    job = make_done_job(tmp_path)
    page = replace(job.pages[0], text_source=TextSource.NATIVE)
    job.pages = {0: page}
    job.result = replace(job.result, kind="docx", pages=(page,))
    pane.show_job(job)
    assert "the document's markup" in pane.page_caption.text()
    assert pane.page_view.box_count == 3
    assert not pane.page_view.has_image and not pane._images._loading  # nothing rendered
