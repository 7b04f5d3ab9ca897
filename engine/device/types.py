"""The plain data of device selection: GPU descriptions, loader constraints, decisions."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from enum import StrEnum
from typing import Any


class Backend(StrEnum):
    CPU = "cpu"
    WEBGPU = "webgpu"
    DML = "dml"


class GpuKind(StrEnum):
    DISCRETE = "discrete"
    INTEGRATED = "integrated"
    SOFTWARE = "software"
    """A Vulkan device implemented on the CPU (Mesa's lavapipe/llvmpipe)."""
    UNKNOWN = "unknown"


class DecidedBy(StrEnum):
    NOT_YET = "not yet"
    EXPLICIT = "explicit"
    SAVED = "saved"
    MEASURED = "measured"
    RULE = "rule"
    """`auto` with a discrete GPU on DirectML: used without measuring."""
    FALLBACK = "fallback"


VENDOR_NAMES = {0x8086: "Intel", 0x10DE: "NVIDIA", 0x1002: "AMD", 0x1022: "AMD",
                0x10005: "Mesa", 0x13B5: "Arm", 0x5143: "Qualcomm", 0x1AF4: "virtio"}


@dataclass(frozen=True)
class GpuDescription:
    """A GPU as ONNX Runtime lists it: hashable and serialisable, never a native handle.

    Native handles (ORT's EP device objects) are looked up again from these fields whenever a
    session is created, so a description can cross into the calibration process and back."""

    backend: str
    vendor_id: int
    device_id: int
    name: str = ""
    kind: str = GpuKind.UNKNOWN.value
    card_index: int | None = None
    luid: int | None = None
    """DirectML: the adapter's LUID (valid until the next reboot), how ORT's EP device is
    found again. Never saved to the settings, like adapter numbers."""

    @property
    def ids(self) -> str:
        return f"{self.vendor_id:04x}:{self.device_id:04x}"

    @property
    def label(self) -> str:
        """What a person sees: the adapter's name when known, else vendor and PCI ids."""
        if self.name:
            return self.name
        vendor = VENDOR_NAMES.get(self.vendor_id, "GPU")
        return f"{vendor} GPU {self.ids}"

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "GpuDescription":
        return cls(backend=str(data["backend"]), vendor_id=int(data["vendor_id"]),
                   device_id=int(data["device_id"]), name=str(data.get("name") or ""),
                   kind=str(data.get("kind") or GpuKind.UNKNOWN.value),
                   card_index=None if data.get("card_index") is None
                   else int(data["card_index"]),
                   luid=None if data.get("luid") is None else int(data["luid"]))


@dataclass(frozen=True)
class VulkanDevice:
    """A physical device as the Vulkan loader shows it to this process."""

    vendor_id: int
    device_id: int
    name: str
    kind: str

    @property
    def ids(self) -> str:
        return f"{self.vendor_id:04x}:{self.device_id:04x}"


class ConstraintMethod(StrEnum):
    LOADER_FILTER = "loader_filter"
    """VK_LOADER_VENDOR_ID_FILTER / VK_LOADER_DEVICE_ID_FILTER, Vulkan loader 1.4.326 and later."""
    MESA_DEVICE_SELECT = "mesa_device_select"
    """MESA_VK_DEVICE_SELECT=vendor:device! through Mesa's implicit device-select layer."""


@dataclass(frozen=True)
class LoaderConstraint:
    """Environment that limits the Vulkan loader to one physical device while Dawn starts."""

    method: str
    vendor_id: int
    device_id: int
    env: tuple[tuple[str, str], ...]

    def to_json(self) -> dict[str, Any]:
        return {"method": self.method, "vendor_id": self.vendor_id, "device_id": self.device_id,
                "env": dict(self.env)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "LoaderConstraint":
        return cls(method=str(data["method"]), vendor_id=int(data["vendor_id"]),
                   device_id=int(data["device_id"]),
                   env=tuple(sorted((str(k), str(v)) for k, v in data["env"].items())))


@dataclass(frozen=True)
class GpuTarget:
    """The GPU chosen for sessions, plus the loader constraint that makes Dawn pick it."""

    description: GpuDescription
    constraint: LoaderConstraint | None = None

    def to_json(self) -> dict[str, Any]:
        return {"description": self.description.to_json(),
                "constraint": self.constraint.to_json() if self.constraint else None}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "GpuTarget":
        constraint = data.get("constraint")
        return cls(GpuDescription.from_json(data["description"]),
                   LoaderConstraint.from_json(constraint) if constraint else None)


@dataclass(frozen=True)
class Decision:
    """Which device this process runs the GPU-capable models on, and why."""

    device: str
    """cpu | gpu"""
    backend: str
    decided_by: str
    reason_code: str | None = None
    """A stable code (see engine.device.reasons) for fallbacks and measured outcomes."""
    reason: str | None = None
    """The same in words, with the specifics (device names, numbers)."""
    target: GpuTarget | None = None
    ratio: float | None = None
    measured_at: str | None = None
    report_path: str | None = None
    notes: tuple[str, ...] = field(default=())
    """Facts worth showing that did not decide anything (e.g. an ignored restricted GPU)."""

    @property
    def on_gpu(self) -> bool:
        return self.device == "gpu" and self.target is not None
