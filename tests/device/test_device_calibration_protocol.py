"""The adaptive calibration protocol on synthetic timings: triggers, stability, decoding."""

from __future__ import annotations

import pytest

from engine.device import calibration
from engine.device.calibration import Run, drift, extension_triggers, iqr_ratio, measure

TEXT = ("line one", "第二行", "3.14")


def scripted(times: list[float], calls: list[str], name: str, decoded=None):
    """A runner that returns the given times in order and logs each call."""
    queue = list(times)

    def run() -> Run:
        calls.append(name)
        seconds = queue.pop(0)
        return Run(seconds, decoded(len(calls)) if decoded else TEXT)

    return run


def run_protocol(cpu: list[float], gpu: list[float], threshold: float = 0.8, **kw):
    calls: list[str] = []
    result = measure(scripted(cpu, calls, "cpu", kw.get("cpu_decoded")),
                     scripted(gpu, calls, "gpu", kw.get("gpu_decoded")), threshold)
    return result, calls


def test_threshold_is_point_eight_per_backend():
    assert calibration.THRESHOLDS == {"webgpu": 0.8, "dml": 0.8}


def test_far_and_steady_decides_after_one_plus_three_cpu_first():
    result, calls = run_protocol([9.0, 1.0, 1.01, 1.02], [30.0, 5.0, 5.1, 5.05])
    assert calls == ["cpu"] * 4 + ["gpu"] * 4
    assert result.valid and result.sampling == "1+3" and result.extension_reasons == ()
    assert result.device == "cpu" and result.reason_code == "gpu_slower"
    assert result.ratio == pytest.approx(5.05 / 1.01)


def test_clearly_faster_gpu_wins():
    result, _ = run_protocol([2, 1.0, 1.0, 1.0], [3, 0.3, 0.3, 0.31])
    assert result.valid and result.device == "gpu" and result.reason_code == "gpu_faster"


@pytest.mark.parametrize("ratio, near", [(0.85, True), (0.7, True), (0.9, True), (0.69, False),
                                         (0.91, False)])
def test_near_threshold_trigger_is_inclusive(ratio, near):
    triggers = extension_triggers([1.0, 1.0, 1.0], [ratio] * 3, 0.8)
    assert (calibration.TRIGGER_NEAR in triggers) is near
    assert calibration.TRIGGER_SPREAD not in triggers


def test_spread_trigger_alone():
    triggers = extension_triggers([1.0, 1.0, 1.2], [3.0, 3.0, 3.0], 0.8)
    assert triggers == [calibration.TRIGGER_SPREAD]


def test_range_trigger_alone():
    # Median ratio 0.684 is outside 0.7..0.9 and both spreads are under 0.15, but the slowest
    # GPU run over the fastest CPU run reaches the threshold.
    cpu, gpu = [1.0, 1.14, 1.14], [0.78, 0.78, 0.80]
    assert calibration.spread(cpu) <= 0.15 and calibration.spread(gpu) <= 0.15
    assert extension_triggers(cpu, gpu, 0.8) == [calibration.TRIGGER_RANGE]


def test_extension_reuses_sessions_to_ten_runs_and_decides_on_last_seven():
    cpu = [5, 1.0, 1.0, 1.0] + [1.0] * 6
    gpu = [9, 0.85, 0.85, 0.6] + [0.6] * 6
    result, calls = run_protocol(cpu, gpu)
    assert calls == ["cpu"] * 4 + ["gpu"] * 4 + ["cpu"] * 6 + ["gpu"] * 6
    assert result.sampling == "3+7" and calibration.TRIGGER_NEAR in result.extension_reasons
    assert result.initial_ratio == pytest.approx(0.85)
    # Runs 4..10 decide: the short run's 4th call is kept as a formal sample.
    assert result.ratio == pytest.approx(0.6)
    assert result.valid and result.device == "gpu"
    assert len(result.cpu_seconds) == len(result.gpu_seconds) == 10


def test_wide_interquartile_range_invalidates():
    cpu = [5, 1.0, 1.0, 1.0] + [1.0] * 6
    gpu = [9, 0.85, 0.85, 0.85] + [0.85, 0.85, 1.3, 1.3, 1.3, 0.85]
    result, _ = run_protocol(cpu, gpu)
    assert not result.valid and result.device == "cpu"
    assert result.reason_code == "calibration_invalid"
    assert result.gpu_stats.iqr_ratio > 0.15


