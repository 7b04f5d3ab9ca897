"""Saving a measured choice: concurrent writers, read-only files, env-forced auto, budgets."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest
from device_fakes import NVIDIA, FakeFacts, measurement, settings_at

from engine.device.persistence import calibration_budget, save_measured_choice
from engine.device.policy import CalibrationOutcome
from engine.device.selector import DeviceSelector, ProcessDeviceState
from settings import config_file

REPO_ROOT = Path(__file__).resolve().parents[2]
RECORD = {"device": "cpu", "ratio": 29.0, "measured_at": "2026-03-04T05:06:07+00:00",
          "report": "/r.json", "backend": "webgpu"}


def selector(store, settings, facts, folder: Path, state=None, **kw) -> DeviceSelector:
    return DeviceSelector(settings, store=store, facts=facts, data_folder=folder,
                          process_state=state or ProcessDeviceState(), platform="linux-x86_64",
                          **kw)


def test_measured_choice_is_saved_keeping_every_other_key(tmp_path):
    path = tmp_path / "settings.json"
    store, settings = settings_at(path, raw={"ui": {"language": "en"}, "mine": [1, 2]})
    facts = FakeFacts(gpus=[NVIDIA])
    facts.outcome = CalibrationOutcome(measurement("cpu", 29.0), measured_at="2026-03-04",
                                       report_path=None)
    chosen = selector(store, settings, facts, tmp_path / "data").decision()
    assert (chosen.device, chosen.decided_by) == ("cpu", "measured")
    raw = json.loads(path.read_text())
    assert raw["model"]["onnx_device"] == "cpu" and raw["ui"] == {"language": "en"}
    assert raw["mine"] == [1, 2]
    assert raw["device"]["calibration"]["measurement"]["ratio"] == 29.0
    # The next process reads it as a saved measurement and probes nothing.
    store2, settings2 = settings_at(path)
    facts2 = FakeFacts(gpus=[NVIDIA])
    again = selector(store2, settings2, facts2, tmp_path / "data").decision()
    assert (again.device, again.decided_by, again.ratio) == ("cpu", "saved", 29.0)
    assert facts2.asked == []


def test_a_person_who_chose_meanwhile_wins(tmp_path):
    path = tmp_path / "settings.json"
    store, settings = settings_at(path, raw={})

    class ChangingFacts(FakeFacts):
        def calibrate(self, target):
            settings_at(path)[0].set("model.onnx_device", "gpu")
            return super().calibrate(target)

    chooser = selector(store, settings, ChangingFacts(gpus=[NVIDIA]), tmp_path / "data")
    assert chooser.decision().decided_by == "measured"
    assert json.loads(path.read_text())["model"]["onnx_device"] == "gpu"
    assert "now says 'gpu'" in chooser.saved


def test_failed_measurement_is_not_saved_and_not_retried_in_the_process(tmp_path):
    path = tmp_path / "settings.json"
    store, settings = settings_at(path, raw={"ui": {"language": "en"}})
    state = ProcessDeviceState()
    facts = FakeFacts(gpus=[NVIDIA], outcome=CalibrationOutcome(
        None, "calibration_timeout", "no result within the 1 s budget", report_path=None))
    first = selector(store, settings, facts, tmp_path / "data", state).decision()
    assert (first.device, first.reason_code) == ("cpu", "calibration_timeout")
    assert json.loads(path.read_text()) == {"ui": {"language": "en"}}
    facts2 = FakeFacts(gpus=[NVIDIA])
    second = selector(store, settings, facts2, tmp_path / "data", state).decision()
    assert second.reason_code == "calibration_not_retried" and "calibrate" not in facts2.asked
    # A new process measures again.
    facts3 = FakeFacts(gpus=[NVIDIA])
    selector(store, settings, facts3, tmp_path / "data").decision()
    assert "calibrate" in facts3.asked


def test_env_forced_auto_measures_in_every_process_and_writes_nothing(tmp_path):
    path = tmp_path / "settings.json"
    env = {"HOME": str(tmp_path), "PAPERLENS_MODEL_ONNX_DEVICE": "auto"}
    store, settings = settings_at(path, env=env, raw={"model": {"onnx_device": "gpu"}})
    before = path.read_bytes()
    for _ in range(2):
        facts = FakeFacts(gpus=[NVIDIA])
        chooser = selector(store, settings, facts, tmp_path / "data")
        assert chooser.decision().decided_by == "measured"
        assert facts.calibrated and "PAPERLENS_MODEL_ONNX_DEVICE=auto" in chooser.saved
    assert path.read_bytes() == before


def test_read_only_settings_file_keeps_the_choice_in_memory(tmp_path, monkeypatch):
    # Tests run as root, where permission bits do not stop a write: refuse it the way the
    # settings store checks for it.
    path = tmp_path / "settings.json"
    store, settings = settings_at(path, raw={"ui": {"language": "en"}})
    before = path.read_bytes()
    real_access = os.access
    monkeypatch.setattr(config_file.os, "access", lambda p, mode, **kw: False if Path(p) == path
                        and mode == os.W_OK else real_access(p, mode, **kw))
    chooser = selector(store, settings, FakeFacts(gpus=[NVIDIA]), tmp_path / "data")
    decision = chooser.decision()
    assert (decision.device, decision.decided_by) == ("cpu", "measured")
    assert "read-only" in chooser.saved
    assert path.read_bytes() == before
    assert store.load().model.onnx_device == "cpu"  # this process sees its own choice


CONCURRENT_WRITER = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from settings import SettingsStore
    from engine.device.persistence import save_measured_choice
    path, role = Path(sys.argv[1]), sys.argv[2]
    store = SettingsStore(path, {"HOME": str(path.parent)})
    deadline = float(sys.argv[3])
    while time.time() < deadline:
        time.sleep(0.001)
    for i in range(15):
        if role == "measure":
            save_measured_choice(store, "cpu", {"device": "cpu", "ratio": 29.0})
        elif role == "language":
            store.set("ui.language", "zh_CN" if i % 2 else "en")
        else:
            store.update(lambda raw: raw.setdefault("counters", {}).__setitem__(role, i))
""")


