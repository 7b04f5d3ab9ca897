"""The engine as the app ships it, in a child process: a real conversion end to end, a page
read there as it is read here, cancel, a child killed mid-document, and no process left once
the window closes."""

from __future__ import annotations

import logging
import multiprocessing
import os
import pickle
import signal
import sys

import threading
from dataclasses import replace

import cv2
import numpy as np
import pytest
from PySide6.QtCore import Qt

from engine.types import DocumentResult, PageResult, TextSource
from gui.engine_child import Finished, picklable_record
from gui.engine_process import EngineProcess, forward_log, lost_message
from gui.queue_model import JobState
from gui_samples import write_text_pdf

pytestmark = pytest.mark.gui
DIRECT = Qt.ConnectionType.DirectConnection


def process_exists(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def child_pid(window) -> int:
    engine = window.controller.worker.engine
    assert isinstance(engine, EngineProcess)  # the shipping engine, not a test's stand-in
    assert engine.pid is not None and engine.pid != os.getpid()
    return engine.pid


@pytest.fixture
def shipping_window(make_window, default_models):
    """A shown window with no engine factory given: the engine runs in a child process."""
    window = make_window()
    window.show()
    return window


def start_long_document(qtbot, window, tmp_path, then=()) -> list:
    """Queue a 4-page PDF read with OCR (and `then`); return the jobs once its first page shows."""
    window.method_combo.setCurrentIndex(window.method_combo.findData("ocr"))
    pdf = write_text_pdf(tmp_path / "long.pdf", pages=4, paragraphs=3)
    with qtbot.waitSignal(window.controller.pageArrived, timeout=120_000):
        window.add_paths([pdf, *then])
    return window.controller.model.jobs


def nothing_written_for(folder, stem: str) -> bool:
    return not list(folder.glob(f"{stem}*")) and not list(folder.glob(f".{stem}*"))


@pytest.mark.model
def test_a_document_converts_in_the_conversion_process(qtbot, shipping_window, phototest,
                                                       tmp_path, caplog):
    caplog.set_level(logging.INFO)  # before the first document starts the child
    window = shipping_window
    worker = window.controller.worker
    seen: list[tuple] = []
    worker.documentStarted.connect(lambda _job, pages: seen.append(("started", pages)), DIRECT)
    worker.pageProgress.connect(lambda _job, live: seen.append(("live", live)), DIRECT)
    worker.pageDone.connect(lambda _job, event: seen.append(("page", event.index)), DIRECT)
    worker.documentFinished.connect(lambda _job, _result: seen.append(("finished",)), DIRECT)
    with qtbot.waitSignal(window.controller.jobFinished, timeout=120_000):
        window.add_paths([phototest])
    [job] = window.controller.model.jobs
    assert job.state is JobState.DONE, job.message
    pid = child_pid(window)
    qtbot.waitUntil(lambda: seen and seen[-1] == ("finished",))

    names = [entry[0] for entry in seen]
    assert names[0] == "started" and seen[0] == ("started", 1)
    assert names[-2:] == ["page", "finished"] and "live" in names
    live = [entry[1] for entry in seen if entry[0] == "live"]
    page = job.result.pages[0]
    assert (live[0].width, live[0].height) == (page.width, page.height)  # boxes' pixels
    assert live[0].image is not None and not live[0].image.isNull()
    assert any(frame.lines for frame in live) and any(frame.blocks for frame in live)
    assert "quick brown" in job.result.markdown and page.blocks
    out = tmp_path / "out"
    assert (out / "input.md").read_text(encoding="utf-8") == job.result.markdown
    assert (out / "input.json").is_file()
    assert window.preview.page_view.has_image

    # The child reported its device decision; the status is read without asking it.
    assert worker.device_status().effective is not None
    # Its log records were handled here, as this process's own.
    assert any(record.getMessage() == f"conversion process {pid} ready"
               and record.process == pid for record in caplog.records)


@pytest.mark.model
def test_cancel_stops_the_document_and_the_same_process_converts_the_next(
        qtbot, shipping_window, phototest, tmp_path):
    window = shipping_window
    cancelled: list[int] = []
    window.controller.worker.documentCancelled.connect(cancelled.append, DIRECT)
    with qtbot.waitSignal(window.controller.deviceDecided, timeout=120_000):
        long_job, next_job = start_long_document(qtbot, window, tmp_path, then=[phototest])
    pid = child_pid(window)
    # While the child converts, the status it reported answers (no request on its pipe).
    assert long_job.state is JobState.PARSING
    assert window.controller.worker.device_status().effective is not None
    window.controller.cancel(long_job.id)
    qtbot.waitUntil(lambda: long_job.state.finished, timeout=60_000)

    assert long_job.state is JobState.CANCELLED and cancelled == [long_job.id]
    assert long_job.pages_done < 4
    qtbot.waitUntil(lambda: next_job.state.finished, timeout=120_000)
    assert next_job.state is JobState.DONE, next_job.message
    assert child_pid(window) == pid  # the same child, its models still loaded
    assert nothing_written_for(tmp_path / "out", "long")


@pytest.mark.model
def test_a_killed_conversion_process_fails_its_document_and_the_next_one_converts(
        qtbot, shipping_window, phototest, tmp_path):
    window = shipping_window
    long_job, next_job = start_long_document(qtbot, window, tmp_path, then=[phototest])
    pid = child_pid(window)
    os.kill(pid, signal.SIGKILL)
    qtbot.waitUntil(lambda: long_job.state.finished, timeout=30_000)

    assert long_job.state is JobState.FAILED
    assert long_job.error_kind == "HostLost"
    assert "stopped unexpectedly" in long_job.message and "SIGKILL" in long_job.message
    qtbot.waitUntil(lambda: next_job.state.finished, timeout=120_000)
    assert next_job.state is JobState.DONE, next_job.message
    assert child_pid(window) != pid and not process_exists(pid)
    # The killed child's staging folder went with the next writer to the same folder.
    assert nothing_written_for(tmp_path / "out", "long")


@pytest.mark.model
def test_no_conversion_process_outlives_its_engine_or_the_window(qtbot, shipping_window,
                                                                  phototest, tmp_path):
    window = shipping_window
    with qtbot.waitSignal(window.controller.jobFinished, timeout=120_000):
        window.add_paths([phototest])
    first = child_pid(window)
    window.controller.worker.forget_engine()  # re-measure: the next document gets a new Engine
    qtbot.waitUntil(lambda: not process_exists(first), timeout=20_000)
    assert window.controller.worker.engine is None

    start_long_document(qtbot, window, tmp_path)
    second = child_pid(window)
    assert second != first
    assert window.close()  # mid-document: cancelled, the thread and the child stopped
    assert window.controller._worker_thread.thread.isFinished()
    assert not process_exists(second)
    assert multiprocessing.active_children() == []
    assert nothing_written_for(tmp_path / "out", "long")


@pytest.mark.model
def test_a_page_read_through_the_conversion_process_is_the_page_read_here(default_models,
                                                                         engine, tmp_path):
    from engine.hosting import LocalConverter, sample_page
    from engine.options import options_from_settings

    path = tmp_path / "page.png"
    cv2.imwrite(str(path), sample_page())
    options = options_from_settings(default_models, output_dir=str(tmp_path / "out"))
    here, there = LocalConverter(engine), EngineProcess(default_models)
    stages: dict[str, list[str]] = {"here": [], "there": []}
    try:
        local = here.read_page(path, 1, options, "page", stages["here"].append,
                               threading.Event())
        remote = there.read_page(path, 1, options, "page", stages["there"].append,
                                 threading.Event())
        assert there.pid is not None and there.pid != os.getpid()
        assert there.device_status().effective == engine.device_status().effective
    finally:
        here.close()
        there.close()
    assert there.pid is None  # closed: no child left
    assert stages["there"] == stages["here"] and "ocr" in stages["here"]
    assert replace(remote.result, timings_s={}) == replace(local.result, timings_s={})
    assert "Paperlens" in " ".join(block.text for block in local.result.blocks)
    assert [name for name, _ in remote.crops] == [name for name, _ in local.crops]
    assert all(np.array_equal(a, b) for (_, a), (_, b) in zip(remote.crops, local.crops))
    assert (remote.image is None) == (local.image is None)


# -- the messages, without a child ---------------------------------------------------------------

def test_a_lost_child_is_described_by_its_signal_or_exit_code():
    # The child's typed errors crossing back: tests/engine/test_hosting.py, for every host.
    assert "SIGSEGV" in lost_message(-signal.SIGSEGV) and "exit code 3" in lost_message(3)


def test_a_result_crosses_a_page_at_a_time_and_log_records_as_records(caplog):
    pages = tuple(PageResult(page_number=n, width=10, height=20, dpi=72.0,
                             text_source=TextSource.OCR, text_source_reason="scan")
                  for n in (1, 2))
    result = DocumentResult(path="a.pdf", kind="pdf", page_count=2, pages=pages, markdown="# a")
    sent = pickle.loads(pickle.dumps(Finished.of(result)))
    assert sent.result.pages == () and len(sent.pages) == 2
    assert sent.document() == result

    try:
        raise ValueError("inside the child")
    except ValueError:
        raised = sys.exc_info()
    record = logging.LogRecord("engine.somewhere", logging.WARNING, __file__, 1,
                               "page %d: %s", (3, "odd"), raised)
    crossed = pickle.loads(pickle.dumps(picklable_record(record, logging.Handler())))
    caplog.set_level(logging.INFO)
    forward_log(crossed)
    [got] = [r for r in caplog.records if r.name == "engine.somewhere"]
    assert got.getMessage() == "page 3: odd" and "ValueError: inside the child" in got.exc_text
