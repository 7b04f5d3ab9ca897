"""What one step of the engine costs: a page converted with the step on and with it off, in
turn (the order flipped every other run, so neither side always runs on a warmer machine),
after one warm-up of each; medians of the wall times and of the step's own time."""

from __future__ import annotations

import statistics
import time
from pathlib import Path


def time_on_off(engine, path: Path, on, off, stage: str, runs: int = 3) -> dict[str, float]:
    """`on` and `off`: the ConvertOptions with the step and without; `stage`: the step's
    name in each page's timings. The medians in seconds and their ratio, rounded to ms."""
    settings = {"on": on, "off": off}
    walls: dict[str, list[float]] = {"on": [], "off": []}
    own: list[float] = []
    for options in settings.values():  # warm-up: sessions made, caches filled
        engine.convert(path, options)
    order = list(settings.items())
    for run in range(runs):
        for name, options in (order if run % 2 == 0 else order[::-1]):
            start = time.perf_counter()
            result = engine.convert(path, options)
            walls[name].append(time.perf_counter() - start)
            if name == "on":
                own.append(sum(p.timings_s.get(stage, 0.0) for p in result.pages))
    median_on, median_off = statistics.median(walls["on"]), statistics.median(walls["off"])
    return {"median_on_s": round(median_on, 3), "median_off_s": round(median_off, 3),
            "ratio": round(median_on / median_off, 3),
            "median_stage_s": round(statistics.median(own), 3)}
