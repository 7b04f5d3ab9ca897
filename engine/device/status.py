"""Builds the DeviceStatus people see from settings, the decision and stored records.

Reading status probes nothing: it reads the settings snapshot, the decision this process made
(if any), and two small files in the data folder."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from engine.device.persistence import (
    calibration_budget,
    last_report,
    read_last_decision,
    report_summary,
    saved_choice,
)
from engine.device.types import DecidedBy, Decision
from engine.device_status import DeviceStatus


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
