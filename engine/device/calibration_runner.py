"""Runs the calibration process under its time budget and turns its result into a report."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable

from engine.device import reasons
from engine.device.calibration import BackendStats, Measurement, threshold_for
from engine.device.persistence import write_report
from engine.device.calibration import CalibrationOutcome
from engine.device.types import GpuTarget

MODULE = "engine.device.calibration_process"
OUTPUT_FORMAT = "ctc-ids-scores-v1"


def _measurement_from_json(data: dict[str, Any]) -> Measurement:
    fields = dict(data)
    for key in ("cpu_stats", "gpu_stats"):
        if fields.get(key) is not None:
            fields[key] = BackendStats(**fields[key])
    for key in ("extension_reasons", "cpu_seconds", "gpu_seconds", "decoded"):
        fields[key] = tuple(fields.get(key) or ())
    return Measurement(**fields)


class CalibrationRunner:
    """Starts `python -m engine.device.calibration_process` and enforces the budget.

    The model is obtained (downloaded, derived) before the clock starts: the budget covers the
    process's start-up, loading and inference, nothing else."""

    def __init__(self, model: Callable[[], tuple[Path, str, str]], images_dir: Path,
                 threads: int, budget_s: float, data_dir: Path,
                 python: str = sys.executable) -> None:
        self.model = model
        """Returns (derived model path, its SHA-256, the source model's SHA-256)."""
        self.images_dir = images_dir
        self.threads = threads
        self.budget_s = budget_s
        self.data_dir = data_dir
        self.python = python

    def __call__(self, target: GpuTarget) -> CalibrationOutcome:
        model_path, model_sha, source_sha = self.model()
        threshold = threshold_for(target.description.backend)
        measured_at = datetime.now(timezone.utc).isoformat(timespec="seconds")
        with tempfile.TemporaryDirectory(prefix="paperlens-calibration-") as work:
            request = {"model_path": str(model_path), "images_dir": str(self.images_dir),
                       "threads": self.threads, "target": target.to_json(),
                       "threshold": threshold, "result_path": str(Path(work) / "result.json")}
            request_path = Path(work) / "request.json"
            request_path.write_text(json.dumps(request), encoding="utf-8")
            outcome, result, elapsed, stderr_tail = self._run(request_path,
                                                              Path(request["result_path"]))
        report: dict[str, Any] = {
            "measured_at": measured_at, "backend": target.description.backend,
            "target": target.to_json(), "budget_s": self.budget_s,
            "elapsed_s": round(elapsed, 3), "outcome": outcome,
            "model": {"path": str(model_path), "sha256": model_sha,
                      "source_sha256": source_sha, "output_format": OUTPUT_FORMAT},
            "threshold": threshold, "result": result,
        }
        if stderr_tail:
            report["stderr_tail"] = stderr_tail
        measurement = None
        failure_code = failure = None
        if outcome == "timeout":
            failure_code = reasons.CALIBRATION_TIMEOUT
            failure = f"no result within the {self.budget_s:g} s budget"
        elif result is None:
            failure_code = reasons.CALIBRATION_FAILED
            failure = f"the calibration process ended without a result ({outcome})"
        elif not result.get("ok"):
            failure_code = result.get("failure_code") or reasons.CALIBRATION_FAILED
            failure = result.get("failure") or "the calibration process reported a failure"
        else:
            measurement = _measurement_from_json(result["measurement"])
        if measurement is not None:
            report["decision"] = {"valid": measurement.valid, "device": measurement.device,
                                  "reason_code": measurement.reason_code,
                                  "reason": measurement.reason}
        else:
            report["decision"] = {"valid": False, "device": "cpu", "reason_code": failure_code,
                                  "reason": failure}
        try:
            report_path = str(write_report(self.data_dir, report))
        except OSError:
            report_path = None
        return CalibrationOutcome(measurement, failure_code, failure, measured_at, report_path)

    def _run(self, request_path: Path,
             result_path: Path) -> tuple[str, dict[str, Any] | None, float, str]:
        start = time.perf_counter()
        env = dict(os.environ)
        # The child imports the engine from wherever this process found it.
        root = str(Path(__file__).resolve().parents[2])
        env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
        process = subprocess.Popen([self.python, "-m", MODULE, str(request_path)],
                                   stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.PIPE, env=env, start_new_session=True)
        try:
            _, stderr = process.communicate(timeout=self.budget_s)
            outcome = "finished" if process.returncode == 0 else f"exit {process.returncode}"
        except subprocess.TimeoutExpired:
            # Its own session: the whole group goes, including anything Dawn started.
            try:
                if hasattr(os, "killpg"):
                    os.killpg(process.pid, signal.SIGKILL)
                else:
                    process.kill()
            except ProcessLookupError:
                pass
            _, stderr = process.communicate()
            outcome = "timeout"
        elapsed = time.perf_counter() - start
        result = None
        if outcome != "timeout" and result_path.is_file():
            try:
                result = json.loads(result_path.read_text(encoding="utf-8"))
            except ValueError:
                result = None
        tail = (stderr or b"").decode("utf-8", "replace").strip()[-2000:]
        return outcome, result, elapsed, tail
