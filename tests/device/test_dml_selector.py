"""The DirectML decision inside DeviceSelector: what is saved, what people see, the wiring."""

from __future__ import annotations

import json

from device_fakes import settings_at
from dml_fakes import BASIC_RENDER, INTEL_IGPU, NVIDIA_DGPU, FakeDmlFacts, FakeDxgi, runtime_of

from engine.device.status_text import status_lines
from engine.device.dml_backend import DmlBackend, DmlSystemFacts
from engine.device.dml_policy import RuntimeListing
from engine.device.selector import DeviceSelector, ProcessDeviceState
from engine.device.webgpu import WebGpuBackend

WINDOWS = "win32-amd64"
SAVED_GPU = {"model": {"onnx_device": "gpu"}, "ui": {"language": "zh"},
             "device": {"calibration": {"measurement": {
                 "device": "gpu", "ratio": 0.41, "measured_at": "2026-05-06T07:08:09+00:00",
                 "report": None, "backend": "dml"}}}}


def selector_for(tmp_path, facts, raw, **kw) -> DeviceSelector:
    store, settings = settings_at(tmp_path / "settings.json", raw=raw)
    return DeviceSelector(settings, store=store, facts=facts, data_folder=tmp_path / "data",
                          process_state=ProcessDeviceState(), platform=WINDOWS, **kw)


def test_gpu_removed_while_gpu_is_saved_cpu_this_run_and_the_setting_is_kept(tmp_path):
    path = tmp_path / "settings.json"
    facts = FakeDmlFacts(FakeDxgi([BASIC_RENDER], [BASIC_RENDER]), RuntimeListing())
    chooser = selector_for(tmp_path, facts, SAVED_GPU)
    before = path.read_bytes()
    decision = chooser.decision()
    assert (decision.device, decision.decided_by, decision.reason_code) == (
        "cpu", "fallback", "software_adapter_only")
    assert path.read_bytes() == before  # still `gpu`, measurement record and all
    status = chooser.status()
    assert status.configured == "gpu" and status.effective == "cpu"
    assert "Basic Render Driver" in status.fallback_reason
    last = json.loads((tmp_path / "data" / "device" / "last-decision.json").read_text())
    assert last["effective"] == "cpu" and last["reason_code"] == "software_adapter_only"
    # With the GPU back, the next process uses it again: nothing was rewritten.
    facts = FakeDmlFacts(FakeDxgi([NVIDIA_DGPU], [NVIDIA_DGPU]), runtime_of(NVIDIA_DGPU))
    store, settings = settings_at(path)
    again = DeviceSelector(settings, store=store, facts=facts, data_folder=tmp_path / "data",
                           process_state=ProcessDeviceState(), platform=WINDOWS).decision()
    assert (again.device, again.decided_by, again.ratio) == ("gpu", "saved", 0.41)


def test_auto_with_a_discrete_gpu_is_not_saved_and_says_why(tmp_path):
    path = tmp_path / "settings.json"
    facts = FakeDmlFacts(FakeDxgi([INTEL_IGPU, NVIDIA_DGPU], [NVIDIA_DGPU, INTEL_IGPU]),
                         runtime_of(INTEL_IGPU, NVIDIA_DGPU))
    chooser = selector_for(tmp_path, facts, {"ui": {"language": "en"}})
    decision = chooser.decision()
    assert (decision.device, decision.backend, decision.decided_by) == ("gpu", "dml", "rule")
    assert json.loads(path.read_text()) == {"ui": {"language": "en"}}  # auto stays auto
    assert chooser.saved is None
    lines = "\n".join(status_lines(chooser.status()))
    assert f"gpu ({NVIDIA_DGPU.name}, dml)" in lines
    assert "a discrete GPU, used without measuring" in lines


def test_auto_with_an_integrated_gpu_measures_and_saves_with_the_dml_backend(tmp_path):
    path = tmp_path / "settings.json"
    facts = FakeDmlFacts(FakeDxgi([INTEL_IGPU], [INTEL_IGPU]), runtime_of(INTEL_IGPU))
    decision = selector_for(tmp_path, facts, {}).decision()
    assert (decision.device, decision.decided_by) == ("gpu", "measured")
    raw = json.loads(path.read_text())
    assert raw["model"]["onnx_device"] == "gpu"
    assert raw["device"]["calibration"]["measurement"]["backend"] == "dml"
    # The LUID travels to the calibration process, and is never written to the settings.
    assert facts.calibrated[0].to_json()["description"]["luid"] == INTEL_IGPU.luid
    assert str(INTEL_IGPU.luid) not in path.read_text()


def test_windows_builds_the_directml_backend_and_facts_and_cpu_probes_nothing(tmp_path):
    store, settings = settings_at(tmp_path / "settings.json",
                                  raw={"model": {"onnx_device": "cpu"}})
    chooser = DeviceSelector(settings, store=store, data_folder=tmp_path / "data",
                             process_state=ProcessDeviceState(), platform=WINDOWS)
    assert chooser.decision().device == "cpu"
    assert isinstance(chooser.gpu_backend(), DmlBackend)
    assert isinstance(chooser._facts, DmlSystemFacts)
    linux = DeviceSelector(settings, store=store, data_folder=tmp_path / "data",
                           process_state=ProcessDeviceState(), platform="linux-x86_64")
    assert isinstance(linux.gpu_backend(), WebGpuBackend)


def test_the_real_facts_on_a_machine_without_windows_end_on_the_cpu(tmp_path):
    # Every layer is the real one (DXGI through ctypes included) down to the missing dxgi.dll.
    store, settings = settings_at(tmp_path / "settings.json",
                                  raw={"model": {"onnx_device": "gpu"}})
    chooser = DeviceSelector(settings, store=store, data_folder=tmp_path / "data",
                             process_state=ProcessDeviceState(), platform=WINDOWS)
    decision = chooser.decision()
    assert (decision.device, decision.reason_code) == ("cpu", "adapter_list_failed")
    assert "could not list the graphics adapters" in "\n".join(status_lines(chooser.status()))
