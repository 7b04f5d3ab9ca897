"""Which Intel GPU generations may run the models on WebGPU: an explicit PCI-family table."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

INTEL_VENDOR_ID = 0x8086


class IntelVerdict(StrEnum):
    CPU = "cpu"
    """Measured slower than the CPU, or content errors seen: never used for these models."""
    CALIBRATE = "calibrate"
    """Allowed: `gpu` uses it directly, `auto` measures it."""


@dataclass(frozen=True)
class IntelFamily:
    architecture: str
    verdict: IntelVerdict


_OLD = IntelFamily("pre-Xe (Gen9/Gen11 and older)", IntelVerdict.CPU)
_XE_LP = IntelFamily("Xe-LP", IntelVerdict.CPU)

# family = device_id & 0xff00, as Dawn's GPU table groups Intel devices. This is a product
# policy from measurements, not a claim that older Intel GPUs cannot run WebGPU; names and
# numeric order are never used to guess, so a family missing here stays on the CPU until it is
# added after measuring.
FAMILIES: dict[int, IntelFamily] = {
    **{prefix << 8: _OLD for prefix in (0x01, 0x04, 0x0A, 0x0C, 0x0D, 0x0F, 0x16, 0x22, 0x19,
                                        0x31, 0x3E, 0x5A, 0x59, 0x87, 0x9B, 0x8A, 0x45, 0x4E,
                                        0x98)},
    # Xe-LP includes the DG1 discrete card.
    **{prefix << 8: _XE_LP for prefix in (0x46, 0x4C, 0x49, 0x9A, 0xA7)},
    0x4F00: IntelFamily("Xe-HPG", IntelVerdict.CALIBRATE),
    0x5600: IntelFamily("Xe-HPG", IntelVerdict.CALIBRATE),
    0x7D00: IntelFamily("Xe-LPG", IntelVerdict.CALIBRATE),
    0xB600: IntelFamily("Xe-LPG", IntelVerdict.CALIBRATE),
    0x6400: IntelFamily("Xe2-LPG", IntelVerdict.CALIBRATE),
    0xE200: IntelFamily("Xe2-HPG", IntelVerdict.CALIBRATE),
    0xB000: IntelFamily("Xe3-LPG", IntelVerdict.CALIBRATE),
    0xFD00: IntelFamily("Xe3-LPG XS", IntelVerdict.CALIBRATE),
}

UNKNOWN_FAMILY = IntelFamily("unknown Intel family", IntelVerdict.CPU)


def pci_family(device_id: int) -> int:
    return device_id & 0xFF00


def classify_intel(device_id: int) -> IntelFamily:
    """The architecture and verdict of an Intel (vendor 0x8086) PCI device id."""
    return FAMILIES.get(pci_family(device_id), UNKNOWN_FAMILY)


def is_restricted(vendor_id: int, device_id: int) -> bool:
    """True for Intel devices the policy keeps off the GPU path; other vendors are never."""
    return vendor_id == INTEL_VENDOR_ID and classify_intel(device_id).verdict is IntelVerdict.CPU


def describe_restriction(device_id: int) -> str:
    family = classify_intel(device_id)
    return (f"Intel {INTEL_VENDOR_ID:04x}:{device_id:04x} is {family.architecture} "
            f"(PCI family {pci_family(device_id):04x})")
