"""The device status (engine/device/status.py's DeviceStatus) in a few lines a person can
read: what `paperlens-cli device status` prints and the MCP server's device tool answers."""

from __future__ import annotations

ENV_NAME = "PAPERLENS_MODEL_ONNX_DEVICE"
"""The environment variable that overrides the settings file's model.onnx_device."""

_ORIGINS = {"default": "the default", "file": "the settings file",
            "env": f"the environment variable {ENV_NAME}"}
_DECIDED_BY = {"explicit": "chosen in the settings", "saved": "by a saved measurement",
               "measured": "by measuring GPU against CPU", "fallback": "fallback to the CPU",
               "rule": "a discrete GPU, used without measuring",
               "not yet": "not decided yet"}


def status_lines(status) -> list[str]:
    """The status in a few lines a person can read."""
    origin = _ORIGINS.get(status.configured_origin, status.configured_origin)
    lines = [f"Configured:        {status.configured} (from {origin})"]
    if status.effective:
        device = _device_text(status.effective, status.backend, status.adapter)
        lines.append(f"Effective:         {device}")
        lines.append(f"Decided:           {_DECIDED_BY.get(status.decided_by, status.decided_by)}")
    else:
        lines.append("Effective:         decided at the first conversion of each run")
        last = status.last_decision
        if last:
            device = _device_text(last.get("effective"), last.get("backend"), last.get("adapter"))
            how = _DECIDED_BY.get(last.get("decided_by"), last.get("decided_by"))
            lines.append(f"Last run:          {device}, {how} ({last.get('at')})")
            if last.get("decided_by") == "fallback" and last.get("reason"):
                lines.append(f"Last run's reason: {last['reason']}")
    if status.ratio is not None:
        lines.append(f"Measured ratio:    GPU time / CPU time = {status.ratio:.3f}"
                     + (f" ({status.measured_at})" if status.measured_at else ""))
    if status.fallback_reason:
        lines.append(f"Fallback reason:   {status.fallback_reason}")
    elif status.reason:
        lines.append(f"Reason:            {status.reason}")
    for note in status.notes:
        lines.append(f"Note:              {note}")
    report = status.last_report
    if report:
        ratio = f"ratio {report['ratio']:.3f}" if isinstance(report.get("ratio"), (int, float)) \
            else "no ratio"
        verdict = f"-> {report.get('device')}" if report.get("valid") else "-> not valid"
        lines.append(f"Last measurement:  {report.get('measured_at')}, {report.get('outcome')}, "
                     f"{ratio}, threshold {report.get('threshold')}, runs {report.get('sampling')} "
                     f"{verdict}")
        if report.get("reason"):
            lines.append(f"                   {report['reason']}")
        lines.append(f"Report:            {report.get('path')}")
    lines.append(f"Measuring budget:  {status.calibration_budget_s:g} s")
    return lines


def _device_text(device: str | None, backend: str | None, adapter: str | None) -> str:
    if device != "gpu":
        return device or "?"
    return f"gpu ({', '.join(p for p in (adapter, backend) if p)})"
