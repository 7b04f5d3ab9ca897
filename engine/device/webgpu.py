"""The Linux WebGPU backend: ONNX Runtime's WebGPU plugin EP (Dawn over Vulkan).

The plugin is registered at most once per process, when a GPU is first needed; registration,
Dawn's context and the loader environment are process-wide, which is why the registration
state and the WebGPU lock live at module level. Everything else is an object you can fake."""

from __future__ import annotations

import ctypes
import threading
from pathlib import Path
from typing import Any

import onnxruntime as ort

from engine.device import reasons
from engine.device.intel_policy import describe_restriction, is_restricted
from engine.device.loader_constraint import applied, only_target_visible
from engine.device.policy import Inventory
from engine.device.types import Backend, GpuDescription, GpuKind, GpuTarget
from engine.device.vulkan_probe import LIBRARY as VULKAN_LIBRARY
from engine.device.vulkan_probe import VulkanProbe
from engine.runtime.gpu import WEBGPU_LOCK, GpuSessionError

EP_NAME = "WebGpuExecutionProvider"
PLUGIN_MODULE = "onnxruntime_ep_webgpu"
REGISTRATION_NAME = "paperlens-webgpu"
# NHWC is the layout the WebGPU kernels are written for; graph capture replays a recorded
# command stream and needs fixed shapes, which text lines of varying width do not have.
PROVIDER_OPTIONS = {"preferredLayout": "NHWC", "enableGraphCapture": "0",
                    "dawnBackendType": "Vulkan"}

class _Registration:
    """The process's one attempt to register the plugin, and its outcome."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.attempted = False
        self.problem_code: str | None = None
        self.problem: str | None = None
        self.library_path: str | None = None
        self.version: str | None = None


_REGISTRATION = _Registration()


def plugin_version() -> str | None:
    from importlib import metadata
    try:
        return metadata.version("onnxruntime-ep-webgpu")
    except metadata.PackageNotFoundError:
        return None


def register_plugin() -> tuple[str | None, str | None]:
    """Register the plugin once per process; returns (problem_code, problem) or (None, None)."""
    state = _REGISTRATION
    with state.lock:
        if state.attempted:
            return state.problem_code, state.problem
        state.attempted = True
        try:
            # Dawn loads the Vulkan loader itself, late and without a clear error; asking first
            # gives the person a reason they can act on.
            ctypes.CDLL(VULKAN_LIBRARY)
        except OSError as exc:
            state.problem_code, state.problem = reasons.VULKAN_MISSING, str(exc)
            return state.problem_code, state.problem
        try:
            import onnxruntime_ep_webgpu as plugin
        except ImportError as exc:
            state.problem_code = reasons.PLUGIN_MISSING
            state.problem = f"the Python package onnxruntime-ep-webgpu is missing ({exc})"
            return state.problem_code, state.problem
        try:
            state.library_path = plugin.get_library_path()
            ort.register_execution_provider_library(REGISTRATION_NAME, state.library_path)
            state.version = plugin_version()
        except Exception as exc:  # ORT raises plain Fail/RuntimeError for a bad library
            state.problem_code = reasons.PLUGIN_MISSING
            state.problem = f"registering the WebGPU plugin failed: {exc}"
        return state.problem_code, state.problem


def plugin_registered() -> bool:
    """Whether this process registered the plugin (for status and tests)."""
    return _REGISTRATION.attempted and _REGISTRATION.problem_code is None


def _description(ep_device: Any) -> GpuDescription:
    hardware = ep_device.device
    metadata = dict(hardware.metadata)
    card = metadata.get("card_idx")
    kind = GpuKind.DISCRETE if metadata.get("Discrete") == "1" else GpuKind.UNKNOWN
    return GpuDescription(backend=Backend.WEBGPU.value, vendor_id=int(hardware.vendor_id),
                          device_id=int(hardware.device_id), name="", kind=kind.value,
                          card_index=int(card) if card is not None and card.isdigit() else None)


def _webgpu_ep_devices() -> list[Any]:
    return [d for d in ort.get_ep_devices() if d.ep_name == EP_NAME]


class WebGpuBackend:
    """Inventory and session creation on the WebGPU EP."""

    backend = Backend.WEBGPU.value

    def __init__(self, probe: VulkanProbe | None = None) -> None:
        self.probe = probe or VulkanProbe()

    def inventory(self) -> Inventory:
        code, problem = register_plugin()
        if code:
            return Inventory(self.backend, problem_code=code, problem=problem)
        devices = tuple(_description(d) for d in _webgpu_ep_devices())
        return Inventory(self.backend, devices)

    def ep_device(self, description: GpuDescription) -> Any:
        """ORT's native EP device for a description, looked up fresh (handles never travel)."""
        for candidate in _webgpu_ep_devices():
            found = _description(candidate)
            if (found.vendor_id, found.device_id, found.card_index) == (
                    description.vendor_id, description.device_id, description.card_index):
                return candidate
        raise GpuSessionError(reasons.NO_GPU, f"{description.label} is no longer listed by the "
                                              "WebGPU plugin (removed or disabled?)")

    def create_session(self, model_path: Path, options: ort.SessionOptions,
                       target: GpuTarget) -> ort.InferenceSession:
        """A session that really runs on the WebGPU EP, or GpuSessionError.

        ORT's Python fallback (retrying a failed session on the CPU and saying so only on
        stdout) is off: the caller decides what a failure means. Nodes the EP does not support
        still run on the CPU inside the session, as ORT assigns them."""
        description = target.description
        if is_restricted(description.vendor_id, description.device_id):
            # The decision already keeps these off the GPU; this guards any other caller.
            raise GpuSessionError(reasons.ARCHITECTURE_POLICY,
                                  describe_restriction(description.device_id))
        code, problem = register_plugin()
        if code:
            raise GpuSessionError(code, problem or "")
        with WEBGPU_LOCK:
            # Re-applied for every session: Dawn may drop and rebuild its context, and it
            # enumerates adapters again when it does.
            with applied(target.constraint):
                if target.constraint is not None:
                    view = self.probe.enumerate()
                    if not only_target_visible(view, target.constraint):
                        seen = ", ".join(f"{d.name} [{d.ids}]" for d in view.devices)
                        raise GpuSessionError(reasons.FILTER_UNVERIFIED,
                                              f"the loader constraint left {seen or 'nothing'}")
                options.add_provider_for_devices([self.ep_device(description)],
                                                 dict(PROVIDER_OPTIONS))
                try:
                    session = ort.InferenceSession(str(model_path), sess_options=options,
                                                   enable_fallback=0)
                except Exception as exc:
                    text = str(exc)
                    code = reasons.NO_ADAPTER if "adapter" in text.lower() \
                        else reasons.SESSION_FAILED
                    raise GpuSessionError(code, _short_error(text)) from None
        if EP_NAME not in session.get_providers():
            raise GpuSessionError(reasons.SESSION_FAILED,
                                  f"the session got {session.get_providers()}, not {EP_NAME}")
        return session


def _short_error(text: str) -> str:
    """ORT's messages carry source paths and lambdas; the last sentence is the useful one."""
    for marker in ("Failed to get a WebGPU adapter", "EP_FAIL", "FAIL"):
        index = text.rfind(marker)
        if index >= 0:
            return text[index:].strip()[:300]
    return text.strip()[:300]
