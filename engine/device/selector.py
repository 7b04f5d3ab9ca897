"""Decides the device once per engine, at the first model use, and keeps what people see.

`DeviceSelector(settings)` is cheap: it reads the snapshot it is given and nothing else.
`decision()` runs the policy with the real facts (plugin, Vulkan, calibration process), saves a
measured choice, and remembers the outcome; `status()` never probes anything."""

from __future__ import annotations

import platform as platform_module
import sys
import threading
from collections.abc import Callable, Mapping
from dataclasses import replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from filelock import Timeout

from engine.device import reasons
from engine.device.loader_constraint import verify
from engine.device.pci_inventory import PciGpu, read_drm_gpus
from engine.device.persistence import (
    amend_report,
    calibration_budget,
    data_dir,
    save_measured_choice,
    saved_choice,
    selection_lock,
    write_last_decision,
)
from engine.device.policy import (
    BACKEND_BY_PLATFORM,
    CalibrationOutcome,
    DeviceRequest,
    Inventory,
    choose_device,
    fallback,
)
from engine.device.types import Backend, DecidedBy, Decision, GpuTarget
from engine.device.vulkan_probe import VulkanView
from engine.models.sources import sha256_file

# How much longer than one calibration a second process waits for the first one's result.
SELECTION_WAIT_MARGIN_S = 30.0


def current_platform() -> str:
    return f"{sys.platform}-{platform_module.machine().lower()}"


