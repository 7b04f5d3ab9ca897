"""The Intel PCI-family table: every family of the reference, its examples, unknown ids."""

from __future__ import annotations

import pytest

from engine.device.intel_policy import IntelVerdict, classify_intel, is_restricted, pci_family

OLD = [0x01, 0x04, 0x0A, 0x0C, 0x0D, 0x0F, 0x16, 0x22, 0x19, 0x31, 0x3E, 0x5A, 0x59, 0x87, 0x9B,
       0x8A, 0x45, 0x4E, 0x98]
XE_LP = [0x46, 0x4C, 0x49, 0x9A, 0xA7]
ALLOWED = {0x4F: "Xe-HPG", 0x56: "Xe-HPG", 0x7D: "Xe-LPG", 0xB6: "Xe-LPG", 0x64: "Xe2-LPG",
           0xE2: "Xe2-HPG", 0xB0: "Xe3-LPG", 0xFD: "Xe3-LPG XS"}


@pytest.mark.parametrize("prefix", OLD)
def test_old_families_stay_on_the_cpu(prefix):
    for low in (0x00, 0x5A, 0xFF):
        family = classify_intel((prefix << 8) | low)
        assert family.verdict is IntelVerdict.CPU and "pre-Xe" in family.architecture


@pytest.mark.parametrize("prefix", XE_LP)
def test_xe_lp_stays_on_the_cpu(prefix):
    family = classify_intel((prefix << 8) | 0x12)
    assert family.verdict is IntelVerdict.CPU and family.architecture == "Xe-LP"


@pytest.mark.parametrize("prefix, architecture", sorted(ALLOWED.items()))
def test_newer_families_are_calibrated(prefix, architecture):
    family = classify_intel((prefix << 8) | 0x34)
    assert family.verdict is IntelVerdict.CALIBRATE and family.architecture == architecture


@pytest.mark.parametrize("device_id", [0x4680, 0xA780, 0x9A49])
def test_reference_examples_on_the_cpu(device_id):
    assert is_restricted(0x8086, device_id)


@pytest.mark.parametrize("device_id", [0x7D51, 0x7D55, 0x56A0, 0x64A0, 0xE20B, 0xB080])
def test_reference_examples_calibrated(device_id):
    assert not is_restricted(0x8086, device_id)


def test_unknown_intel_family_is_conservatively_cpu():
    assert pci_family(0x1234) == 0x1200
    assert classify_intel(0x1234).verdict is IntelVerdict.CPU
    assert is_restricted(0x8086, 0x1234)


def test_other_vendors_are_never_classified():
    # The same device ids under another vendor mean nothing to the Intel table.
    assert not is_restricted(0x10DE, 0x4680)
    assert not is_restricted(0x1002, 0x0102)


def test_every_family_is_listed_exactly_once():
    from engine.device.intel_policy import FAMILIES

    listed = OLD + XE_LP + list(ALLOWED)
    assert len(listed) == len(set(listed)) == len(FAMILIES)
