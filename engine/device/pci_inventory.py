"""Reads the GPUs the Linux kernel lists under /sys/class/drm, without loading any GPU code.

ONNX Runtime's own Linux device discovery reads the same `cardN/device/{vendor,device}` files.
Reading them first lets the Intel policy and the "no GPU at all" case end on the CPU before the
WebGPU plugin (16 MB, plus Dawn and the Vulkan loader) is ever loaded."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

DRM_ROOT = Path("/sys/class/drm")
_CARD = re.compile(r"^card(\d+)$")


@dataclass(frozen=True)
class PciGpu:
    card_index: int
    vendor_id: int
    device_id: int

    @property
    def ids(self) -> str:
        return f"{self.vendor_id:04x}:{self.device_id:04x}"


def _read_id(path: Path) -> int | None:
    try:
        return int(path.read_text(encoding="ascii").strip(), 0)
    except (OSError, ValueError):
        return None


def read_drm_gpus(root: Path = DRM_ROOT) -> list[PciGpu]:
    """The cards with readable vendor and device ids, by card index."""
    gpus = []
    try:
        entries = list(root.iterdir())
    except OSError:
        return []
    for entry in entries:
        match = _CARD.match(entry.name)
        if not match:
            continue  # connectors such as card0-HDMI-A-1 and render nodes
        vendor = _read_id(entry / "device" / "vendor")
        device = _read_id(entry / "device" / "device")
        if vendor is not None and device is not None:
            gpus.append(PciGpu(int(match.group(1)), vendor, device))
    return sorted(gpus, key=lambda g: g.card_index)
