"""Cancellation: cooperative, its own outcome, prompt, and it writes nothing."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from engine import events
from engine.errors import Cancelled
from engine.options import ConvertOptions, TextMethod

from engine_samples import folder_files, numbered_pages, write_text_pdf

pytestmark = pytest.mark.model


@pytest.fixture
def ten_pages(tmp_path: Path) -> Path:
    # Digital pages, read by OCR so that every page costs real model time.
    return write_text_pdf(tmp_path / "ten_pages.pdf", numbered_pages(10, lines_per_page=12))


@pytest.fixture
def out_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "out"
    folder.mkdir()
    return folder


def test_cancel_after_first_page(engine, ten_pages, out_dir):
    cancel = threading.Event()
    done: list[events.PageDone] = []

    def on_event(event):
        if isinstance(event, events.PageDone):
            done.append(event)
            if event.index == 0:
                cancel.set()  # page 2 is next

    with pytest.raises(Cancelled) as caught:
        engine.convert(ten_pages, ConvertOptions(output_dir=str(out_dir), method=TextMethod.OCR),
                       on_event=on_event, cancel=cancel)
    assert len(done) <= 2
    assert done[0].result.text_source.value == "ocr"
    assert folder_files(out_dir) == []
    assert "nothing was written" in str(caught.value)


def test_cancel_during_second_page_returns_within_a_page(engine, ten_pages, out_dir):
    cancel = threading.Event()
    done: list[events.PageDone] = []
    marks: dict[str, float] = {}
    timers: list[threading.Timer] = []

    def cancel_now():
        marks["cancelled"] = time.perf_counter()
        cancel.set()

    def on_event(event):
        if isinstance(event, events.DocumentStarted):
            marks["started"] = time.perf_counter()
        elif isinstance(event, events.PageDone):
            done.append(event)
            if event.index == 0:
                page_s = time.perf_counter() - marks["started"]
                marks["page_s"] = page_s
                # Land the cancel inside page 2's stages, not at the page boundary.
                timer = threading.Timer(0.3 * page_s, cancel_now)
                timers.append(timer)
                timer.start()

    try:
        with pytest.raises(Cancelled):
            engine.convert(ten_pages, ConvertOptions(output_dir=str(out_dir),
                                                     method=TextMethod.OCR),
                           on_event=on_event, cancel=cancel)
        returned = time.perf_counter()
    finally:
        for timer in timers:
            timer.cancel()
    assert len(done) <= 2
    assert folder_files(out_dir) == []
    assert "cancelled" in marks, "the conversion ended before the cancel landed"
    latency_s = returned - marks["cancelled"]
    # One page's time, with room for a loaded machine.
    assert latency_s <= 1.5 * marks["page_s"] + 1.0, \
        f"cancel took {latency_s:.2f} s; a page takes {marks['page_s']:.2f} s"
