"""The `device` command of paperlens-cli: show, measure and set the compute device."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict
from typing import Any, TextIO

from engine.device import reasons

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2
ENV_NAME = "PAPERLENS_MODEL_ONNX_DEVICE"
DEVICES = ("cpu", "gpu", "auto")

_ORIGINS = {"default": "the default", "file": "the settings file",
            "env": f"the environment variable {ENV_NAME}"}
_DECIDED_BY = {"explicit": "chosen in the settings", "saved": "by a saved measurement",
               "measured": "by measuring GPU against CPU", "fallback": "fallback to the CPU",
               "rule": "a discrete GPU, used without measuring",
               "not yet": "not decided yet"}


def add_device_parser(subparsers: "argparse._SubParsersAction") -> argparse.ArgumentParser:
    """Register `device {status,measure,set}`; the action lands in `args.device_command`."""
    parser = subparsers.add_parser("device", help="show, measure or set the compute device")
    actions = parser.add_subparsers(dest="device_command", metavar="{status,measure,set}")
    actions.required = True
    status = actions.add_parser("status", help="configured and effective device, and why")
    measure = actions.add_parser("measure", help="set auto and measure GPU against CPU now")
    set_parser = actions.add_parser("set", help="set model.onnx_device in the settings file")
    set_parser.add_argument("value", choices=DEVICES)
    for sub in (status, measure, set_parser):
        sub.add_argument("--json", action="store_true", help="machine-readable output on stdout")
    return parser


def run_device(args: argparse.Namespace, settings, *, store=None, out: TextIO | None = None,
               err: TextIO | None = None) -> int:
    out = out or sys.stdout
    err = err or sys.stderr
    if store is None:
        from settings import SettingsStore

        store = SettingsStore(settings.path)
    command = args.device_command
    if command == "status":
        return _status(settings, args.json, out)
    if command == "set":
        return _set(store, args.value, args.json, out, err)
    if command == "measure":
        return _measure(store, args.json, out, err)
    print(f"Unknown device command: {command}", file=err)
    return EXIT_USAGE


def _status(settings, as_json: bool, out: TextIO) -> int:
    from engine.device.selector import DeviceSelector

    status = DeviceSelector(settings).status()
    if as_json:
        json.dump(status.to_json(), out, indent=2, ensure_ascii=False)
        out.write("\n")
        return EXIT_OK
    for line in status_lines(status):
        print(line, file=out)
    return EXIT_OK


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


def _env_override(settings) -> str | None:
    if str(settings.origin("model.onnx_device")) == "env":
        return (f"{ENV_NAME}={settings.model.onnx_device} overrides the settings file in this "
                "environment")
    return None


def _set(store, value: str, as_json: bool, out: TextIO, err: TextIO) -> int:
    from engine.device.persistence import set_device
    from settings import SettingsError

    try:
        settings = set_device(store, value)
    except SettingsError as exc:
        print(f"error: {exc}", file=err)
        return EXIT_FAILED
    override = _env_override(settings)
    if as_json:
        json.dump({"configured": value, "path": str(store.path), "read_only": store.read_only,
                   "overridden_by": override}, out, indent=2)
        out.write("\n")
    else:
        print(f"model.onnx_device = {value} in {store.path}", file=out)
        if store.read_only:
            print("warning: the settings file is read-only; nothing was saved", file=err)
    if override:
        print(f"warning: {override}", file=err)
    return EXIT_OK


def _measure(store, as_json: bool, out: TextIO, err: TextIO) -> int:
    from engine.device.selector import DeviceSelector
    from settings import SettingsError

    try:
        settings = store.update(lambda raw: _set_auto(raw))
    except SettingsError as exc:
        print(f"error: {exc}", file=err)
        return EXIT_FAILED
    override = _env_override(settings)
    if override and not as_json:
        print(f"note: {override}; measuring anyway, the result is not saved", file=err)
    selector = DeviceSelector(settings, store=store, measure=True)
    if not as_json:
        print("Measuring the GPU against the CPU in a separate process...", file=err)
    decision = selector.decision()
    status = selector.status()
    measured = decision.decided_by == "measured"
    if as_json:
        json.dump({"measured": measured, "decision": _decision_json(decision),
                   "saved": selector.saved, "status": status.to_json()}, out, indent=2,
                  ensure_ascii=False)
        out.write("\n")
    else:
        for line in status_lines(status):
            print(line, file=out)
        if selector.saved:
            print(f"Saved:             {selector.saved}", file=out)
    return EXIT_OK if measured else EXIT_FAILED


def _set_auto(raw: dict[str, Any]) -> None:
    model = raw.get("model")
    if not isinstance(model, dict):
        model = raw["model"] = {}
    model["onnx_device"] = "auto"


def _decision_json(decision) -> dict[str, Any]:
    data = asdict(decision)
    data["reason_words"] = reasons.sentence(decision.reason_code)
    return data
