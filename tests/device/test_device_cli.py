"""`paperlens-cli device status|measure|set`, with --json, on fake hardware facts."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from device_fakes import NVIDIA, FakeFacts, measurement, settings_at

import engine.device.selector as selector_module
from engine.cli.main import build_parser
from engine.cli.device import run_device
from engine.device.calibration import CalibrationOutcome

REPO_ROOT = Path(__file__).resolve().parents[2]


def cli(argv: list[str], store, settings) -> tuple[int, str, str]:
    args = build_parser().parse_args(argv)
    out, err = io.StringIO(), io.StringIO()
    code = run_device(args, settings, store=store, out=out, err=err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def fake_hardware(monkeypatch):
    facts = FakeFacts(gpus=[NVIDIA])
    monkeypatch.setattr(selector_module, "SystemFacts", lambda backend, calibrate: facts)
    return facts


def test_set_writes_the_file_and_drops_a_measurement_record(tmp_path):
    store, settings = settings_at(tmp_path / "s.json", raw={
        "model": {"onnx_device": "cpu"}, "device": {"calibration": {
            "timeout_s": 30, "measurement": {"device": "cpu", "ratio": 9.0}}}})
    code, out, _ = cli(["device", "set", "gpu", "--json"], store, settings)
    assert code == 0 and json.loads(out)["configured"] == "gpu"
    raw = json.loads((tmp_path / "s.json").read_text())
    assert raw["model"]["onnx_device"] == "gpu"
    assert raw["device"]["calibration"] == {"timeout_s": 30}


def test_set_warns_when_the_environment_overrides(tmp_path):
    store, settings = settings_at(tmp_path / "s.json", env={
        "HOME": str(tmp_path), "PAPERLENS_MODEL_ONNX_DEVICE": "cpu"}, raw={})
    code, _, err = cli(["device", "set", "auto"], store, settings)
    assert code == 0 and "PAPERLENS_MODEL_ONNX_DEVICE=cpu overrides" in err


def test_status_before_any_decision(tmp_path):
    store, settings = settings_at(tmp_path / "s.json", raw={"model": {"onnx_device": "gpu"}})
    code, out, _ = cli(["device", "status", "--json"], store, settings)
    data = json.loads(out)
    assert code == 0
    assert (data["configured"], data["configured_origin"], data["effective"],
            data["decided_by"]) == ("gpu", "file", None, "not yet")
    code, text, _ = cli(["device", "status"], store, settings)
    assert "Configured:        gpu (from the settings file)" in text


def test_measure_sets_auto_measures_saves_and_reports(tmp_path, fake_hardware):
    fake_hardware.outcome = CalibrationOutcome(measurement("cpu", 29.4),
                                               measured_at="2026-05-06T07:08:09+00:00")
    store, settings = settings_at(tmp_path / "s.json", raw={"model": {"onnx_device": "gpu"}})
    code, out, _ = cli(["device", "measure", "--json"], store, settings)
    data = json.loads(out)
    assert code == 0 and data["measured"] is True
    assert data["decision"]["device"] == "cpu" and data["decision"]["ratio"] == 29.4
    assert data["status"]["decided_by"] == "measured"
    assert json.loads((tmp_path / "s.json").read_text())["model"]["onnx_device"] == "cpu"
    # A later `status` shows the saved measurement and the last decision, without probing.
    _, settings = settings_at(tmp_path / "s.json")
    code, text, _ = cli(["device", "status"], store, settings)
    assert "Measured ratio:    GPU time / CPU time = 29.400" in text
    assert "Last run:          cpu, by measuring GPU against CPU" in text


def test_measure_that_fails_exits_nonzero_and_keeps_auto(tmp_path, fake_hardware):
    fake_hardware.outcome = CalibrationOutcome(None, "calibration_timeout", "no result in 1 s")
    store, settings = settings_at(tmp_path / "s.json", raw={})
    code, out, _ = cli(["device", "measure"], store, settings)
    assert code == 1
    assert "Fallback reason:   Measuring the GPU took longer than allowed" in out
    assert json.loads((tmp_path / "s.json").read_text())["model"]["onnx_device"] == "auto"


def test_device_command_is_registered_in_the_cli(tmp_path):
    env = {"PAPERLENS_CONFIG": str(tmp_path / "s.json"), "XDG_DATA_HOME": str(tmp_path / "d"),
           "HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}
    result = subprocess.run([sys.executable, "-m", "engine.cli.main", "device", "status", "--json"],
                            cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["configured"] == "auto"
