"""Loader constraints: which method on which loader, their variables, and restoring them."""

from __future__ import annotations

import pytest

from engine.device.loader_constraint import (
    applied,
    build_constraint,
    constraint_methods,
    only_target_visible,
    verify,
)
from engine.device.types import ConstraintMethod, VulkanDevice
from engine.device.vulkan_probe import VulkanProbe, VulkanView

LLVMPIPE = VulkanDevice(0x10005, 0x0, "llvmpipe", "software")
RTX = VulkanDevice(0x10DE, 0x2489, "RTX 3060 Ti", "discrete")


@pytest.mark.parametrize("version, methods", [
    ("1.3.239", ["mesa_device_select"]),
    ("1.4.325", ["mesa_device_select"]),
    ("1.4.326", ["loader_filter", "mesa_device_select"]),
    ("1.5.0", ["loader_filter", "mesa_device_select"]),
    (None, ["mesa_device_select"]),
])
def test_methods_by_loader_version(version, methods):
    assert [m.value for m in constraint_methods(version)] == methods


def test_variables_of_each_method():
    select = build_constraint(ConstraintMethod.MESA_DEVICE_SELECT, LLVMPIPE)
    assert dict(select.env) == {"MESA_VK_DEVICE_SELECT": "10005:0000!"}
    loader = build_constraint(ConstraintMethod.LOADER_FILTER, RTX)
    assert dict(loader.env) == {"VK_LOADER_VENDOR_ID_FILTER": "0x10de",
                                "VK_LOADER_DEVICE_ID_FILTER": "0x2489"}


def test_applied_restores_previous_values_and_absences_even_on_error():
    env = {"MESA_VK_DEVICE_SELECT": "1002:73bf", "NODEVICE_SELECT": "1", "OTHER": "x"}
    before = dict(env)
    constraint = build_constraint(ConstraintMethod.MESA_DEVICE_SELECT, LLVMPIPE)
    with pytest.raises(RuntimeError):
        with applied(constraint, env):
            assert env["MESA_VK_DEVICE_SELECT"] == "10005:0000!"
            assert "NODEVICE_SELECT" not in env  # the layer must be on for the constraint
            raise RuntimeError("session creation failed")
    assert env == before
    env = {}
    with applied(build_constraint(ConstraintMethod.LOADER_FILTER, RTX), env):
        assert set(env) == {"VK_LOADER_VENDOR_ID_FILTER", "VK_LOADER_DEVICE_ID_FILTER"}
    assert env == {}


def test_only_the_target_may_remain():
    constraint = build_constraint(ConstraintMethod.MESA_DEVICE_SELECT, RTX)
    assert only_target_visible(VulkanView("1.3", (RTX,)), constraint)
    assert not only_target_visible(VulkanView("1.3", (RTX, LLVMPIPE)), constraint)
    assert not only_target_visible(VulkanView("1.3", (LLVMPIPE,)), constraint)
    assert not only_target_visible(VulkanView("1.3", (), "no driver"), constraint)


def test_verify_enumerates_under_the_constraint_and_restores(monkeypatch):
    import os

    monkeypatch.delenv("MESA_VK_DEVICE_SELECT", raising=False)
    seen = []

    class Probe:
        def enumerate(self):
            seen.append(os.environ.get("MESA_VK_DEVICE_SELECT"))
            return VulkanView("1.3.239", (RTX,))

    ok, view = verify(build_constraint(ConstraintMethod.MESA_DEVICE_SELECT, RTX), Probe())
    assert ok and seen == ["10de:2489!"] and "MESA_VK_DEVICE_SELECT" not in os.environ


def test_probe_without_a_loader_reports_why():
    view = VulkanProbe("libvulkan-that-does-not-exist.so.9").enumerate()
    assert view.devices == () and "cannot be loaded" in view.problem
