"""What a session on a GPU needs from the device room, as the runtime sees it: the decision it
is made for, the backend that makes it, the error a backend raises when it cannot, and the lock
WebGPU sessions share. engine/device/ implements these; the runtime imports nothing from it."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:  # pragma: no cover
    import onnxruntime as ort

# Every WebGPU session shares Dawn's device and queue; creating or running two at once from
# different threads is not safe, so both go through this one lock.
WEBGPU_LOCK = threading.RLock()


class GpuSessionError(RuntimeError):
    """A GPU session could not be created as asked; `code` is a reasons code
    (engine/device/reasons.py)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class GpuDecision(Protocol):
    """The device decided for an engine (engine.device.types.Decision)."""

    @property
    def on_gpu(self) -> bool: ...

    @property
    def backend(self) -> str: ...

    @property
    def target(self) -> Any: ...


class GpuBackend(Protocol):
    """Creates sessions on the decided GPU (the WebGPU plugin, DirectML)."""

    def create_session(self, model_path: Path, options: "ort.SessionOptions", target: Any,
                       **kwargs: Any) -> "ort.InferenceSession": ...


class DeviceChoice(Protocol):
    """Decides the device on first need and hears how GPU sessions went
    (engine.device.selector.DeviceSelector)."""

    def decision(self) -> GpuDecision: ...

    def gpu_backend(self) -> GpuBackend: ...

    def gpu_session_created(self, role: str) -> None: ...

    def gpu_session_failed(self, role: str, code: str, detail: str) -> str: ...
