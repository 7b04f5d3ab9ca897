"""What device selection keeps between runs: the measured choice, reports, the last decision.

The measured choice goes into the settings file (`model.onnx_device`, plus a record under
`device.calibration.measurement`) through the settings store's one locked write path. Reports
and the last decision go to the data folder, which nothing else writes."""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from filelock import FileLock

from engine.device.policy import SavedChoice
from settings.locations import user_data_dir

REPORT_SCHEMA_VERSION = 1
REPORTS_KEPT = 20
TIMEOUT_ENV = "PAPERLENS_CALIBRATION_TIMEOUT_S"
DEFAULT_TIMEOUT_S = 15.0
MAX_TIMEOUT_S = 600.0
MEASUREMENT_KEY = "measurement"
TIMEOUT_KEY = "timeout_s"


def data_dir(environ: Mapping[str, str] | None = None, platform: str = sys.platform) -> Path:
    """The per-user data folder: $XDG_DATA_HOME/paperlens (~/.local/share/paperlens) on Linux,
    as settings.locations defines it for every part of the app."""
    return user_data_dir(os.environ if environ is None else environ, platform)


@dataclass(frozen=True)
class Budget:
    seconds: float
    origin: str
    """default | file | env"""
    warning: str | None = None


def calibration_budget(calibration: Mapping[str, Any] | None,
                       environ: Mapping[str, str] | None = None) -> Budget:
    """The calibration time limit: PAPERLENS_CALIBRATION_TIMEOUT_S, else the setting
    device.calibration.timeout_s, else 15 s. A bad value is named and the next source used."""
    env = os.environ if environ is None else environ
    warnings = []
    text = env.get(TIMEOUT_ENV, "").strip()
    if text:
        value = _seconds(text)
        if value is not None:
            return Budget(value, "env")
        warnings.append(f"{TIMEOUT_ENV}={text!r} is not a number of seconds between 0 and "
                        f"{MAX_TIMEOUT_S:g}")
    raw = (calibration or {}).get(TIMEOUT_KEY)
    if raw is not None:
        value = _seconds(raw)
        if value is not None:
            return Budget(value, "file", "; ".join(warnings) or None)
        warnings.append(f"device.calibration.timeout_s={raw!r} is not a number of seconds "
                        f"between 0 and {MAX_TIMEOUT_S:g}")
    return Budget(DEFAULT_TIMEOUT_S, "default", "; ".join(warnings) or None)


def _seconds(value: object) -> float | None:
    if isinstance(value, bool):
        return None
    try:
        seconds = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None
    return seconds if 0 < seconds <= MAX_TIMEOUT_S else None


def saved_choice(calibration: Mapping[str, Any] | None) -> SavedChoice | None:
    record = (calibration or {}).get(MEASUREMENT_KEY)
    if not isinstance(record, dict) or record.get("device") not in ("cpu", "gpu"):
        return None
    ratio = record.get("ratio")
    return SavedChoice(device=record["device"],
                       ratio=float(ratio) if isinstance(ratio, (int, float)) else None,
                       measured_at=record.get("measured_at"), report_path=record.get("report"))


@dataclass(frozen=True)
class SaveOutcome:
    saved: bool
    detail: str


def save_measured_choice(store, device: str, record: dict[str, Any]) -> SaveOutcome:
    """Write the measured device as `model.onnx_device`, only while the file still says auto.

    A person who set cpu or gpu while the measurement ran wins. The store keeps every other
    key; a read-only file keeps the change in this process's memory only."""
    from settings import SettingsError

    outcome = {"saved": False, "detail": ""}

    def mutate(raw: dict[str, Any]) -> None:
        model = raw.get("model")
        current = model.get("onnx_device", "auto") if isinstance(model, dict) else "auto"
        if str(current).strip().casefold() != "auto":
            outcome["detail"] = f"the settings file now says {current!r}; left as it is"
            return
        if not isinstance(model, dict):
            model = raw["model"] = {}
        model["onnx_device"] = device
        section = raw.get("device")
        if not isinstance(section, dict):
            section = raw["device"] = {}
        calibration = section.get("calibration")
        if not isinstance(calibration, dict):
            calibration = section["calibration"] = {}
        calibration[MEASUREMENT_KEY] = record
        outcome["saved"] = True

    try:
        store.update(mutate)
    except SettingsError as exc:
        return SaveOutcome(False, f"the settings could not be updated ({exc})")
    if outcome["saved"] and store.read_only:
        return SaveOutcome(True, "the settings file is read-only; the choice is kept for this "
                                 "process only")
    return SaveOutcome(outcome["saved"], outcome["detail"] or f"saved to {store.path}")


