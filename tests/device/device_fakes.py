"""Fakes for device-selection tests: hardware facts, a calibration, settings, a GPU backend."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from engine.device.calibration import Measurement
from engine.device.pci_inventory import PciGpu
from engine.device.policy import CalibrationOutcome, Inventory
from engine.device.types import GpuDescription, GpuTarget, VulkanDevice
from engine.device.vulkan_probe import VulkanView
from settings import SettingsStore

NVIDIA = GpuDescription("webgpu", 0x10DE, 0x2489, kind="discrete", card_index=1)
AMD_IGPU = GpuDescription("webgpu", 0x1002, 0x15BF, card_index=2)
INTEL_OLD = GpuDescription("webgpu", 0x8086, 0x4680, card_index=0)
INTEL_ARC = GpuDescription("webgpu", 0x8086, 0x56A0, card_index=0)


def pci(*descriptions: GpuDescription) -> list[PciGpu]:
    return [PciGpu(d.card_index or 0, d.vendor_id, d.device_id) for d in descriptions]


def vulkan_of(description: GpuDescription, name: str, kind: str = "discrete") -> VulkanDevice:
    return VulkanDevice(description.vendor_id, description.device_id, name, kind)


def measurement(device: str = "cpu", ratio: float = 5.0, valid: bool = True,
                code: str = "gpu_slower") -> Measurement:
    return Measurement(valid=valid, device=device, reason_code=code, reason=f"ratio {ratio}",
                       threshold=0.8, ratio=ratio, sampling="1+3")


@dataclass
class FakeFacts:
    """Answers from fixed data and records which facts were asked for."""

    gpus: list[GpuDescription] = field(default_factory=list)
    visible: list[VulkanDevice] = field(default_factory=list)
    loader_version: str = "1.3.239"
    vulkan_problem: str | None = None
    inventory_problem: tuple[str, str] | None = None
    verifies: set[str] = field(default_factory=lambda: {"mesa_device_select", "loader_filter"})
    outcome: CalibrationOutcome | None = None
    asked: list[str] = field(default_factory=list)
    calibrated: list[GpuTarget] = field(default_factory=list)

    def pci_gpus(self) -> list[PciGpu]:
        self.asked.append("pci")
        return pci(*self.gpus)

    def gpu_inventory(self) -> Inventory:
        self.asked.append("inventory")
        if self.inventory_problem:
            return Inventory("webgpu", problem_code=self.inventory_problem[0],
                             problem=self.inventory_problem[1])
        return Inventory("webgpu", tuple(self.gpus))

    def vulkan_devices(self) -> VulkanView:
        self.asked.append("vulkan")
        return VulkanView(self.loader_version, tuple(self.visible), self.vulkan_problem)

    def verify_constraint(self, target: GpuTarget) -> tuple[bool, VulkanView]:
        self.asked.append(f"verify:{target.constraint.method}")
        if target.constraint.method in self.verifies:
            kept = [v for v in self.visible if (v.vendor_id, v.device_id) ==
                    (target.constraint.vendor_id, target.constraint.device_id)]
            return True, VulkanView(self.loader_version, tuple(kept))
        return False, VulkanView(self.loader_version, tuple(self.visible))

    def calibrate(self, target: GpuTarget) -> CalibrationOutcome:
        self.asked.append("calibrate")
        self.calibrated.append(target)
        return self.outcome or CalibrationOutcome(measurement(),
                                                  measured_at="2026-01-02T03:04:05+00:00")


def settings_at(path: Path, env: dict[str, str] | None = None, raw: dict | None = None):
    """(store, settings) for a settings file at `path`, optionally written with `raw` first."""
    if raw is not None:
        import json

        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(raw), encoding="utf-8")
    store = SettingsStore(path, env or {"HOME": str(path.parent)})
    return store, store.load()
