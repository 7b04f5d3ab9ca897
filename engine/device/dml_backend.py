"""The Windows DirectML backend: ONNX Runtime's DML devices, DML sessions, and the real facts.

`OrtDml` is the thin seam over ONNX Runtime's EP-device API (the DML EP lists one device per
adapter, with the adapter's LUID in the hardware metadata); `DmlBackend` decides what a DML
session needs and checks what it got; `DmlSystemFacts` joins DXGI (engine.device.dml_dxgi) and
ORT for the device decision. Tests replace `OrtDml` and `DxgiAdapters` with fakes."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from importlib import metadata
from pathlib import Path
from typing import Any

import onnxruntime as ort

from engine.device import reasons
from engine.device.dml_dxgi import AdapterList, DxgiAdapters
from engine.runtime.install import DIRECTML_DISTRIBUTION, DistributionMap, install_conflict
from engine.device.dml_policy import RuntimeAdapter, RuntimeListing
from engine.device.dml_presets import provider_options
from engine.device.calibration import CalibrationOutcome
from engine.device.types import Backend, GpuTarget
from engine.runtime.gpu import GpuSessionError

EP_NAME = "DmlExecutionProvider"
LUID_KEY = "LUID"
"""ORT's hardware-device metadata key: the adapter LUID as a decimal 64-bit number."""


class DmlSessionError(GpuSessionError):
    """A DirectML session could not be created as asked; `code` is a reasons code.

    A GpuSessionError, so the session factory's one fallback path covers both backends."""


def dml_version() -> str | None:
    try:
        return metadata.version(DIRECTML_DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return None


def parse_luid(text: str | None) -> int | None:
    if not text:
        return None
    text = text.strip()
    try:
        return int(text, 16) if text.lower().startswith("0x") else int(text, 10)
    except ValueError:
        return None


def runtime_adapter(ep_device: Any) -> RuntimeAdapter:
    hardware = ep_device.device
    data: Mapping[str, str] = dict(hardware.metadata)
    discrete = data.get("Discrete")
    return RuntimeAdapter(luid=parse_luid(data.get(LUID_KEY)), vendor_id=int(hardware.vendor_id),
                          device_id=int(hardware.device_id),
                          description=str(data.get("Description") or ""),
                          discrete=None if discrete not in ("0", "1") else discrete == "1")


class OrtDml:
    """ONNX Runtime's side of DirectML: which devices it offers and how a session is bound to
    one. Native EP-device objects never leave this class; they are looked up by LUID each time."""

    def __init__(self, module: Any = ort,
                 packages: DistributionMap = metadata.packages_distributions) -> None:
        self._ort = module
        self._packages = packages

    def listing(self) -> RuntimeListing:
        conflict = install_conflict(self._packages)
        if conflict is not None:
            return RuntimeListing(problem_code=reasons.ORT_CONFLICT, problem=conflict.detail)
        version = getattr(self._ort, "__version__", "?")
        providers = list(self._ort.get_available_providers())
        if EP_NAME not in providers:
            return RuntimeListing(problem_code=reasons.DML_MISSING, problem=(
                f"onnxruntime {version} offers {', '.join(providers)}; install "
                f"{DIRECTML_DISTRIBUTION} (after `pip uninstall onnxruntime`)"))
        if not hasattr(self._ort, "get_ep_devices"):
            return RuntimeListing(problem_code=reasons.DML_MISSING, problem=(
                f"onnxruntime {version} cannot list its devices; {DIRECTML_DISTRIBUTION} 1.23 "
                "or later is needed"))
        return RuntimeListing(tuple(runtime_adapter(d) for d in self._dml_devices()))

    def create_session(self, model_path: Path, options: ort.SessionOptions, luid: int,
                       options_for_ep: Mapping[str, str]) -> Any:
        """A session bound to the DML device with this LUID; LookupError when ORT no longer
        lists it. ORT's Python fallback to other providers is off: failures are the caller's."""
        for candidate in self._dml_devices():
            if parse_luid(dict(candidate.device.metadata).get(LUID_KEY)) == luid:
                options.add_provider_for_devices([candidate], dict(options_for_ep))
                return self._ort.InferenceSession(str(model_path), sess_options=options,
                                                  enable_fallback=0)
        raise LookupError(luid)

    def _dml_devices(self) -> list[Any]:
        return [d for d in self._ort.get_ep_devices() if d.ep_name == EP_NAME]


class DmlBackend:
    """Session creation on the DirectML EP, with the presets for the model role."""

    backend = Backend.DML.value

    def __init__(self, runtime: OrtDml | None = None) -> None:
        self.runtime = runtime or OrtDml()

    def runtime_adapters(self) -> RuntimeListing:
        return self.runtime.listing()

    def create_session(self, model_path: Path, options: ort.SessionOptions, target: GpuTarget,
                       *, role: str) -> Any:
        """A session that really runs on the DML EP for this adapter, or DmlSessionError.

        Nodes the EP does not take still run on the CPU inside the session, as ORT assigns
        them; a whole session on the CPU is refused."""
        description = target.description
        if description.backend != self.backend or description.luid is None:
            raise DmlSessionError(reasons.SESSION_FAILED,
                                  f"{description.label} is not a DirectML adapter description")
        # The DML EP refuses memory patterns and parallel execution within a session.
        options.enable_mem_pattern = False
        options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        preset = provider_options(description.vendor_id, role)
        try:
            session = self.runtime.create_session(model_path, options, description.luid, preset)
        except LookupError:
            raise DmlSessionError(reasons.NO_GPU, f"{description.label} is no longer listed by "
                                                  "ONNX Runtime (removed or disabled?)") from None
        except Exception as exc:  # ORT raises plain Fail/RuntimeError with long native text
            raise DmlSessionError(reasons.SESSION_FAILED, _short_error(str(exc))) from None
        providers = list(session.get_providers())
        if EP_NAME not in providers:
            raise DmlSessionError(reasons.SESSION_FAILED,
                                  f"the session got {providers}, not {EP_NAME}")
        return session


class DmlSystemFacts:
    """The real facts for engine.device.dml_policy: DXGI/D3D12 through ctypes, ORT's DML
    devices, and the calibration process."""

    def __init__(self, backend: DmlBackend,
                 calibrate: Callable[[GpuTarget], CalibrationOutcome],
                 adapters: DxgiAdapters | None = None) -> None:
        self.backend = backend
        self._calibrate = calibrate
        self._dxgi = adapters or DxgiAdapters()

    def adapters(self) -> AdapterList:
        return self._dxgi.adapters()

    def is_uma(self, luid: int) -> bool | None:
        return self._dxgi.is_uma(luid)

    def supports_d3d12(self, luid: int) -> bool:
        return self._dxgi.supports_d3d12(luid)

    def runtime_adapters(self) -> RuntimeListing:
        return self.backend.runtime_adapters()

    def calibrate(self, target: GpuTarget) -> CalibrationOutcome:
        return self._calibrate(target)


def _short_error(text: str) -> str:
    """ORT's messages carry source paths; the end usually says what failed."""
    text = text.strip()
    for marker in ("EP_FAIL", "FAIL", "INVALID_ARGUMENT"):
        index = text.rfind(marker)
        if index >= 0:
            return text[index:][:300]
    return text[:300]
