"""Pages at once: a page's picture is shown as soon as it is rendered, before any model runs;
its lines when OCR is done and its layout boxes when layout is done; the queue says page n of
N and how long the rest should take."""

from __future__ import annotations

import sys
from dataclasses import replace

import numpy as np
import pytest
from PySide6.QtCore import QThread

from engine import events
from engine.content.tables import Table
from gui.live_page import LivePageBuilder
from gui.queue_model import Job, JobState, status_text
from stepped_engine import SteppedEngine, page_lines, page_pixels, page_regions

pytestmark = pytest.mark.gui


def test_the_page_picture_comes_before_the_first_model_stage_finishes(qtbot, make_window,
                                                                       tmp_path):
    engine = SteppedEngine()
    window = make_window(lambda _settings: engine)
    window.show()
    source = tmp_path / "scan.pdf"
    source.write_bytes(b"%PDF-1.7\n")  # never opened: the engine is a stand-in
    window.add_paths([source])
    [job] = window.controller.model.jobs
    preview, view = window.preview, window.preview.page_view
    qtbot.waitUntil(lambda: job.state is JobState.PARSING)
    assert "Waiting for the first page" in view.scene().items()[0].text()

    engine.step(2)  # document started; page 1 rendered, and OCR, the first model, is running
    qtbot.waitUntil(lambda: view.has_image, timeout=10_000)
    assert engine.sent == ["DocumentStarted:", "PageProgress:render"]
    assert (view.line_count, view.box_count) == (0, 0)
    assert preview.page_index == 0 and "being read" in preview.page_caption.text()
    assert status_text(job) == "Page 1 of 2"
    assert window.controller.model.data(window.controller.model.index(0, 1)) == "Page 1 of 2"

    engine.step()  # OCR done: the lines, no layout boxes yet
    qtbot.waitUntil(lambda: view.line_count == 2, timeout=10_000)
    assert view.box_count == 0 and view.has_image
    engine.step()  # layout done: its boxes over the lines
    qtbot.waitUntil(lambda: view.box_count == 2, timeout=10_000)
    assert "Title" in preview.legend.text()

    engine.step()  # page 1 done: its blocks, on the picture drawn while it was read
    qtbot.waitUntil(lambda: 0 in job.pages, timeout=10_000)
    assert view.has_image and view.line_count == 0 and view.box_count == 2
    assert "blocks: 2" in preview.page_caption.text()
    assert status_text(job).startswith("Page 2 of 2 · ")
    assert status_text(job).endswith("left")

    engine.step()  # page 2 rendered: the view follows the newest page
    qtbot.waitUntil(lambda: preview.page_index == 1, timeout=10_000)
    assert view.has_image and view.box_count == 0
    engine.free = True
    engine.step()
    qtbot.waitUntil(lambda: job.state.finished, timeout=10_000)
    assert job.state is JobState.DONE
    assert not job.live
    assert preview.page_view.has_image


def test_a_page_still_being_read_is_dropped_when_its_document_is_cancelled(qtbot, make_window,
                                                                           tmp_path):
    engine = SteppedEngine()
    window = make_window(lambda _settings: engine)
    window.show()
    source = tmp_path / "long.pdf"
    source.write_bytes(b"%PDF-1.7\n")
    window.add_paths([source])
    [job] = window.controller.model.jobs
    engine.step(2)
    qtbot.waitUntil(lambda: window.preview.page_view.has_image, timeout=10_000)
    window.cancel_selected()
    qtbot.waitUntil(lambda: job.state is JobState.CANCELLED, timeout=10_000)
    assert not job.live and window.preview.page_index == -1
    assert not window.preview.page_view.has_image
    assert "Cancelled" in window.preview.page_view.scene().items()[0].text()


def progress(index: int, stage: str, pixels, lines=(), regions=None) -> events.PageProgress:
    return events.PageProgress("a.pdf", index + 1, index, 3, stage, pixels, 0, lines, regions)