def test_drift_alone_invalidates_a_close_call():
    formal = [0.75 * t for t in (1.0, 1.0, 1.0, 1.05, 1.1, 1.2, 1.2)]
    assert iqr_ratio(formal) <= 0.15 and drift(formal) > 0.15
    cpu = [5, 1.0, 1.0, 1.0] + [1.0] * 6
    gpu = [9, 0.85, 0.85] + formal
    result, _ = run_protocol(cpu, gpu)
    assert not result.valid and result.reason_code == "calibration_invalid"
    assert "drift" in result.reason


def test_one_isolated_slow_run_does_not_veto():
    formal = [0.85, 0.85, 0.85, 0.85, 0.85, 0.85, 2.5]
    assert iqr_ratio(formal) == 0 and drift(formal) == 0
    cpu = [5, 1.0, 1.0, 1.0] + [1.0] * 6
    gpu = [9, 0.85, 0.85] + formal
    result, _ = run_protocol(cpu, gpu)
    assert result.valid and result.device == "cpu" and result.ratio == pytest.approx(0.85)


def test_gpu_decoding_differently_is_a_mismatch():
    result, _ = run_protocol([1, 1, 1, 1], [5, 5, 5, 5],
                             gpu_decoded=lambda n: ("line one", "第三行", "3.14"))
    assert not result.valid and result.device == "cpu"
    assert result.reason_code == "calibration_mismatch"
    assert "第三行" in result.mismatch and "image 2" in result.mismatch


def test_cpu_repeat_decoding_differently_is_a_mismatch():
    result, _ = run_protocol([1, 1, 1, 1], [5, 5, 5, 5],
                             cpu_decoded=lambda n: TEXT if n != 3 else ("x",) + TEXT[1:])
    assert not result.valid and result.reason_code == "calibration_mismatch"


def test_mismatch_in_the_extension_is_caught():
    cpu = [5, 1.0, 1.0, 1.0] + [1.0] * 6
    gpu = [9, 0.85, 0.85, 0.85] + [0.85] * 6
    result, _ = run_protocol(cpu, gpu, gpu_decoded=lambda n: TEXT if n < 15 else ("?",) * 3)
    assert result.sampling == "3+7" and result.reason_code == "calibration_mismatch"


def test_ratio_exactly_at_threshold_chooses_gpu_after_stable_extension():
    result, _ = run_protocol([1, 1.0, 1.0, 1.0] + [1.0] * 6, [1, 0.8, 0.8, 0.8] + [0.8] * 6)
    assert result.sampling == "3+7" and result.valid and result.device == "gpu"


def test_measurement_serialises_to_json():
    import json

    result, _ = run_protocol([9.0, 1.0, 1.01, 1.02], [30.0, 5.0, 5.1, 5.05])
    data = json.loads(json.dumps(result.to_json()))
    assert data["sampling"] == "1+3" and data["cpu_seconds"][0] == 9.0
    assert data["cpu_stats"]["median_s"] == pytest.approx(1.01)


def busy_machine_38x():
    """A loaded two-core machine: the GPU ~38x slower, the CPU drifting by 0.17."""
    cpu_formal = [1.0, 1.0, 1.0, 1.08, 1.17, 1.17, 1.17]
    gpu_formal = [38.0, 38.5, 37.6, 38.2, 39.0, 38.1, 37.9]
    cpu = [3.0, 1.0, 1.17, 1.0] + cpu_formal[1:]
    gpu = [60.0, 38.0, 38.5, 37.6] + gpu_formal[1:]
    return cpu, gpu


def test_unstable_timings_far_from_the_threshold_still_decide_cpu():
    cpu, gpu = busy_machine_38x()
    assert drift(cpu[3:]) > calibration.DRIFT_LIMIT
    result, calls = run_protocol(cpu, gpu)
    assert len(calls) == 20 and result.sampling == "3+7"
    assert not result.cpu_stats.stable
    assert result.valid and result.device == "cpu" and result.reason_code == "gpu_slower"
    assert result.ratio == pytest.approx(38.1 / 1.08, rel=0.05)
    assert "not stable" in result.reason and "clearly above the threshold" in result.reason
    # The same drift on a close call (the ratio's bounds, 0.77 .. 0.95, straddle 0.8) keeps the
    # stability rule: not decided, not saved.
    gpu_close = [5.0, 0.95, 0.9, 0.95, 0.95, 0.9, 0.95, 0.9, 0.95, 0.95]
    assert calibration.clear_side(cpu[3:], gpu_close[3:], 0.8) is None
    close, _ = run_protocol(cpu, gpu_close)
    assert not close.valid and close.reason_code == "calibration_invalid"
