"""The DirectML decision over fake DXGI inventories: the scenarios of the Windows backend."""

from __future__ import annotations

import pytest
from dml_fakes import (
    AMD_DGPU,
    BASIC_RENDER,
    INTEL_ARC_IGPU,
    INTEL_IGPU,
    NVIDIA_DGPU,
    FakeDmlFacts,
    FakeDxgi,
    measurement,
    runtime_of,
)

from engine.device.dml_policy import RuntimeListing
from engine.device.policy import CalibrationOutcome, DeviceRequest, SavedChoice, choose_device

WINDOWS = "win32-amd64"


def request(configured: str, origin: str = "file", saved: SavedChoice | None = None,
            platform: str = WINDOWS) -> DeviceRequest:
    return DeviceRequest(configured=configured, origin=origin, platform=platform, saved=saved)


def facts_for(by_index, high_performance="same", runtime=None, **kwargs) -> FakeDmlFacts:
    """Facts of a machine whose adapters enumerate as `by_index`; `high_performance` is the
    preference order (default: the same), or None for a system without IDXGIFactory6."""
    order = list(by_index) if high_performance == "same" else high_performance
    dxgi = FakeDxgi(list(by_index), order, **kwargs)
    return FakeDmlFacts(dxgi, runtime if runtime is not None else runtime_of(*by_index))


def test_windows_x64_is_the_directml_platform_and_cpu_asks_nothing():
    facts = facts_for([NVIDIA_DGPU])
    decision = choose_device(request("cpu"), facts)
    assert (decision.device, decision.backend) == ("cpu", "cpu") and facts.asked == []
    assert choose_device(request("auto", platform="win32-arm64"), facts).reason_code == (
        "unsupported_platform")


def test_one_discrete_gpu_under_auto_is_used_directly_without_measuring():
    facts = facts_for([NVIDIA_DGPU])
    decision = choose_device(request("auto", origin="default"), facts)
    assert (decision.device, decision.backend, decision.decided_by) == ("gpu", "dml", "rule")
    assert decision.reason_code == "discrete_gpu" and NVIDIA_DGPU.name in decision.reason
    description = decision.target.description
    assert (description.luid, description.kind, description.vendor_id) == (
        NVIDIA_DGPU.luid, "discrete", 0x10DE)
    assert "calibrate" not in facts.asked
    assert facts.asked == ["adapters", "runtime", f"uma:{NVIDIA_DGPU.name}"]


def test_an_explicit_measure_request_measures_a_discrete_gpu_too():
    facts = facts_for([NVIDIA_DGPU])
    decision = choose_device(DeviceRequest("auto", "file", WINDOWS, measure_now=True), facts)
    assert decision.decided_by == "measured" and facts.calibrated[0].description.kind == (
        "discrete")


def test_integrated_gpu_only_is_measured_with_the_dml_backend():
    facts = facts_for([INTEL_ARC_IGPU])
    facts.outcome = CalibrationOutcome(measurement("gpu", 0.55), measured_at="t")
    decision = choose_device(request("auto"), facts)
    assert facts.calibrated[0].description.backend == "dml"
    assert facts.calibrated[0].description.kind == "integrated"
    assert (decision.device, decision.decided_by, decision.ratio) == ("gpu", "measured", 0.55)
    facts = facts_for([INTEL_IGPU])
    facts.outcome = CalibrationOutcome(measurement("cpu", 1.7), measured_at="t")
    decision = choose_device(request("auto"), facts)
    assert (decision.device, decision.decided_by, decision.target) == ("cpu", "measured", None)


def test_igpu_first_by_index_still_gives_the_dgpu():
    # EnumAdapters1 puts the integrated GPU (the one driving the display) at index 0;
    # the high-performance order puts the discrete one first.
    facts = facts_for([INTEL_IGPU, NVIDIA_DGPU], high_performance=[NVIDIA_DGPU, INTEL_IGPU])
    decision = choose_device(request("auto"), facts)
    assert decision.target.description.luid == NVIDIA_DGPU.luid
    assert decision.decided_by == "rule"
    # Classification stops at the first discrete adapter: no D3D12 device on the iGPU.
    assert f"uma:{INTEL_IGPU.name}" not in facts.asked
    facts = facts_for([INTEL_IGPU, NVIDIA_DGPU], high_performance=[NVIDIA_DGPU, INTEL_IGPU])
    decision = choose_device(request("gpu"), facts)
    assert decision.target.description.luid == NVIDIA_DGPU.luid


def test_old_system_without_high_performance_order_classifies_so_the_dgpu_comes_first():
    for configured in ("auto", "gpu"):
        facts = facts_for([INTEL_IGPU, NVIDIA_DGPU], high_performance=None)
        decision = choose_device(request(configured), facts)
        assert decision.target.description.luid == NVIDIA_DGPU.luid, configured
        assert decision.target.description.kind == "discrete"
        assert facts.asked[-2:] == [f"uma:{INTEL_IGPU.name}", f"uma:{NVIDIA_DGPU.name}"]
        assert not any(a.startswith("d3d12:") for a in facts.asked)


