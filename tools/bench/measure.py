"""Running the engine over documents and recording wall, stage and pure-inference times."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from tools.bench.documents import BenchDocument
from tools.bench.stats import PageSample, RunSample, split_page_walls, split_timings

Progress = Callable[[str], None]


@dataclass(frozen=True)
class ColdStart:
    """The process's first convert: model store checks, session creation and first runs."""

    label: str
    import_s: float
    """Importing the engine (ONNX Runtime, PyMuPDF, OpenCV) before anything runs."""
    convert_s: float
    roles_loaded: tuple[str, ...]
    """Model roles whose sessions this convert created and ran."""


class _EventTimes:
    """The on_event callback: notes when the document started and each page finished."""

    def __init__(self) -> None:
        self.started_at = 0.0
        self.done_at: list[float] = []
        self.pages: list[tuple[int, str, dict[str, float]]] = []

    def __call__(self, event) -> None:
        from engine import events

        now = time.perf_counter()
        if isinstance(event, events.DocumentStarted):
            self.started_at = now
        elif isinstance(event, events.PageDone):
            self.done_at.append(now)
            self.pages.append((event.page_number, event.result.text_source.value,
                               dict(event.result.timings_s)))


def convert_once(engine, document: BenchDocument, options) -> RunSample:
    """One timed convert; page walls come from the event times (see split_page_walls)."""
    clock_before = engine.models.clock_snapshot()
    times = _EventTimes()
    start = time.perf_counter()
    result = engine.convert(document.path, options, on_event=times)
    convert_s = time.perf_counter() - start
    clock_after = engine.models.clock_snapshot()
    walls = split_page_walls(convert_s, times.started_at or start, times.done_at)
    pages = []
    for (number, source, timings), wall in zip(times.pages, walls):
        stages, onnx = split_timings(timings)
        pages.append(PageSample(page_number=number, text_source=source, wall_s=wall,
                                stages_s=stages, onnx_s=onnx))
    onnx_total = {role: seconds - clock_before.get(role, 0.0)
                  for role, seconds in clock_after.items()
                  if seconds - clock_before.get(role, 0.0) > 0}
    return RunSample(convert_s=convert_s, export_s=result.timings_s.get("export", 0.0),
                     pages=tuple(pages), onnx_total_s=onnx_total)


def measure_cold_start(engine, document: BenchDocument, options, import_s: float) -> ColdStart:
    before = set(engine.models.clock_snapshot())
    start = time.perf_counter()
    engine.convert(document.path, options)
    convert_s = time.perf_counter() - start
    loaded = tuple(sorted(set(engine.models.clock_snapshot()) - before))
    return ColdStart(label=document.label, import_s=import_s, convert_s=convert_s,
                     roles_loaded=loaded)


def measure_document(engine, document: BenchDocument, options, runs: int, warmup: int,
                     progress: Progress) -> list[RunSample]:
    """`warmup` untimed converts (file cache, allocator, recogniser cost model), then `runs`."""
    for _ in range(warmup):
        engine.convert(document.path, options)
    samples = []
    for index in range(runs):
        sample = convert_once(engine, document, options)
        samples.append(sample)
        progress(f"{document.label}: run {index + 1}/{runs} {sample.convert_s:.3f} s")
    return samples