def set_device(store, value: str):
    """A person's choice of `model.onnx_device` (cpu, gpu or auto), through the store.

    Drops the record of an earlier measurement, so that status says the choice is the
    person's, not a saved measurement's. Returns the new settings."""

    def assign(raw: dict[str, Any]) -> None:
        model = raw.get("model")
        if not isinstance(model, dict):
            model = raw["model"] = {}
        model["onnx_device"] = value
        section = raw.get("device")
        calibration = section.get("calibration") if isinstance(section, dict) else None
        if isinstance(calibration, dict):
            calibration.pop(MEASUREMENT_KEY, None)

    return store.update(assign)


def selection_lock(folder: Path, timeout_s: float) -> FileLock:
    """Serialises `auto` decisions across processes so that two never measure at once."""
    folder.mkdir(parents=True, exist_ok=True)
    return FileLock(str(folder / "device-selection.lock"), timeout=timeout_s)


def _write_json_atomic(path: Path, data: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".part")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(data, fh, ensure_ascii=False, indent=1)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def reports_dir(folder: Path) -> Path:
    return folder / "device" / "reports"


def write_report(folder: Path, report: dict[str, Any]) -> Path:
    """Store a calibration report (schema-versioned) and keep only the latest few."""
    now = time.time()
    stamp = time.strftime("%Y%m%dT%H%M%S", time.gmtime(now)) + f"{int(now * 1000) % 1000:03d}"
    path = reports_dir(folder) / f"calibration-{stamp}-{os.getpid()}.json"
    _write_json_atomic(path, {"schema_version": REPORT_SCHEMA_VERSION, **report})
    reports = sorted(reports_dir(folder).glob("calibration-*.json"), key=lambda p: p.name)
    for old in reports[:-REPORTS_KEPT]:
        old.unlink(missing_ok=True)
    return path


def amend_report(path: Path, changes: dict[str, Any]) -> None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return
    data.update(changes)
    _write_json_atomic(path, data)


def last_report(folder: Path) -> tuple[Path, dict[str, Any]] | None:
    reports = sorted(reports_dir(folder).glob("calibration-*.json"), key=lambda p: p.name)
    for path in reversed(reports):
        try:
            return path, json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
    return None


def report_summary(path: Path, report: dict[str, Any]) -> dict[str, Any]:
    """The few facts of a report a person reads first."""
    decision = report.get("decision") or {}
    measurement = (report.get("result") or {}).get("measurement") or {}
    return {"path": str(path), "measured_at": report.get("measured_at"),
            "outcome": report.get("outcome"), "device": decision.get("device"),
            "valid": decision.get("valid"), "ratio": measurement.get("ratio"),
            "threshold": measurement.get("threshold"), "sampling": measurement.get("sampling"),
            "adapter": ((report.get("target") or {}).get("description") or {}).get("name")
            or None, "reason": decision.get("reason"), "saved": report.get("saved")}


def decision_path(folder: Path) -> Path:
    return folder / "device" / "last-decision.json"


def write_last_decision(folder: Path, record: dict[str, Any]) -> None:
    try:
        _write_json_atomic(decision_path(folder), record)
    except OSError:
        pass  # a status nicety: never worth failing a conversion for


def read_last_decision(folder: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(decision_path(folder).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None