class ProcessDeviceState:
    """Facts that belong to the process, not to one Engine: a failed measurement is not
    repeated until the app restarts, whatever Engine asks next."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.measurement_failed: str | None = None


PROCESS_STATE = ProcessDeviceState()


class SystemFacts:
    """The real facts: the WebGPU plugin, the Vulkan loader and the calibration process."""

    def __init__(self, backend, calibrate: Callable[[GpuTarget], CalibrationOutcome]) -> None:
        self.backend = backend
        self._calibrate = calibrate

    def pci_gpus(self) -> list[PciGpu]:
        return read_drm_gpus()

    def gpu_inventory(self) -> Inventory:
        return self.backend.inventory()

    def vulkan_devices(self) -> VulkanView:
        return self.backend.probe.enumerate()

    def verify_constraint(self, target: GpuTarget) -> tuple[bool, VulkanView]:
        assert target.constraint is not None
        return verify(target.constraint, self.backend.probe)

    def calibrate(self, target: GpuTarget) -> CalibrationOutcome:
        return self._calibrate(target)


class DeviceSelector:
    """One device decision per engine, made at the first model use."""

    def __init__(self, settings, *, store=None, facts=None, backend=None,
                 data_folder: Path | None = None, environ: Mapping[str, str] | None = None,
                 process_state: ProcessDeviceState = PROCESS_STATE, threads: int | None = None,
                 platform: str | None = None, measure: bool = False,
                 on_event: Callable[[Any], None] | None = None) -> None:
        self._settings = settings
        self._store = store
        self._facts = facts
        self._backend = backend
        self._environ = environ
        self.data_folder = data_folder or data_dir(environ)
        self._process = process_state
        self._threads = threads
        self._platform = platform or current_platform()
        self._measure = measure
        self.on_event = on_event
        self._lock = threading.RLock()
        self._decision: Decision | None = None
        self._gpu_sessions = 0
        self.saved: str | None = None
        """What happened to a measured choice: where it was saved, or why it was not."""

    # -- what the runtime calls ---------------------------------------------------------------

    def decided(self) -> Decision | None:
        # No lock: status is read from the UI while a calibration may hold the lock for
        # seconds, and reading one attribute is atomic.
        return self._decision

    def decision(self) -> Decision:
        """The device for this engine, decided on the first call (this is the slow one)."""
        with self._lock:
            if self._decision is None:
                self._decision = self._decide()
                self._announce(self._decision)
            return self._decision

    def gpu_backend(self):
        """The backend that creates GPU sessions: DirectML on Windows x64, else the WebGPU
        plugin, unless one was given."""
        if self._backend is None:
            if self._on_dml():
                from engine.device.dml_backend import DmlBackend

                self._backend = DmlBackend()
            else:
                from engine.device.webgpu import WebGpuBackend

                self._backend = WebGpuBackend()
        return self._backend

    def gpu_session_created(self, role: str) -> None:
        with self._lock:
            self._gpu_sessions += 1

    def gpu_session_failed(self, role: str, code: str, detail: str) -> str:
        """A GPU session could not be created; returns the reason recorded for that session.

        Before any GPU session exists the whole engine moves to the CPU (Dawn's failed start
        is not retried by the plugin within a process); after, only this role does."""
        with self._lock:
            reason = f"{reasons.sentence(code)} ({role}: {detail})"
            current = self._decision
            if current is not None and self._gpu_sessions == 0:
                self._decision = replace(fallback(code, f"{role}: {detail}", current.notes),
                                         ratio=current.ratio, measured_at=current.measured_at,
                                         report_path=current.report_path)
                self._announce(self._decision)
            elif current is not None:
                self._decision = replace(current, notes=current.notes + (reason,))
            return reason

    # -- what people see ---------------------------------------------------------------------

    def status(self):
        from engine.device.status import build_status

        return build_status(self._settings, self.decided(), self.data_folder, self._environ)

    # -- internals ---------------------------------------------------------------------------

    def _request(self, settings) -> DeviceRequest:
        configured = "auto" if self._measure else str(settings.model.onnx_device)
        origin = str(settings.origin("model.onnx_device"))
        return DeviceRequest(configured=configured, origin=origin, platform=self._platform,
                             saved=saved_choice(settings.device.calibration),
                             measure_now=self._measure)

    def _decide(self) -> Decision:
        request = self._request(self._settings)
        if request.configured != "auto":
            return self._choose(request)
        budget = calibration_budget(self._settings.device.calibration, self._environ)
        wait_s = budget.seconds + SELECTION_WAIT_MARGIN_S
        try:
            lock = selection_lock(self.data_folder, wait_s)
            lock.acquire()
        except Timeout:
            return fallback(reasons.CALIBRATION_BUSY, f"waited {wait_s:g} s for it to finish")
        except OSError:
            lock = None  # an unwritable data folder must not stop the app; decide unlocked
        try:
            if request.origin != "env" and not self._measure:
                # Another process may have measured and saved while this one waited.
                fresh = self._reload()
                if fresh is not None and str(fresh.model.onnx_device) != "auto":
                    self._settings = fresh
                    return self._choose(self._request(fresh))
            with self._process.lock:
                failed = self._process.measurement_failed
            if failed:
                return fallback(reasons.CALIBRATION_NOT_RETRIED, failed)
            decision = self._choose(request)
            self._after_measurement(request, decision)
            return decision
        finally:
            if lock is not None:
                lock.release()

    def _on_dml(self) -> bool:
        return BACKEND_BY_PLATFORM.get(self._platform) == Backend.DML.value

    def _choose(self, request: DeviceRequest) -> Decision:
        if self._facts is None:
            if self._on_dml():
                from engine.device.dml_backend import DmlSystemFacts

                self._facts = DmlSystemFacts(self.gpu_backend(), self._run_calibration)
            else:
                self._facts = SystemFacts(self.gpu_backend(), self._run_calibration)
        try:
            return choose_device(request, self._facts)
        except Exception as exc:  # a probe must never stop a conversion: CPU, with the reason
            return fallback(reasons.SESSION_FAILED, f"device selection failed: {exc!r}")

    def _run_calibration(self, target: GpuTarget) -> CalibrationOutcome:
        from engine.device.calibration_runner import CalibrationRunner
        from engine.runtime.cpu import physical_core_count
        from resources import resource_path

        budget = calibration_budget(self._settings.device.calibration, self._environ)
        runner = CalibrationRunner(self._calibration_model, resource_path("calibration"),
                                   self._threads or physical_core_count(), budget.seconds,
                                   self.data_folder)
        try:
            return runner(target)
        except Exception as exc:  # the model could not be fetched or derived, the disk is full
            return CalibrationOutcome(None, reasons.CALIBRATION_FAILED,
                                      f"could not start the measurement: {exc}")

    def _calibration_model(self) -> tuple[Path, str, str]:
        from engine.models.store import ModelStore

        store = ModelStore(Path(self._settings.model.base_dir), self._settings.model.index_url)
        spec = store.default_for_role("rec")
        path = store.derived_rec(spec.id)
        return path, sha256_file(path), spec.sha256 or ""

    def _reload(self):
        try:
            return self._settings_store().load()
        except Exception:
            return None

    def _settings_store(self):
        if self._store is None:
            from settings import SettingsStore

            self._store = SettingsStore(self._settings.path, self._environ)
        return self._store

    def _after_measurement(self, request: DeviceRequest, decision: Decision) -> None:
        if decision.decided_by == DecidedBy.FALLBACK.value:
            calibrated = decision.report_path is not None or decision.reason_code in (
                reasons.CALIBRATION_TIMEOUT, reasons.CALIBRATION_FAILED,
                reasons.CALIBRATION_MISMATCH, reasons.CALIBRATION_UNSTABLE)
            if calibrated:
                # Not saved as "CPU won", and not tried again by this process.
                with self._process.lock:
                    self._process.measurement_failed = decision.reason
                self.saved = "not saved: the measurement did not give a valid decision"
        elif decision.decided_by == DecidedBy.MEASURED.value:
            if request.origin == "env":
                self.saved = ("not saved: PAPERLENS_MODEL_ONNX_DEVICE=auto decides in every "
                              "process")
            else:
                record = {"device": decision.device, "ratio": decision.ratio,
                          "measured_at": decision.measured_at, "report": decision.report_path,
                          "backend": decision.target.description.backend if decision.target
                          else "webgpu"}
                outcome = save_measured_choice(self._settings_store(), decision.device, record)
                self.saved = outcome.detail if outcome.saved else f"not saved: {outcome.detail}"
        if decision.report_path and self.saved:
            amend_report(Path(decision.report_path), {"saved": self.saved})

    def _announce(self, decision: Decision) -> None:
        record = {"at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
                  "effective": decision.device, "backend": decision.backend,
                  "adapter": decision.target.description.label if decision.on_gpu else None,
                  "decided_by": decision.decided_by, "reason_code": decision.reason_code,
                  "reason": decision.reason, "ratio": decision.ratio,
                  "report": decision.report_path}
        write_last_decision(self.data_folder, record)
        if self.on_event is not None:
            from engine.events import DeviceDecided

            self.on_event(DeviceDecided(device=decision.device, backend=decision.backend,
                                        reason=decision.reason or decision.decided_by))
