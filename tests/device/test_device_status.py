"""The status object the GUI and CLI show: before, after and without a decision."""

from __future__ import annotations

from device_fakes import INTEL_OLD, NVIDIA, FakeFacts, measurement, settings_at

from engine.device.policy import CalibrationOutcome
from engine.device.selector import DeviceSelector, ProcessDeviceState
from engine.events import DeviceDecided


def make(tmp_path, raw, facts, events=None):
    store, settings = settings_at(tmp_path / "s.json", raw=raw)
    return DeviceSelector(settings, store=store, facts=facts, data_folder=tmp_path / "data",
                          process_state=ProcessDeviceState(), platform="linux-x86_64",
                          on_event=events.append if events is not None else None)


def test_reading_status_decides_nothing(tmp_path):
    facts = FakeFacts(gpus=[NVIDIA])
    status = make(tmp_path, {}, facts).status()
    assert (status.configured, status.configured_origin, status.decided_by) == (
        "auto", "default", "not yet")
    assert status.effective is None and facts.asked == []


def test_saved_measurement_is_shown_before_the_first_use(tmp_path):
    raw = {"model": {"onnx_device": "cpu"}, "device": {"calibration": {"measurement": {
        "device": "cpu", "ratio": 28.5, "measured_at": "2026-04-01T00:00:00+00:00"}}}}
    status = make(tmp_path, raw, FakeFacts()).status()
    assert status.decided_by == "not yet" and status.ratio == 28.5
    assert status.measured_at.startswith("2026-04-01")


def test_policy_fallback_status_and_event(tmp_path):
    events = []
    selector = make(tmp_path, {"model": {"onnx_device": "gpu"}}, FakeFacts(gpus=[INTEL_OLD]),
                    events)
    selector.decision()
    status = selector.status()
    assert (status.effective, status.backend, status.decided_by) == ("cpu", "cpu", "fallback")
    assert status.reason_code == "webgpu_architecture_policy"
    assert "Intel graphics generation" in status.fallback_reason
    assert status.last_decision["reason_code"] == "webgpu_architecture_policy"
    assert len(events) == 1 and isinstance(events[0], DeviceDecided)
    assert events[0].device == "cpu" and "Intel" in events[0].reason


def test_measured_gpu_status_names_the_adapter(tmp_path):
    facts = FakeFacts(gpus=[NVIDIA], outcome=CalibrationOutcome(
        measurement("gpu", 0.41, code="gpu_faster"), measured_at="2026-06-01T00:00:00+00:00"))
    selector = make(tmp_path, {}, facts)
    selector.decision()
    status = selector.status()
    assert (status.effective, status.backend, status.adapter, status.decided_by) == (
        "gpu", "webgpu", "NVIDIA GPU 10de:2489", "measured")
    assert status.ratio == 0.41 and status.fallback_reason is None
    assert status.reason_code == "gpu_faster"
    assert status.to_json()["notes"] == ()


def test_status_does_not_wait_for_a_running_calibration(tmp_path):
    import threading
    import time

    release = threading.Event()

    class BlockingFacts(FakeFacts):
        def calibrate(self, target):
            release.wait(10)
            return super().calibrate(target)

    selector = make(tmp_path, {}, BlockingFacts(gpus=[NVIDIA]))
    worker = threading.Thread(target=selector.decision)
    worker.start()
    try:
        time.sleep(0.2)
        start = time.perf_counter()
        status = selector.status()
        assert time.perf_counter() - start < 1.0
        assert status.decided_by == "not yet"
    finally:
        release.set()
        worker.join(10)
    assert selector.status().decided_by == "measured"
