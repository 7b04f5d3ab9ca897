"""Cancelling: one document mid-way, and closing the window while a document parses."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from gui.queue_model import JobState
from gui_samples import write_text_pdf

pytestmark = [pytest.mark.gui, pytest.mark.model]


def test_cancel_mid_document_leaves_no_output_and_queue_goes_on(qtbot, engine_window, phototest,
                                                                tmp_path):
    window = engine_window
    window.method_combo.setCurrentIndex(window.method_combo.findData("ocr"))
    pdf = write_text_pdf(tmp_path / "long.pdf", pages=4, paragraphs=3)
    pages_seen: list[int] = []
    window.controller.worker.pageDone.connect(lambda _job, event: pages_seen.append(event.index),
                                              Qt.ConnectionType.DirectConnection)
    with qtbot.waitSignal(window.controller.pageArrived, timeout=120_000):
        window.add_paths([pdf, phototest])
    long_job, next_job = window.controller.model.jobs
    assert long_job.state is JobState.PARSING and long_job.page_count == 4
    window.queue_view.select_job(long_job.id)
    window.cancel_selected()
    qtbot.waitUntil(lambda: next_job.state.finished, timeout=120_000)

    assert long_job.state is JobState.CANCELLED
    assert len(pages_seen) < 4
    assert window.controller.model.data(window.controller.model.index(0, 1)) == "Cancelled"
    assert next_job.state is JobState.DONE
    out = tmp_path / "out"
    assert not (out / "long.md").exists() and not (out / "long.json").exists()
    assert not [p for p in out.iterdir() if p.name.startswith(".long")]  # no staging left


def test_closing_the_window_during_a_parse_cancels_cleanly(qtbot, make_window, engine,
                                                           tmp_path):
    window = make_window(lambda _settings: engine)
    window.show()
    window.method_combo.setCurrentIndex(window.method_combo.findData("ocr"))
    pdf = write_text_pdf(tmp_path / "closing.pdf", pages=4, paragraphs=3)
    with qtbot.waitSignal(window.controller.pageArrived, timeout=120_000):
        window.add_paths([pdf])
    cancelled = []
    window.controller.worker.documentCancelled.connect(cancelled.append)
    assert window.close()
    thread = window.controller._worker_thread.thread
    assert thread.isFinished()
    [job] = window.controller.model.jobs
    assert job.cancel.is_set()
    out = tmp_path / "out"
    assert not list(out.glob("closing*")) and not list(out.glob(".closing*"))
