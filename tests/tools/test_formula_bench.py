"""The formula recogniser's speed measurement: timing wrapper, medians, report lines."""

import time

import numpy as np
import pytest

from tools.bench.formula_speed import (FormulaRepeat, TimedSession, measure_formula_speed,
                                       summarise_repeats)
from tools.bench.report import BenchReport, formula_lines, render_report, report_json
from tools.bench.stats import acceptance_figures
from tools.eval.formula_eval import FORMULA_SET_DIR, load_crop, load_formula_set, load_recognizer


class SleepySession:
    input_names = ["x"]

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.calls = 0

    def run(self, *inputs):
        self.calls += 1
        time.sleep(self.seconds)
        return [inputs[0] * 2]


def test_timed_session_adds_each_run_and_passes_results_through():
    totals = {"encoder": 0.0}
    session = TimedSession(SleepySession(0.01), totals, "encoder")
    assert session.input_names == ["x"]
    assert session.run(np.ones(2))[0].tolist() == [2.0, 2.0]
    session.run(np.ones(2))
    assert 0.02 <= totals["encoder"] < 0.2


def test_summary_takes_medians_per_formula():
    repeats = [FormulaRepeat(wall_s=1.0, encoder_s=0.2, decoder_s=0.6),
               FormulaRepeat(wall_s=2.0, encoder_s=0.4, decoder_s=1.2),
               FormulaRepeat(wall_s=1.2, encoder_s=0.3, decoder_s=0.7)]
    speed = summarise_repeats(repeats, images=10, batch_size=8)
    assert speed.ms_per_formula == pytest.approx(120.0)
    assert (speed.ms_per_formula_min, speed.ms_per_formula_max) == pytest.approx((100.0, 200.0))
    assert speed.images_per_s == pytest.approx(1000 / 120)
    assert speed.encoder_ms == pytest.approx(30.0)
    assert speed.decoder_ms == pytest.approx(70.0)
    assert speed.other_ms == pytest.approx(20.0)


def _report(formula, skipped=None) -> BenchReport:
    return BenchReport(machine={}, config={"runs": 3, "warmup": 1}, cold_start=None,
                       summaries=[], figures=acceptance_figures({}, []), peak_rss_mib=100.0,
                       formula=formula, formula_skipped=skipped)


def test_report_shows_the_formula_figures_alone_with_formula_only():
    speed = summarise_repeats([FormulaRepeat(0.8, 0.1, 0.6)], images=8, batch_size=8)
    text = render_report(_report(speed))
    assert "100.0" in text and "10.0" in text  # ms/formula, images/s
    assert "Per document" not in text and "digital PDF page" not in text
    assert report_json(_report(speed))["formula"]["ms_per_formula"] == pytest.approx(100.0)
    assert formula_lines(None, "no formula set") == [
        "formula recogniser: not timed (no formula set)"]


def test_measures_the_real_recogniser_on_three_images():
    if not (FORMULA_SET_DIR / "manifest.json").is_file():
        pytest.skip(f"formula evaluation set not found at {FORMULA_SET_DIR}")
    crops = [load_crop(item.image_path) for item in load_formula_set(FORMULA_SET_DIR)[:3]]
    speed = measure_formula_speed(load_recognizer(), crops, repeats=2, warmup=0)
    assert speed.images == 3 and speed.repeats == 2 and speed.batch_size == 8
    assert 0 < speed.encoder_ms < speed.ms_per_formula
    assert 0 < speed.decoder_ms < speed.ms_per_formula
    assert speed.other_ms > 0
