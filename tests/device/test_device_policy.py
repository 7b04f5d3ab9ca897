"""choose_device over fake facts: cpu / gpu / auto, the Intel policy, mixed GPUs, calibration."""

from __future__ import annotations

from device_fakes import AMD_IGPU, INTEL_ARC, INTEL_OLD, NVIDIA, FakeFacts, measurement, vulkan_of

from engine.device.policy import CalibrationOutcome, DeviceRequest, SavedChoice, choose_device

LINUX = "linux-x86_64"


def request(configured: str, origin: str = "file", saved: SavedChoice | None = None,
            platform: str = LINUX) -> DeviceRequest:
    return DeviceRequest(configured=configured, origin=origin, platform=platform, saved=saved)


def test_cpu_asks_for_no_fact_at_all():
    facts = FakeFacts(gpus=[NVIDIA])
    decision = choose_device(request("cpu"), facts)
    assert (decision.device, decision.decided_by) == ("cpu", "explicit")
    assert facts.asked == []


def test_saved_cpu_stays_cpu_whatever_the_hardware():
    saved = SavedChoice("cpu", ratio=3.2, measured_at="2026-01-01")
    facts = FakeFacts(gpus=[NVIDIA])
    decision = choose_device(request("cpu", saved=saved), facts)
    assert (decision.device, decision.decided_by, decision.ratio) == ("cpu", "saved", 3.2)
    assert facts.asked == []


def test_gpu_prefers_the_discrete_card_and_does_not_measure():
    facts = FakeFacts(gpus=[AMD_IGPU, NVIDIA])
    decision = choose_device(request("gpu"), facts)
    assert decision.device == "gpu" and decision.target.description == NVIDIA
    assert decision.target.constraint is None
    assert "calibrate" not in facts.asked and "vulkan" not in facts.asked


def test_gpu_with_the_gpu_removed_runs_on_the_cpu_with_a_reason():
    decision = choose_device(request("gpu"), FakeFacts(gpus=[]))
    assert (decision.device, decision.decided_by, decision.reason_code) == (
        "cpu", "fallback", "no_gpu_found")


def test_unsupported_platform_falls_back():
    decision = choose_device(request("auto", platform="darwin-arm64"), FakeFacts(gpus=[NVIDIA]))
    assert decision.reason_code == "unsupported_platform"


def test_old_intel_only_is_policy_before_the_plugin_is_loaded():
    for configured in ("gpu", "auto"):
        facts = FakeFacts(gpus=[INTEL_OLD])
        decision = choose_device(request(configured), facts)
        assert decision.reason_code == "webgpu_architecture_policy"
        assert "Xe-LP" in decision.reason
        assert facts.asked == ["pci"]


def test_saved_gpu_on_old_intel_is_policy_too():
    facts = FakeFacts(gpus=[INTEL_OLD])
    decision = choose_device(request("gpu", saved=SavedChoice("gpu", 0.4)), facts)
    assert decision.reason_code == "webgpu_architecture_policy"


def test_allowed_intel_is_used_by_gpu_and_calibrated_by_auto():
    facts = FakeFacts(gpus=[INTEL_ARC])
    assert choose_device(request("gpu"), facts).target.description == INTEL_ARC
    facts = FakeFacts(gpus=[INTEL_ARC])
    choose_device(request("auto"), facts)
    assert facts.calibrated and facts.calibrated[0].description == INTEL_ARC


def test_pure_nvidia_never_enumerates_vulkan():
    facts = FakeFacts(gpus=[NVIDIA])
    choose_device(request("auto"), facts)
    assert "vulkan" not in facts.asked and facts.calibrated[0].constraint is None


def test_mixed_intel_and_visible_nvidia_constrains_the_loader():
    facts = FakeFacts(gpus=[INTEL_OLD, NVIDIA],
                      visible=[vulkan_of(INTEL_OLD, "Intel UHD 770", "integrated"),
                               vulkan_of(NVIDIA, "RTX 3060 Ti")])
    decision = choose_device(request("gpu"), facts)
    assert decision.device == "gpu"
    target = decision.target
    assert target.description.name == "RTX 3060 Ti" and target.description.card_index == 1
    assert target.constraint.method == "mesa_device_select"
    assert dict(target.constraint.env) == {"MESA_VK_DEVICE_SELECT": "10de:2489!"}
    assert "not used by policy" in decision.notes[0]


