"""Real conversions through the window: drop, progress in order, preview, export, bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent

from gui.queue_model import JobState
from gui_samples import write_encrypted_pdf

pytestmark = [pytest.mark.gui, pytest.mark.model]


def drop_files(widget, paths: list[Path]) -> None:
    """Deliver a real drop event carrying file URLs, as a file manager would."""
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    event = QDropEvent(QPointF(10, 10), Qt.DropAction.CopyAction, mime,
                       Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    widget.dropEvent(event)


def record_worker(window) -> list[tuple]:
    """The worker's signals in the order it emits them (recorded on its own thread)."""
    seen: list[tuple] = []
    worker = window.controller.worker
    direct = Qt.ConnectionType.DirectConnection
    worker.documentStarted.connect(lambda job, pages: seen.append(("started", job, pages)),
                                   direct)
    worker.pageDone.connect(lambda job, event: seen.append(("page", job, event.index,
                                                            event.total)), direct)
    worker.documentFinished.connect(lambda job, _result: seen.append(("finished", job)),
                                    direct)
    worker.documentFailed.connect(lambda job, kind, _msg: seen.append(("failed", job, kind)),
                                  direct)
    worker.documentCancelled.connect(lambda job: seen.append(("cancelled", job)), direct)
    return seen


def wait_idle(qtbot, window, timeout_ms: int = 120_000) -> None:
    qtbot.waitUntil(lambda: window.controller.running is None
                    and window.controller.model.next_waiting() is None, timeout=timeout_ms)


def test_drop_convert_preview_and_export(qtbot, engine_window, phototest, tmp_path):
    window = engine_window
    seen = record_worker(window)
    with qtbot.waitSignal(window.controller.jobFinished, timeout=120_000):
        drop_files(window.drop_area, [phototest])
    [job] = window.controller.model.jobs
    assert job.state is JobState.DONE, job.message
    qtbot.waitUntil(lambda: len(seen) == 3)  # recorded on the worker thread
    assert seen == [("started", job.id, 1), ("page", job.id, 0, 1), ("finished", job.id)]

    # The output folder of the settings holds the results.
    outputs = {Path(p).name for p in job.result.outputs}
    assert {"input.md", "input.json"} <= outputs
    assert (tmp_path / "out" / "input.md").is_file()

    # The preview shows the page picture with its boxes, and the Markdown both ways.
    preview = window.preview
    assert preview.job is job
    qtbot.waitUntil(lambda: preview.page_view.has_image, timeout=20_000)
    assert preview.page_view.box_count == len(job.result.pages[0].blocks) > 0
    assert "quick brown" in preview.source.toPlainText()
    assert "quick brown" in preview.rendered.toPlainText()

    # Clicking a box highlights its text; clicking the text highlights the box.
    preview.page_view.click_block(0)
    assert "quick" in preview.highlighted_text("source") or \
        "This" in preview.highlighted_text("source")
    assert preview.highlighted_text("rendered")
    preview.page_view.highlight(None)
    preview.markdown.click_at("source", 5)
    assert preview.page_view.highlighted() == 0

    # Export copies the Markdown and JSON into the chosen folder and remembers it.
    target = tmp_path / "exported"
    written = window.export_selected(target)
    assert {p.name for p in written} >= {"input.md", "input.json"}
    assert "quick brown" in (target / "input.md").read_text(encoding="utf-8")
    assert json.loads((target / "input.json").read_text(encoding="utf-8"))["pages"]
    saved = json.loads(window.store.path.read_text(encoding="utf-8"))
    assert saved["output"]["dir"] == str(target)
    assert window.state.recent_outputs()[0] == target / "input.md"


def test_corrupt_file_fails_with_its_message_and_queue_continues(qtbot, engine_window,
                                                                 phototest, tmp_path):
    window = engine_window
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.7\n" + b"\x00garbage" * 50)
    seen = record_worker(window)
    window.add_paths([broken, phototest])
    bad, good = window.controller.model.jobs
    wait_idle(qtbot, window)
    assert bad.state is JobState.FAILED
    assert bad.error_kind == "CorruptDocument"
    assert "broken.pdf" in bad.message
    assert window.controller.model.data(window.controller.model.index(0, 1)) == \
        f"Failed: {bad.message}"
    assert good.state is JobState.DONE
    qtbot.waitUntil(lambda: len(seen) == 4)
    assert [s[0] for s in seen] == ["failed", "started", "page", "finished"]
    assert not (tmp_path / "out" / "broken.md").exists()

    # Retry puts it back in the queue; it fails again the same way.
    window.queue_view.select_job(bad.id)
    window.retry_selected()
    wait_idle(qtbot, window)
    assert bad.state is JobState.FAILED


def test_password_prompt_then_conversion(qtbot, engine_window, tmp_path):
    window = engine_window
    locked = write_encrypted_pdf(tmp_path / "locked.pdf", "s3cret")
    answers = iter(["wrong", "s3cret"])
    asked: list[bool] = []

    def prompt(job, wrong):
        asked.append(wrong)
        return next(answers)

    window.password_prompt = prompt
    window.add_paths([locked])
    [job] = window.controller.model.jobs
    qtbot.waitUntil(lambda: job.state in (JobState.DONE, JobState.FAILED), timeout=60_000)
    assert asked == [False, True]
    assert job.state is JobState.DONE, job.message
    assert "invoices" in job.result.markdown


def test_password_prompt_refused_fails_the_document(qtbot, engine_window, tmp_path):
    window = engine_window
    window.password_prompt = lambda job, wrong: None
    window.add_paths([write_encrypted_pdf(tmp_path / "locked.pdf", "pw")])
    [job] = window.controller.model.jobs
    qtbot.waitUntil(lambda: job.state is JobState.FAILED, timeout=60_000)
    assert "encrypted" in job.message


def test_a_page_that_fails_marks_the_document_partial_and_says_why(qtbot, engine_window,
                                                                   tmp_path, monkeypatch):
    from engine import recipe
    from gui.queue_model import QueueModel
    from gui_samples import write_text_pdf

    def layout_failing_on_page_2(original):
        def stage(page, models):
            if page.page_number == 2:
                raise RuntimeError("injected layout fault")
            return original(page, models)
        return stage

    monkeypatch.setattr(recipe, "PAGE_STAGES", tuple(
        (name, layout_failing_on_page_2(fn) if name == "layout" else fn)
        for name, fn in recipe.PAGE_STAGES))
    window = engine_window
    with qtbot.waitSignal(window.controller.jobFinished, timeout=120_000):
        drop_files(window.drop_area, [write_text_pdf(tmp_path / "three.pdf", pages=3)])
    [job] = window.controller.model.jobs
    assert job.state is JobState.PARTIAL, job.message
    model = window.controller.model
    row = model.index(0, QueueModel.STATUS)
    assert model.data(row) == "Partly done: page(s) 2 not read"
    tip = model.data(row, Qt.ItemDataRole.ToolTipRole)
    assert "Page 2 (layout): RuntimeError: injected layout fault" in tip
    assert job.markdown_path is not None and job.markdown_path.is_file()
