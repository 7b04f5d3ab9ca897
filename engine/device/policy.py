"""The device decision: a pure function of the request and of facts asked for only when needed.

`choose_device(request, facts)` implements cpu / gpu / auto. Facts are an object with methods
(GPU inventory, Vulkan devices, constraint check, calibration) so that `cpu` asks for nothing,
a pure NVIDIA machine never enumerates Vulkan, and tests pass fakes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from engine.device import reasons
from engine.device.calibration import CalibrationOutcome, Measurement
from engine.device.dml_policy import DmlFacts, DmlRefusal, select_dml_target
from engine.device.intel_policy import describe_restriction, is_restricted
from engine.device.loader_constraint import build_constraint, constraint_methods
from engine.device.pci_inventory import PciGpu
from engine.device.types import (
    Backend,
    DecidedBy,
    Decision,
    GpuDescription,
    GpuKind,
    GpuTarget,
    VulkanDevice,
)
from engine.device.vulkan_probe import VulkanView


@dataclass(frozen=True)
class SavedChoice:
    """What an earlier measurement wrote to the settings (device.calibration.measurement)."""

    device: str
    ratio: float | None = None
    measured_at: str | None = None
    report_path: str | None = None


@dataclass(frozen=True)
class DeviceRequest:
    configured: str
    """cpu | gpu | auto"""
    origin: str
    """default | file | env"""
    platform: str
    """e.g. linux-x86_64, win32-amd64"""
    saved: SavedChoice | None = None
    measure_now: bool = False
    """`paperlens-cli device measure`: measure even a GPU the rules would use unmeasured."""


@dataclass(frozen=True)
class Inventory:
    """The GPUs the backend offers, or why there are none to ask about."""

    backend: str
    devices: tuple[GpuDescription, ...] = ()
    problem_code: str | None = None
    problem: str | None = None


class DeviceFacts(Protocol):
    def pci_gpus(self) -> list[PciGpu]: ...

    def gpu_inventory(self) -> Inventory: ...

    def vulkan_devices(self) -> VulkanView: ...

    def verify_constraint(self, target: GpuTarget) -> tuple[bool, VulkanView]: ...

    def calibrate(self, target: GpuTarget) -> CalibrationOutcome: ...


BACKEND_BY_PLATFORM = {"linux-x86_64": Backend.WEBGPU.value, "win32-amd64": Backend.DML.value}


def choose_device(request: DeviceRequest, facts: "DeviceFacts | DmlFacts") -> Decision:
    """cpu / gpu / auto as DESIGN §5 describes; never raises for hardware trouble.

    `facts` is a DeviceFacts on Linux (WebGPU) and a DmlFacts on Windows (DirectML)."""
    saved = request.saved if (request.origin == "file" and request.saved is not None
                              and request.saved.device == request.configured) else None
    chosen_by = DecidedBy.SAVED if saved else DecidedBy.EXPLICIT
    if request.configured == "cpu":
        return Decision("cpu", Backend.CPU.value, chosen_by.value,
                        ratio=saved.ratio if saved else None,
                        measured_at=saved.measured_at if saved else None,
                        report_path=saved.report_path if saved else None)
    backend = BACKEND_BY_PLATFORM.get(request.platform)
    if backend is None:
        return fallback(reasons.UNSUPPORTED_PLATFORM,
                        f"no GPU backend is built for {request.platform}")
    if backend == Backend.DML.value:
        # DirectML's facts and rules (DXGI order, D3D12 UMA, LUID match): engine.device.dml_policy.
        chosen = select_dml_target(request.configured, facts)
        if isinstance(chosen, DmlRefusal):
            return fallback(chosen.code, chosen.detail, chosen.notes)
        selected = chosen.target, chosen.notes
    else:
        selected = select_target(backend, facts)
    if isinstance(selected, Decision):
        return selected
    target, notes = selected
    if request.configured == "gpu":
        return Decision("gpu", backend, chosen_by.value, target=target, notes=notes,
                        ratio=saved.ratio if saved else None,
                        measured_at=saved.measured_at if saved else None,
                        report_path=saved.report_path if saved else None)
    if (backend == Backend.DML.value and target.description.kind == GpuKind.DISCRETE.value
            and not request.measure_now):
        # A discrete GPU beats the CPU on these models; only integrated ones are measured.
        return Decision("gpu", backend, DecidedBy.RULE.value, reason_code=reasons.DISCRETE_GPU,
                        reason=f"{reasons.sentence(reasons.DISCRETE_GPU)} "
                               f"({target.description.label})",
                        target=target, notes=notes)
    outcome = facts.calibrate(target)
    measurement = outcome.measurement
    if measurement is None:
        return fallback(outcome.failure_code or reasons.CALIBRATION_FAILED,
                        outcome.failure or "the measurement did not finish", notes,
                        report_path=outcome.report_path)
    if not measurement.valid:
        return fallback(measurement.reason_code, measurement.reason, notes,
                        ratio=measurement.ratio, report_path=outcome.report_path)
    return Decision(measurement.device, backend if measurement.device == "gpu" else "cpu",
                    DecidedBy.MEASURED.value, reason_code=measurement.reason_code,
                    reason=measurement.reason,
                    target=target if measurement.device == "gpu" else None,
                    ratio=measurement.ratio, measured_at=outcome.measured_at,
                    report_path=outcome.report_path, notes=notes)


def fallback(code: str, detail: str, notes: tuple[str, ...] = (), *, ratio: float | None = None,
             report_path: str | None = None) -> Decision:
    return Decision("cpu", Backend.CPU.value, DecidedBy.FALLBACK.value, reason_code=code,
                    reason=f"{reasons.sentence(code)} ({detail})", ratio=ratio,
                    report_path=report_path, notes=notes)


def _prefer_discrete(devices: list, kind_of) -> object:
    discrete = [d for d in devices if kind_of(d) == GpuKind.DISCRETE.value]
    return (discrete or devices)[0]


def select_target(backend: str,
                  facts: DeviceFacts) -> tuple[GpuTarget, tuple[str, ...]] | Decision:
    """The GPU to use (with a loader constraint when needed), or a CPU fallback decision.

    The Intel policy comes first, on the kernel's PCI list, so that a machine with only
    restricted (or no) GPUs never loads the plugin. Only when ORT lists a restricted Intel GPU
    next to another one is Vulkan asked which devices it really shows: ORT's list comes from
    PCI entries and may include a card the user's driver setup hides, so only a device both
    list and that Vulkan shows is a candidate."""
    pci = facts.pci_gpus()
    if not pci:
        return fallback(reasons.NO_GPU, "the kernel lists no GPU under /sys/class/drm")
    if all(is_restricted(g.vendor_id, g.device_id) for g in pci):
        return fallback(reasons.ARCHITECTURE_POLICY,
                        "; ".join(describe_restriction(g.device_id) for g in pci))
    inventory = facts.gpu_inventory()
    if inventory.problem_code:
        return fallback(inventory.problem_code, inventory.problem or "")
    if not inventory.devices:
        return fallback(reasons.NO_GPU, f"the {backend} backend lists no GPU device")
    allowed = [d for d in inventory.devices if not is_restricted(d.vendor_id, d.device_id)]
    restricted = [d for d in inventory.devices if is_restricted(d.vendor_id, d.device_id)]
    restricted_text = "; ".join(describe_restriction(d.device_id) for d in restricted)
    if not allowed:
        return fallback(reasons.ARCHITECTURE_POLICY, restricted_text)
    if not restricted:
        chosen = sorted(allowed, key=lambda d: (d.kind != GpuKind.DISCRETE.value,
                                                d.card_index if d.card_index is not None else 99))
        return GpuTarget(chosen[0]), ()
    notes = (f"not used by policy: {restricted_text}",)
    view = facts.vulkan_devices()
    if view.problem:
        return fallback(reasons.VULKAN_PROBE_FAILED, view.problem, notes)
    by_ids = {(d.vendor_id, d.device_id): d for d in allowed}
    visible = [v for v in view.devices if (v.vendor_id, v.device_id) in by_ids
               and not is_restricted(v.vendor_id, v.device_id)]
    if not visible:
        shown = ", ".join(f"{v.name} [{v.ids}]" for v in view.devices) or "none"
        listed = ", ".join(d.label for d in allowed)
        return fallback(reasons.NO_ALLOWED_GPU_VISIBLE,
                        f"allowed by policy: {listed}; visible to Vulkan: {shown}", notes)
    pick: VulkanDevice = _prefer_discrete(visible, lambda v: v.kind)
    listed = by_ids[(pick.vendor_id, pick.device_id)]
    description = GpuDescription(backend=listed.backend, vendor_id=listed.vendor_id,
                                 device_id=listed.device_id, name=pick.name, kind=pick.kind,
                                 card_index=listed.card_index)
    tried = []
    for method in constraint_methods(view.loader_version):
        target = GpuTarget(description, build_constraint(method, pick))
        verified, after = facts.verify_constraint(target)
        if verified:
            return target, notes
        seen = ", ".join(f"{v.name} [{v.ids}]" for v in after.devices) or after.problem or "none"
        tried.append(f"{method.value} left {seen}")
    return fallback(reasons.FILTER_UNVERIFIED,
                    f"wanted only {pick.name} [{pick.ids}] on Vulkan loader "
                    f"{view.loader_version}; {'; '.join(tried)}; update the Vulkan loader to "
                    "1.4.326 or later, or enable Mesa's device-select layer", notes)