def test_new_loader_uses_its_own_filter_first():
    facts = FakeFacts(gpus=[INTEL_OLD, NVIDIA], loader_version="1.4.326",
                      visible=[vulkan_of(NVIDIA, "RTX 3060 Ti")])
    decision = choose_device(request("gpu"), facts)
    assert dict(decision.target.constraint.env) == {"VK_LOADER_DEVICE_ID_FILTER": "0x2489",
                                                    "VK_LOADER_VENDOR_ID_FILTER": "0x10de"}


def test_ignored_loader_filter_falls_back_to_device_select():
    facts = FakeFacts(gpus=[INTEL_OLD, NVIDIA], loader_version="1.4.330",
                      visible=[vulkan_of(NVIDIA, "RTX")], verifies={"mesa_device_select"})
    decision = choose_device(request("gpu"), facts)
    assert decision.target.constraint.method == "mesa_device_select"
    assert facts.asked.count("verify:loader_filter") == 1


def test_unverifiable_constraint_means_cpu():
    facts = FakeFacts(gpus=[INTEL_OLD, NVIDIA], verifies=set(),
                      visible=[vulkan_of(INTEL_OLD, "UHD", "integrated"), vulkan_of(NVIDIA, "RTX")])
    decision = choose_device(request("gpu"), facts)
    assert decision.reason_code == "device_filter_unverified"
    assert "update the Vulkan loader" in decision.reason


def test_mixed_with_only_the_intel_visible_means_cpu():
    # E.g. VK_DRIVER_FILES opens only the Intel ICD: ORT still lists the NVIDIA card.
    facts = FakeFacts(gpus=[INTEL_OLD, NVIDIA],
                      visible=[vulkan_of(INTEL_OLD, "Intel UHD 770", "integrated")])
    decision = choose_device(request("gpu"), facts)
    assert decision.reason_code == "no_allowed_gpu_visible"
    assert "Intel UHD 770" in decision.reason


def test_plugin_problem_is_the_reason():
    facts = FakeFacts(gpus=[NVIDIA], inventory_problem=("vulkan_missing", "libvulkan.so.1"))
    decision = choose_device(request("gpu"), facts)
    assert decision.reason_code == "vulkan_missing" and "libvulkan.so.1" in decision.reason


def test_auto_measured_cpu_and_gpu():
    facts = FakeFacts(gpus=[NVIDIA])
    facts.outcome = CalibrationOutcome(measurement("cpu", 29.0), measured_at="t", report_path="r")
    decision = choose_device(request("auto", origin="default"), facts)
    assert (decision.device, decision.decided_by, decision.ratio) == ("cpu", "measured", 29.0)
    assert decision.report_path == "r" and decision.target is None
    facts.outcome = CalibrationOutcome(measurement("gpu", 0.4, code="gpu_faster"))
    decision = choose_device(request("auto", origin="default"), facts)
    assert decision.device == "gpu" and decision.target.description == NVIDIA


def test_auto_with_a_failed_or_invalid_measurement_is_a_fallback():
    facts = FakeFacts(gpus=[NVIDIA], outcome=CalibrationOutcome(
        None, "calibration_timeout", "no result within the 1 s budget"))
    decision = choose_device(request("auto"), facts)
    assert (decision.device, decision.decided_by, decision.reason_code) == (
        "cpu", "fallback", "calibration_timeout")
    facts.outcome = CalibrationOutcome(measurement("cpu", 0.8, valid=False,
                                                   code="calibration_invalid"))
    assert choose_device(request("auto"), facts).reason_code == "calibration_invalid"


def test_saved_gpu_is_reported_as_saved():
    decision = choose_device(request("gpu", saved=SavedChoice("gpu", 0.42, "2026-02-02")),
                             FakeFacts(gpus=[NVIDIA]))
    assert (decision.decided_by, decision.ratio) == ("saved", 0.42)


def test_env_gpu_is_explicit_even_with_a_saved_record():
    decision = choose_device(request("gpu", origin="env", saved=SavedChoice("gpu", 0.42)),
                             FakeFacts(gpus=[NVIDIA]))
    assert decision.decided_by == "explicit"