def test_pictures_are_made_once_per_page_and_unchanged_stages_send_nothing(qtbot):
    builder = LivePageBuilder()
    pixels, lines, regions = page_pixels(1), page_lines(1), page_regions()
    first = builder.build(progress(0, "render", pixels))
    assert first is not None and (first.width, first.height) == (450, 600)
    assert first.image.width() == 450 and first.lines == () and first.blocks == ()
    assert builder.build(progress(0, "text_layer", pixels)) is None  # nothing new to draw
    with_lines = builder.build(progress(0, "ocr", pixels, lines))
    assert with_lines.image is first.image and with_lines.lines == lines
    with_regions = builder.build(progress(0, "layout", pixels, lines, regions))
    assert with_regions.blocks == regions and with_regions.image is first.image
    # The table stage puts cells on a region: the same boxes, nothing new to draw.
    tabled = (replace(regions[0], table=Table((), 0, 0)),) + regions[1:]
    assert builder.build(progress(0, "table", pixels, lines, tabled)) is None
    turned = builder.build(progress(0, "ocr", np.ascontiguousarray(pixels[::-1, ::-1]), lines))
    assert turned.image is not first.image  # a turned page is a new picture
    big = np.zeros((5000, 2500, 3), dtype=np.uint8)
    assert builder.build(progress(1, "render", big)).image.height() == 2000  # preview size


def test_live_pages_cross_from_the_conversion_thread(qtbot, make_window, tmp_path, monkeypatch):
    """The picture is made on the conversion thread; the window only draws it."""
    from gui.page_images import preview_image

    made_on: list[QThread] = []

    def recording(pixels):
        made_on.append(QThread.currentThread())
        return preview_image(pixels)

    monkeypatch.setattr("gui.live_page.preview_image", recording)
    engine = SteppedEngine(free=True)
    window = make_window(lambda _settings: engine)
    source = tmp_path / "scan.pdf"
    source.write_bytes(b"%PDF-1.7\n")
    with qtbot.waitSignal(window.controller.jobFinished, timeout=10_000):
        window.add_paths([source])
    assert len(made_on) == 2  # one picture per page
    assert all(thread is window.controller._worker_thread.thread for thread in made_on)


@pytest.mark.skipif(sys.byteorder != "little", reason="the opaque 32-bit layout is little-endian")
def test_the_picture_is_handed_to_the_screen_without_conversion(qtbot):
    """A page picture in any other format is scanned and converted by QPixmap.fromImage on the
    UI thread (3-7 ms for a page); opaque RGB32 is taken over as it is, pixels unchanged."""
    from PySide6.QtGui import QColor, QImage, QPixmap

    from gui.page_images import preview_image

    pixels = np.zeros((40, 30, 3), dtype=np.uint8)
    pixels[5, 7] = (200, 100, 50)
    image = preview_image(pixels)
    assert image.format() is QImage.Format.Format_RGB32
    shown = QPixmap.fromImage(image).toImage()
    assert shown.pixelColor(7, 5) == QColor(200, 100, 50)
    assert shown.pixelColor(0, 0) == QColor(0, 0, 0)
    grey = preview_image(np.full((8, 8), 77, dtype=np.uint8))
    assert grey.format() is QImage.Format.Format_RGB32 and grey.pixelColor(3, 3) == QColor(
        77, 77, 77)


def test_the_window_gets_pythons_lock_back_within_a_millisecond(make_window):
    """The conversion thread runs Python between model calls; at the interpreter's default
    switch interval each event of the window that found the lock taken waited ~5 ms."""
    from gui.worker import UI_SWITCH_INTERVAL_S

    previous = sys.getswitchinterval()
    sys.setswitchinterval(0.005)  # CPython's default
    try:
        make_window(lambda _settings: SteppedEngine(free=True))
        assert sys.getswitchinterval() == pytest.approx(UI_SWITCH_INTERVAL_S)
    finally:
        sys.setswitchinterval(previous)


def test_the_estimate_goes_by_the_pages_done_so_far():
    job = Job(1, None, None, "a", state=JobState.PARSING, page_count=10)
    job.started_s = 100.0
    assert job.seconds_left is None  # nothing to go by yet
    job.page_times_s, job.pages_done = [160.0], 1  # the first page also loaded the models
    assert job.seconds_left == 9 * 60.0
    assert status_text(job) == "Page 2 of 10 · ~9 min left"
    job.page_times_s, job.pages_done = [160.0, 180.0, 200.0], 3
    assert job.seconds_left == 7 * 20.0
    assert status_text(job) == "Page 4 of 10 · ~2 min left"
    job.page_times_s, job.pages_done = [160.0 + 20 * i for i in range(9)], 9
    assert status_text(job) == "Page 10 of 10 · under 1 min left"
    job.page_count, job.page_times_s = 400, [0.0, 30.0]
    assert status_text(job).endswith("~3 h 19 min left")
