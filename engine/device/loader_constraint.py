"""Limits the Vulkan loader to one physical device for a while, and checks that it worked.

Dawn picks its own Vulkan adapter; ORT's EP device does not bind one. On a machine with a
restricted Intel GPU next to an allowed one, the only process-local way to keep Dawn off the
Intel GPU is to hide it from the loader while Dawn creates its instance. The variables are
process-wide, so they are set only around WebGPU session creation (under the WebGPU lock) and
put back afterwards, also when creation fails."""

from __future__ import annotations

import os
from collections.abc import Iterator, MutableMapping
from contextlib import contextmanager

from engine.device.types import ConstraintMethod, LoaderConstraint, VulkanDevice
from engine.device.vulkan_probe import VulkanView

# The loader learned these filters in 1.4.326; older loaders ignore them silently, which is
# why every constraint is verified by enumerating again.
LOADER_FILTER_MIN_VERSION = (1, 4, 326)
LOADER_VENDOR_FILTER = "VK_LOADER_VENDOR_ID_FILTER"
LOADER_DEVICE_FILTER = "VK_LOADER_DEVICE_ID_FILTER"
MESA_DEVICE_SELECT = "MESA_VK_DEVICE_SELECT"
# Mesa's layer is skipped when this is set; a constraint through it must unset it.
MESA_DEVICE_SELECT_DISABLE = "NODEVICE_SELECT"

CONSTRAINT_VARIABLES = (LOADER_VENDOR_FILTER, LOADER_DEVICE_FILTER, MESA_DEVICE_SELECT,
                        MESA_DEVICE_SELECT_DISABLE)


def _version_tuple(text: str | None) -> tuple[int, ...]:
    try:
        return tuple(int(part) for part in (text or "").split("."))
    except ValueError:
        return ()


def constraint_methods(loader_version: str | None) -> list[ConstraintMethod]:
    """The methods worth trying on this loader, best first."""
    methods = []
    if _version_tuple(loader_version) >= LOADER_FILTER_MIN_VERSION:
        methods.append(ConstraintMethod.LOADER_FILTER)
    methods.append(ConstraintMethod.MESA_DEVICE_SELECT)
    return methods


def build_constraint(method: ConstraintMethod, device: VulkanDevice) -> LoaderConstraint:
    if method is ConstraintMethod.LOADER_FILTER:
        env = ((LOADER_DEVICE_FILTER, f"0x{device.device_id:x}"),
               (LOADER_VENDOR_FILTER, f"0x{device.vendor_id:x}"))
    else:
        # The trailing "!" makes the layer hide every other device instead of only
        # reordering them.
        env = ((MESA_DEVICE_SELECT, f"{device.vendor_id:04x}:{device.device_id:04x}!"),)
    return LoaderConstraint(method=method.value, vendor_id=device.vendor_id,
                            device_id=device.device_id, env=env)


@contextmanager
def applied(constraint: LoaderConstraint | None,
            environ: MutableMapping[str, str] | None = None) -> Iterator[None]:
    """Set the constraint's variables for the duration of the block, then restore exactly the
    previous values (or their absence)."""
    if constraint is None:
        yield
        return
    env = os.environ if environ is None else environ
    saved = {name: env.get(name) for name in CONSTRAINT_VARIABLES}
    try:
        if constraint.method == ConstraintMethod.MESA_DEVICE_SELECT.value:
            env.pop(MESA_DEVICE_SELECT_DISABLE, None)
        for name, value in constraint.env:
            env[name] = value
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                env.pop(name, None)
            else:
                env[name] = value


def only_target_visible(view: VulkanView, constraint: LoaderConstraint) -> bool:
    return (view.problem is None and len(view.devices) == 1
            and view.devices[0].vendor_id == constraint.vendor_id
            and view.devices[0].device_id == constraint.device_id)


def verify(constraint: LoaderConstraint, probe) -> tuple[bool, VulkanView]:
    """Apply the constraint, enumerate again, restore; True when only the target was left."""
    with applied(constraint):
        view = probe.enumerate()
    return only_target_visible(view, constraint), view
