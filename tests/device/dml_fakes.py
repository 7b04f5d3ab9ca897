"""Fakes for the DirectML tests: DXGI's adapter list, ORT's DML devices, DML sessions."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field

import onnxruntime as ort

from engine.device.calibration import Measurement
from engine.device.dml_backend import EP_NAME
from engine.device.dml_dxgi import AdapterList, DxgiAdapter
from engine.device.dml_policy import RuntimeAdapter, RuntimeListing
from engine.device.calibration import CalibrationOutcome
from engine.device.types import GpuTarget

GIB = 1 << 30
# LUIDs with a non-zero high part too, to catch a lost upper half.
NVIDIA_DGPU = DxgiAdapter(luid=0x0000_0001_0000_A1B2, vendor_id=0x10DE, device_id=0x2489,
                          name="NVIDIA GeForce RTX 3060 Ti", dedicated_video_memory=8 * GIB,
                          flags=0)
INTEL_IGPU = DxgiAdapter(luid=0x0000_0000_0000_C3D4, vendor_id=0x8086, device_id=0x4680,
                         name="Intel(R) UHD Graphics 770", dedicated_video_memory=128 << 20,
                         flags=0)
INTEL_ARC_IGPU = DxgiAdapter(luid=0x0000_0000_0000_7D55, vendor_id=0x8086, device_id=0x7D55,
                             name="Intel(R) Arc(TM) Graphics", dedicated_video_memory=128 << 20,
                             flags=0)
AMD_DGPU = DxgiAdapter(luid=0x0000_0000_0000_E5F6, vendor_id=0x1002, device_id=0x73BF,
                       name="AMD Radeon RX 6800", dedicated_video_memory=16 * GIB, flags=0)
BASIC_RENDER = DxgiAdapter(luid=0x0000_0000_0000_0F0F, vendor_id=0x1414, device_id=0x008C,
                           name="Microsoft Basic Render Driver", dedicated_video_memory=0,
                           flags=0x2)
UMA = {INTEL_IGPU.luid: True, INTEL_ARC_IGPU.luid: True, NVIDIA_DGPU.luid: False,
       AMD_DGPU.luid: False}
"""D3D12's architecture answer per adapter; adapters not listed cannot run D3D12."""


def runtime_of(*adapters: DxgiAdapter, discrete: dict[int, bool] | None = None
               ) -> RuntimeListing:
    """ORT's DML devices for these adapters, as ORT lists them (by LUID)."""
    marks = discrete or {}
    return RuntimeListing(tuple(RuntimeAdapter(a.luid, a.vendor_id, a.device_id, a.name,
                                               marks.get(a.luid)) for a in adapters))


@dataclass
class FakeDxgi:
    """The DXGI/D3D12 seam: `by_index` is EnumAdapters1's order, `high_performance` the order
    of EnumAdapterByGpuPreference (None: a system without IDXGIFactory6)."""

    by_index: list[DxgiAdapter]
    high_performance: list[DxgiAdapter] | None = None
    uma: dict[int, bool] = field(default_factory=lambda: dict(UMA))
    problem: str | None = None
    asked: list[str] = field(default_factory=list)

    def _name(self, luid: int) -> str:
        return next((a.name for a in self.by_index if a.luid == luid), hex(luid))

    def adapters(self) -> AdapterList:
        self.asked.append("adapters")
        if self.problem:
            return AdapterList(problem=self.problem)
        ordered = self.high_performance if self.high_performance is not None else self.by_index
        return AdapterList(tuple(ordered), high_performance_order=self.high_performance is not None)

    def is_uma(self, luid: int) -> bool | None:
        self.asked.append(f"uma:{self._name(luid)}")
        return self.uma.get(luid)

    def supports_d3d12(self, luid: int) -> bool:
        self.asked.append(f"d3d12:{self._name(luid)}")
        return luid in self.uma


def measurement(device: str = "gpu", ratio: float = 0.5) -> Measurement:
    code = "gpu_faster" if device == "gpu" else "gpu_slower"
    return Measurement(valid=True, device=device, reason_code=code, reason=f"ratio {ratio}",
                       threshold=0.8, ratio=ratio, sampling="1+3")


@dataclass
class FakeDmlFacts:
    """DmlFacts over a FakeDxgi, a fixed ORT listing and a fixed calibration outcome."""

    dxgi: FakeDxgi
    runtime: RuntimeListing
    outcome: CalibrationOutcome | None = None
    calibrated: list[GpuTarget] = field(default_factory=list)

    @property
    def asked(self) -> list[str]:
        return self.dxgi.asked

    def adapters(self) -> AdapterList:
        return self.dxgi.adapters()

    def is_uma(self, luid: int) -> bool | None:
        return self.dxgi.is_uma(luid)

    def supports_d3d12(self, luid: int) -> bool:
        return self.dxgi.supports_d3d12(luid)

    def runtime_adapters(self) -> RuntimeListing:
        self.dxgi.asked.append("runtime")
        return self.runtime

    def calibrate(self, target: GpuTarget) -> CalibrationOutcome:
        self.dxgi.asked.append("calibrate")
        self.calibrated.append(target)
        return self.outcome or CalibrationOutcome(measurement(),
                                                  measured_at="2026-01-02T03:04:05+00:00")


class FakeDmlSession:
    """A real CPU session that reports the DML EP and records overlapping runs."""

    def __init__(self, model_path, providers: tuple[str, ...], run_s: float = 0.0) -> None:
        self._session = ort.InferenceSession(str(model_path),
                                             providers=["CPUExecutionProvider"])
        self._providers = list(providers)
        self._run_s = run_s
        self._guard = threading.Lock()
        self.active = 0
        self.most_at_once = 0

    def get_providers(self) -> list[str]:
        return list(self._providers)

    def get_inputs(self):
        return self._session.get_inputs()

    def get_outputs(self):
        return self._session.get_outputs()

    def get_modelmeta(self):
        return self._session.get_modelmeta()

    def run(self, outputs, feeds):
        with self._guard:
            self.active += 1
            self.most_at_once = max(self.most_at_once, self.active)
        try:
            time.sleep(self._run_s)
            return self._session.run(outputs, feeds)
        finally:
            with self._guard:
                self.active -= 1


class FakeOrtDml:
    """The ORT seam of DmlBackend: a fixed listing; sessions for listed LUIDs only."""

    def __init__(self, listing: RuntimeListing, providers: tuple[str, ...] = (
            EP_NAME, "CPUExecutionProvider"), fail: str | None = None,
            run_s: float = 0.0) -> None:
        self._listing = listing
        self.providers = providers
        self.fail = fail
        self.run_s = run_s
        self.created: list[dict] = []
        self.sessions: list[FakeDmlSession] = []

    def listing(self) -> RuntimeListing:
        return self._listing

    def create_session(self, model_path, options: ort.SessionOptions, luid: int,
                       options_for_ep) -> FakeDmlSession:
        self.created.append({"luid": luid, "ep_options": dict(options_for_ep),
                             "mem_pattern": options.enable_mem_pattern,
                             "sequential": options.execution_mode
                             == ort.ExecutionMode.ORT_SEQUENTIAL,
                             "options": options})
        if luid not in {d.luid for d in self._listing.devices}:
            raise LookupError(luid)
        if self.fail:
            raise RuntimeError(self.fail)
        session = FakeDmlSession(model_path, self.providers, self.run_s)
        self.sessions.append(session)
        return session
