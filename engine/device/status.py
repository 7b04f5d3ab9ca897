"""What the app tells people about the compute device (`DeviceStatus`: configured value,
effective device, why) and how it is built from settings, the decision and stored records.

Reading status probes nothing: it reads the settings snapshot, the decision this process made
(if any), and two small files in the data folder."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from dataclasses import asdict, dataclass, field
from pathlib import Path

from engine.device.persistence import (
    calibration_budget,
    last_report,
    read_last_decision,
    report_summary,
    saved_choice,
)
from engine.device.types import DecidedBy, Decision


@dataclass(frozen=True)
class DeviceStatus:
    """A snapshot for the CLI's `device status` and the GUI's preferences.

    Reading it never probes hardware: fields the process has not decided yet are None and
    `decided_by` says "not yet"."""

    configured: str
    """cpu | gpu | auto, as configured."""
    configured_origin: str
    """default | file | env."""
    effective: str | None = None
    """cpu | gpu once decided in this process, else None."""
    backend: str | None = None
    """cpu | webgpu | dml."""
    adapter: str | None = None
    """The GPU's name when one is used."""
    decided_by: str = "not yet"
    """not yet | explicit | saved | measured | rule | fallback (rule: a discrete GPU on
    DirectML under auto, used without measuring)."""
    ratio: float | None = None
    """GPU/CPU median time ratio of the measurement that decided, when measured."""
    measured_at: str | None = None
    """ISO date of that measurement."""
    fallback_reason: str | None = None
    """Why the CPU is used although a GPU was asked for or considered, in plain words."""
    reason_code: str | None = None
    """The stable code behind `fallback_reason` or a measured outcome (engine.device.reasons),
    e.g. webgpu_architecture_policy, calibration_timeout, gpu_slower."""
    reason: str | None = None
    """How the decision came about in words, for measured and explicit choices too."""
    notes: tuple[str, ...] = ()
    """Facts that did not decide anything: a GPU left out by policy, a role kept on the CPU."""
    calibration_budget_s: float | None = None
    """The time limit a measurement gets (setting device.calibration.timeout_s or
    PAPERLENS_CALIBRATION_TIMEOUT_S)."""
    last_report: dict[str, Any] | None = field(default=None, hash=False)
    """Summary of the newest calibration report: path, measured_at, ratio, device, valid..."""
    last_decision: dict[str, Any] | None = field(default=None, hash=False)
    """The last decision any Paperlens process recorded (effective, adapter, decided_by, at)."""

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def build_status(settings, decision: Decision | None, data_folder: Path,
                 environ: Mapping[str, str] | None = None) -> DeviceStatus:
    configured = str(settings.model.onnx_device)
    origin = str(settings.origin("model.onnx_device"))
    calibration = settings.device.calibration
    found = last_report(data_folder)
    common = {
        "configured": configured, "configured_origin": origin,
        "calibration_budget_s": calibration_budget(calibration, environ).seconds,
        "last_report": report_summary(*found) if found else None,
        "last_decision": read_last_decision(data_folder),
    }
    if decision is None:
        saved = saved_choice(calibration)
        if saved is not None and origin == "file" and saved.device == configured:
            # Nothing is decided in this process yet, but the value came from a measurement.
            return DeviceStatus(**common, ratio=saved.ratio, measured_at=saved.measured_at)
        return DeviceStatus(**common)
    adapter = decision.target.description.label if decision.on_gpu else None
    fallback = decision.decided_by == DecidedBy.FALLBACK.value
    return DeviceStatus(
        **common, effective=decision.device, backend=decision.backend, adapter=adapter,
        decided_by=decision.decided_by, ratio=decision.ratio, measured_at=decision.measured_at,
        fallback_reason=decision.reason if fallback else None,
        reason_code=decision.reason_code, reason=decision.reason, notes=decision.notes)