def test_concurrent_writers_lose_no_key(tmp_path):
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"keep": True}))
    start_at = time.time() + 1.5
    roles = ["measure", "measure", "language", "a", "b"]
    procs = [subprocess.Popen([sys.executable, "-c", CONCURRENT_WRITER, str(path), role,
                               str(start_at)], cwd=REPO_ROOT) for role in roles]
    assert all(p.wait(timeout=120) == 0 for p in procs)
    raw = json.loads(path.read_text())
    assert raw["keep"] is True
    assert raw["model"]["onnx_device"] == "cpu"
    assert raw["device"]["calibration"]["measurement"]["ratio"] == 29.0
    assert raw["ui"]["language"] == "en"  # the last of 15 alternating writes
    assert raw["counters"] == {"a": 14, "b": 14}


def test_two_engines_at_once_measure_only_once(tmp_path):
    path = tmp_path / "settings.json"
    path.write_text("{}")
    calls = []

    class SlowFacts(FakeFacts):
        def calibrate(self, target):
            calls.append(threading.current_thread().name)
            time.sleep(0.5)
            return super().calibrate(target)

    decisions = {}

    def decide(name):
        store, settings = settings_at(path)
        decisions[name] = selector(store, settings, SlowFacts(gpus=[NVIDIA]),
                                   tmp_path / "data").decision()

    threads = [threading.Thread(target=decide, args=(n,), name=n) for n in ("one", "two")]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert len(calls) == 1
    assert sorted(d.decided_by for d in decisions.values()) == ["measured", "saved"]


def test_save_only_changes_a_file_that_still_says_auto(tmp_path):
    store, _ = settings_at(tmp_path / "s.json", raw={"model": {"onnx_device": "cpu"}})
    outcome = save_measured_choice(store, "gpu", RECORD)
    assert not outcome.saved and "'cpu'" in outcome.detail


@pytest.mark.parametrize("env, setting, expected", [
    ({}, None, (15.0, "default")),
    ({}, {"timeout_s": 40}, (40.0, "file")),
    ({"PAPERLENS_CALIBRATION_TIMEOUT_S": "90"}, {"timeout_s": 40}, (90.0, "env")),
    ({"PAPERLENS_CALIBRATION_TIMEOUT_S": "soon"}, {"timeout_s": 40}, (40.0, "file")),
    ({}, {"timeout_s": -3}, (15.0, "default")),
    ({}, {"timeout_s": True}, (15.0, "default")),
])
def test_calibration_budget_sources(env, setting, expected):
    budget = calibration_budget(setting, env)
    assert (budget.seconds, budget.origin) == expected
    bad = "soon" in env.values() or (setting and setting.get("timeout_s") in (-3, True))
    assert (budget.warning is not None) == bool(bad)


def test_busy_machine_far_from_the_threshold_saves_its_cpu_choice(tmp_path):
    from engine.device.calibration import Run, measure

    cpu_times = iter([3.0, 1.0, 1.17, 1.0, 1.0, 1.0, 1.08, 1.17, 1.17, 1.17])
    gpu_times = iter([60.0, 38.0, 38.5, 37.6, 38.5, 37.6, 38.2, 39.0, 38.1, 37.9])
    measured = measure(lambda: Run(next(cpu_times), ("a",)),
                       lambda: Run(next(gpu_times), ("a",)), 0.8)
    path = tmp_path / "settings.json"
    store, settings = settings_at(path)
    facts = FakeFacts(gpus=[NVIDIA])
    facts.outcome = CalibrationOutcome(measured, measured_at="2026-03-04", report_path=None)
    chosen = selector(store, settings, facts, tmp_path / "data").decision()
    assert (chosen.device, chosen.decided_by) == ("cpu", "measured")
    raw = json.loads(path.read_text())
    assert raw["model"]["onnx_device"] == "cpu"
    # The next start reads the saved choice and measures nothing.
    store2, settings2 = settings_at(path)
    facts2 = FakeFacts(gpus=[NVIDIA])
    again = selector(store2, settings2, facts2, tmp_path / "data").decision()
    assert (again.device, again.decided_by) == ("cpu", "saved") and facts2.asked == []
