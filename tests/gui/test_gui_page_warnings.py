"""A page's warning (a page that looks handwritten) reaches the queue with its page number, as
the document's own warnings name it; a warning about the whole document stays as it is."""

from __future__ import annotations

import threading

import pytest

from engine import events
from engine.types import DocumentResult, PageResult, TextSource
from gui.worker import ConversionRequest, ConversionWorker

pytestmark = pytest.mark.gui

HANDWRITTEN = "looks handwritten: the text recogniser was trained on print"


class WarningEngine:
    """Reports one page warning and one document warning, then a one-page result."""

    def convert(self, path, options, on_event, cancel):
        on_event(events.Warning(str(path), HANDWRITTEN, 2))
        on_event(events.Warning(str(path), "xlsx left out: no table"))
        page = PageResult(2, 10, 10, 72.0, TextSource.OCR, "image input",
                          warnings=(HANDWRITTEN,), handwriting=True)
        return DocumentResult(path=str(path), kind="png", page_count=2, pages=(page,))


def test_the_queue_hears_which_page_a_warning_is_about(qtbot, gui_store, tmp_path):
    worker = ConversionWorker(gui_store, engine_factory=lambda settings: WarningEngine())
    heard: list[str] = []
    worker.warningRaised.connect(lambda job_id, message: heard.append(message))
    request = ConversionRequest(job_id=1, path=str(tmp_path / "note.png"),
                                output_dir=str(tmp_path / "out"), output_name="note",
                                password=None, cancel=threading.Event())
    with qtbot.waitSignal(worker.documentFinished, timeout=5000):
        worker.convertRequested.emit(request)  # queued: handled while the test waits
    assert heard == [f"page 2: {HANDWRITTEN}", "xlsx left out: no table"]
