"""The `device` command of paperlens-cli: show, measure and set the compute device."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict
from typing import Any, TextIO

from engine.device import reasons
from engine.device.status_text import ENV_NAME, status_lines

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2
DEVICES = ("cpu", "gpu", "auto")


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
