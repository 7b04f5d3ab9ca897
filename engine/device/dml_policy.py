"""Which DirectML adapter to use, from DXGI's adapter list and ONNX Runtime's DML devices.

Pure: facts are asked of an object (`DmlFacts`) only when the rule at hand needs them, so that
tests run every case on fakes and record what was asked. The rules (DESIGN §5):
- software and remote adapters never count; only the Basic Render Driver -> CPU with a reason;
- `auto` classifies adapters through D3D12 (UMA = integrated) in DXGI's high-performance order
  and takes the first discrete one, else the first integrated one (which is then measured);
- `gpu` trusts the high-performance order and only checks, without creating a device, that
  D3D12 can run on the adapter; a system without that order is classified like `auto`, so that
  a discrete GPU still comes first;
- the chosen adapter must be one of ONNX Runtime's DML devices, matched by LUID (never by
  adapter number, which changes when adapters come and go); else CPU with a reason."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from engine.device import reasons
from engine.device.dml_dxgi import AdapterList, DxgiAdapter
from engine.device.types import Backend, GpuDescription, GpuKind, GpuTarget

if TYPE_CHECKING:  # pragma: no cover
    from engine.device.calibration import CalibrationOutcome


@dataclass(frozen=True)
class RuntimeAdapter:
    """One of ONNX Runtime's DML EP devices, reduced to plain values."""

    luid: int | None
    vendor_id: int
    device_id: int
    description: str = ""
    discrete: bool | None = None
    """ORT's "Discrete" metadata (from DXCore) where present; shown, never decisive."""


@dataclass(frozen=True)
class RuntimeListing:
    """ORT's DML devices, or why ORT cannot offer DirectML at all."""

    devices: tuple[RuntimeAdapter, ...] = ()
    problem_code: str | None = None
    problem: str | None = None


@dataclass(frozen=True)
class DmlChoice:
    target: GpuTarget
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class DmlRefusal:
    """CPU, and why: a reasons code plus the specifics."""

    code: str
    detail: str
    notes: tuple[str, ...] = ()


class DmlFacts(Protocol):
    def adapters(self) -> AdapterList: ...

    def is_uma(self, luid: int) -> bool | None: ...

    def supports_d3d12(self, luid: int) -> bool: ...

    def runtime_adapters(self) -> RuntimeListing: ...

    def calibrate(self, target: GpuTarget) -> "CalibrationOutcome": ...


def luid_text(luid: int | None) -> str:
    return "none" if luid is None else f"0x{luid:016x}"


def _label(adapter: DxgiAdapter) -> str:
    return f"{adapter.name or 'adapter'} [{adapter.ids}]"


def select_dml_target(configured: str, facts: DmlFacts) -> DmlChoice | DmlRefusal:
    """The adapter for `gpu` or `auto`, or the refusal that sends this run to the CPU."""
    listing = facts.adapters()
    if listing.problem:
        return DmlRefusal(reasons.ADAPTER_LIST_FAILED, listing.problem)
    if not listing.adapters:
        return DmlRefusal(reasons.NO_GPU, "DXGI lists no graphics adapter")
    hardware = [a for a in listing.adapters if not a.software and not a.remote]
    if not hardware:
        names = ", ".join(_label(a) for a in listing.adapters)
        return DmlRefusal(reasons.SOFTWARE_ADAPTER_ONLY, f"adapters: {names}")
    # Asked before any D3D12 work: without the DirectML build there is nothing to choose for.
    runtime = facts.runtime_adapters()
    if runtime.problem_code:
        return DmlRefusal(runtime.problem_code, runtime.problem or "")
    notes: list[str] = []
    if configured == "auto" or not listing.high_performance_order:
        picked = _classified_pick(hardware, facts, notes)
    else:
        picked = _capable_pick(hardware, facts, notes)
    if picked is None:
        tried = ", ".join(_label(a) for a in hardware)
        return DmlRefusal(reasons.NO_D3D12, f"tried: {tried}", tuple(notes))
    adapter, kind = picked
    match = next((d for d in runtime.devices if d.luid == adapter.luid), None)
    if match is None:
        listed = ", ".join(f"{d.description or 'device'} [{d.vendor_id:04x}:{d.device_id:04x}] "
                           f"LUID {luid_text(d.luid)}" for d in runtime.devices) or "none"
        return DmlRefusal(reasons.NOT_IN_RUNTIME,
                          f"{_label(adapter)} has LUID {luid_text(adapter.luid)}; ONNX "
                          f"Runtime's DirectML devices: {listed}", tuple(notes))
    if kind == GpuKind.UNKNOWN.value and match.discrete is not None:
        kind = (GpuKind.DISCRETE if match.discrete else GpuKind.INTEGRATED).value
    description = GpuDescription(backend=Backend.DML.value, vendor_id=adapter.vendor_id,
                                 device_id=adapter.device_id, name=adapter.name, kind=kind,
                                 luid=adapter.luid)
    return DmlChoice(GpuTarget(description), tuple(notes))


def _classified_pick(hardware: list[DxgiAdapter], facts: DmlFacts,
                     notes: list[str]) -> tuple[DxgiAdapter, str] | None:
    """First discrete adapter in order, else the first integrated one. Stops at the first
    discrete one: each classification creates a D3D12 device."""
    first_integrated = None
    for adapter in hardware:
        uma = facts.is_uma(adapter.luid)
        if uma is None:
            notes.append(f"no Direct3D 12 device on {_label(adapter)}")
        elif not uma:
            return adapter, GpuKind.DISCRETE.value
        elif first_integrated is None:
            first_integrated = adapter
    if first_integrated is None:
        return None
    return first_integrated, GpuKind.INTEGRATED.value


def _capable_pick(hardware: list[DxgiAdapter], facts: DmlFacts,
                  notes: list[str]) -> tuple[DxgiAdapter, str] | None:
    """First adapter in high-performance order that D3D12 can run on; creates no device, and
    does not classify (the kind comes from ORT's metadata when it has it)."""
    for adapter in hardware:
        if facts.supports_d3d12(adapter.luid):
            return adapter, GpuKind.UNKNOWN.value
        notes.append(f"no Direct3D 12 on {_label(adapter)}")
    return None
