"""The on/off timing that the photo and math benches share: runs alternate, the order flips
every other run, each side is warmed once, and the step's own time is read from the pages."""

from __future__ import annotations

import time
from types import SimpleNamespace

from tools.onoff_bench import time_on_off


class _Engine:
    def __init__(self):
        self.calls = []

    def convert(self, path, options):
        self.calls.append(options)
        time.sleep(0.001)
        return SimpleNamespace(pages=[SimpleNamespace(timings_s={"step": 0.25})])


def test_runs_alternate_with_the_order_flipped_and_one_warm_up_each():
    engine = _Engine()
    timed = time_on_off(engine, "page.pdf", "on", "off", "step", runs=3)
    assert engine.calls == ["on", "off", "on", "off", "off", "on", "on", "off"]
    assert timed["median_stage_s"] == 0.25
    assert set(timed) == {"median_on_s", "median_off_s", "ratio", "median_stage_s"}
