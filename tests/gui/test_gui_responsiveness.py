"""The UI thread keeps answering while a multi-page document parses with OCR, with the daily-use
parts at work: the queue of an earlier session restored and saved again (history), the document
arriving through a watched folder (watch), and a screenshot pasted while it parses (paste).
The engine is the one the app ships: in its own process, made from the window's settings.

The largest event-loop gap is measured and reported (the target is 100 ms on a quiet machine);
the assertion compares it with the time a page takes in the same run."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QTimer, Qt
from PySide6.QtGui import QGuiApplication, QImage

from gui.queue_history import QueueHistory
from gui.queue_model import JobState, QueueModel
from gui_samples import write_text_pdf

pytestmark = [pytest.mark.gui, pytest.mark.model, pytest.mark.slow]

TICK_MS = 5
SCHEDSTAT = Path("/proc/thread-self/schedstat")
EARLIER_DOCUMENTS = 300
FORMULA_SET = Path(__file__).resolve().parents[2].parent / "shared" / "eval" / "formula"


def thread_times_s() -> tuple[float, float] | None:
    """Seconds this thread has run on a CPU, and spent runnable but waiting for one (Linux).

    On a machine shared with other busy processes the scheduler alone can keep a ready UI
    thread off the CPU; that wait is reported, and kept apart from blocking by this app. The
    time on a CPU between two ticks is the UI thread's own work, whatever the load."""
    try:
        on_cpu, waiting = SCHEDSTAT.read_text().split()[:2]
        return int(on_cpu) / 1e9, int(waiting) / 1e9
    except (OSError, ValueError):
        return None


def earlier_session(store_path: Path, folder: Path) -> None:
    """A queue.json of documents converted in an earlier session, as the window left it."""
    model = QueueModel()
    for number in range(EARLIER_DOCUMENTS):
        job = model.add(folder / f"earlier-{number}.pdf", folder)
        job.state, job.page_count = JobState.DONE, 3
        job.outputs = (str(folder / f"earlier-{number}.md"),)
    QueueHistory(store_path).save(model.jobs, wait=True)


def test_event_loop_never_blocks_over_100_ms(qtbot, make_window, gui_store, default_models,
                                             tmp_path, record_property):
    earlier_session(gui_store.path, tmp_path / "earlier")
    inbox, output = tmp_path / "inbox", tmp_path / "converted"
    inbox.mkdir()
    gui_store.set("watch.folders", [{"folder": str(inbox), "output": str(output)}])
    window = make_window()  # no engine factory: the shipping one, in a child process
    window.show()
    assert len(window.controller.model.jobs) == EARLIER_DOCUMENTS
    window.method_combo.setCurrentIndex(window.method_combo.findData("ocr"))
    record = json.loads((FORMULA_SET / "manifest.json").read_text())[0]
    screenshot = QImage(str(FORMULA_SET / record["input"]))
    assert not screenshot.isNull()

    # Made before the measurement: writing a PDF (and importing PyMuPDF for it) is the test's
    # work on this thread, not the window's. It arrives in the watched folder whole.
    staged = write_text_pdf(tmp_path / "four.pdf", pages=4, paragraphs=3)
    ticks: list[tuple[float, tuple[float, float] | None]] = []
    timer = QTimer()
    timer.setTimerType(Qt.TimerType.PreciseTimer)
    timer.setInterval(TICK_MS)
    timer.timeout.connect(lambda: ticks.append((time.perf_counter(), thread_times_s())))
    timer.start()
    os.replace(staged, inbox / "four.pdf")
    qtbot.waitUntil(lambda: window.controller.running is not None, timeout=30_000)
    document = window.controller.running
    qtbot.waitUntil(lambda: document.pages_done >= 1, timeout=180_000)
    mime = QMimeData()
    mime.setImageData(screenshot)
    QGuiApplication.clipboard().setMimeData(mime)
    window.commands.paste.trigger()
    qtbot.waitUntil(lambda: len(window.controller.model.jobs) == EARLIER_DOCUMENTS + 2,
                    timeout=10_000)
    pasted = window.controller.model.jobs[-1]
    qtbot.waitUntil(lambda: document.state.finished and pasted.state.finished, timeout=240_000)
    qtbot.wait(500)  # the last page's picture arrives and is drawn on the UI thread too
    timer.stop()
    assert document.state is JobState.DONE, document.message
    assert document.path.parent == inbox and (output / "four.md").is_file()
    assert len(document.result.pages) == 4
    assert pasted.state is JobState.DONE, pasted.message
    assert json.loads((gui_store.path.parent / "queue.json").read_text())["jobs"][-1][
        "path"] == str(pasted.path)  # the history was saved again, with both

    # (gap, of it waiting for a CPU, of it running on one)
    gaps = [(b[0] - a[0], *((b[1][1] - a[1][1], b[1][0] - a[1][0]) if a[1] and b[1]
                            else (0.0, 0.0)))
            for a, b in zip(ticks, ticks[1:])]
    worst_raw, waited, _ = max(gaps)
    worst_own = max(gap - wait for gap, wait, _ in gaps)
    worst_work = max(work for _, _, work in gaps)
    ordered = sorted(gap for gap, _, _ in gaps)
    page_s = (document.page_times_s[-1] - document.started_s) / len(document.result.pages)
    record_property("max_event_loop_gap_ms", round(worst_raw * 1000, 1))
    record_property("max_gap_without_cpu_wait_ms", round(worst_own * 1000, 1))
    record_property("max_ui_work_between_ticks_ms", round(worst_work * 1000, 1))
    print(f"\n{len(ticks)} ticks of {TICK_MS} ms over {ticks[-1][0] - ticks[0][0]:.1f} s "
          f"({page_s:.1f} s a page): largest event-loop gap {worst_raw * 1000:.1f} ms "
          f"({waited * 1000:.1f} ms of it waiting for a CPU), largest gap without CPU wait "
          f"{worst_own * 1000:.1f} ms, most UI-thread work between two ticks "
          f"{worst_work * 1000:.1f} ms, 99th percentile "
          f"{ordered[int(len(ordered) * 0.99)] * 1000:.1f} ms")
    # Wall-clock limits are not asserted on a shared machine; a ratio within this run is. Any
    # page-sized piece of work on the UI thread would freeze it for a whole page's time, so the
    # largest gap must stay well below the time one page takes.
    assert worst_own < 0.25 * page_s, (worst_own, page_s)