def test_gpu_uses_the_order_and_a_capability_check_but_never_classifies():
    facts = facts_for([INTEL_IGPU, AMD_DGPU], high_performance=[AMD_DGPU, INTEL_IGPU])
    decision = choose_device(request("gpu", saved=SavedChoice("gpu", 0.4)), facts)
    assert (decision.device, decision.decided_by) == ("gpu", "saved")
    assert decision.target.description.luid == AMD_DGPU.luid
    assert facts.asked == ["adapters", "runtime", f"d3d12:{AMD_DGPU.name}"]
    assert decision.target.description.kind == "unknown"


def test_gpu_takes_the_kind_from_ort_metadata_when_it_has_it():
    runtime = runtime_of(NVIDIA_DGPU, discrete={NVIDIA_DGPU.luid: True})
    decision = choose_device(request("gpu"), facts_for([NVIDIA_DGPU], runtime=runtime))
    assert decision.target.description.kind == "discrete"


def test_gpu_skips_an_adapter_d3d12_cannot_run_on():
    facts = facts_for([NVIDIA_DGPU, INTEL_IGPU], uma={INTEL_IGPU.luid: True})
    decision = choose_device(request("gpu"), facts)
    assert decision.target.description.luid == INTEL_IGPU.luid
    assert any("no Direct3D 12" in n for n in decision.notes)


def test_luid_not_in_orts_list_means_cpu_and_says_which():
    runtime = runtime_of(INTEL_IGPU)  # ORT lists only the iGPU (e.g. stale or hot-plugged)
    for configured in ("auto", "gpu"):
        facts = facts_for([NVIDIA_DGPU, INTEL_IGPU], runtime=runtime)
        decision = choose_device(request(configured), facts)
        assert (decision.device, decision.decided_by, decision.reason_code) == (
            "cpu", "fallback", "adapter_not_in_runtime")
        assert f"0x{NVIDIA_DGPU.luid:016x}" in decision.reason
        assert INTEL_IGPU.name in decision.reason and "calibrate" not in facts.asked


def test_software_adapter_only_means_cpu_with_the_reason():
    for configured in ("auto", "gpu"):
        facts = facts_for([BASIC_RENDER], runtime=RuntimeListing())
        decision = choose_device(request(configured), facts)
        assert (decision.device, decision.reason_code) == ("cpu", "software_adapter_only")
        assert "Microsoft Basic Render Driver" in decision.reason
        assert facts.asked == ["adapters"]  # neither ORT nor D3D12 was asked


def test_basic_render_driver_is_software_even_without_the_flag():
    unflagged = BASIC_RENDER.__class__(**{**BASIC_RENDER.__dict__, "flags": 0})
    assert unflagged.software
    decision = choose_device(request("gpu"), facts_for([unflagged], runtime=RuntimeListing()))
    assert decision.reason_code == "software_adapter_only"


def test_gpu_removed_while_gpu_is_saved_runs_on_the_cpu_this_time():
    # The eGPU is unplugged: only the software adapter is left.
    facts = facts_for([BASIC_RENDER], runtime=RuntimeListing())
    decision = choose_device(request("gpu", saved=SavedChoice("gpu", 0.4)), facts)
    assert (decision.device, decision.decided_by, decision.reason_code) == (
        "cpu", "fallback", "software_adapter_only")
    facts = facts_for([])
    assert choose_device(request("gpu"), facts).reason_code == "no_gpu_found"


@pytest.mark.parametrize("code, problem", [
    ("dml_unavailable", "install onnxruntime-directml"),
    ("onnxruntime_conflict", "onnxruntime, onnxruntime-directml"),
])
def test_an_ort_without_directml_is_the_reason_before_any_d3d12_work(code, problem):
    facts = facts_for([NVIDIA_DGPU], runtime=RuntimeListing(problem_code=code, problem=problem))
    decision = choose_device(request("auto"), facts)
    assert (decision.device, decision.reason_code) == ("cpu", code) and problem in decision.reason
    assert facts.asked == ["adapters", "runtime"]


def test_dxgi_failure_and_no_d3d12_at_all_are_reasons():
    facts = facts_for([NVIDIA_DGPU], problem="DXGI is not available (dxgi.dll)")
    assert choose_device(request("auto"), facts).reason_code == "adapter_list_failed"
    facts = facts_for([NVIDIA_DGPU], uma={})
    decision = choose_device(request("auto"), facts)
    assert decision.reason_code == "no_d3d12_adapter" and NVIDIA_DGPU.name in decision.reason


def test_remote_adapters_do_not_count():
    remote = INTEL_IGPU.__class__(**{**INTEL_IGPU.__dict__, "flags": 0x1})
    decision = choose_device(request("gpu"), facts_for([remote], runtime=RuntimeListing()))
    assert decision.reason_code == "software_adapter_only"
