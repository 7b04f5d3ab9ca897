"""DirectML session presets: DirectML metacommands on or off, per GPU vendor and model role.

Metacommands are the vendor driver's own fused kernels (convolutions, GEMMs) that DirectML uses
when a driver offers them. Whether they help depends on the driver: measured per vendor, they
made some of our models slower to start or slower overall. The table holds those outcomes;
a vendor or role it does not list keeps ONNX Runtime's default (metacommands on)."""

from __future__ import annotations

INTEL = 0x8086
AMD = 0x1002
NVIDIA = 0x10DE

METACOMMANDS: dict[int, dict[str, bool]] = {
    # Intel: only the formula model gains; layout is kept off for the first-page latency.
    INTEL: {"layout": False, "formula": True, "rec": False},
    AMD: {"layout": True, "formula": True, "rec": True},
    NVIDIA: {"layout": True, "formula": True, "rec": False},
}
"""vendor id -> role -> metacommands on. The roles are the ones engine.runtime.sessions.GPU_ROLES
sends to DirectML."""

DISABLE_METACOMMANDS = "disable_metacommands"


def metacommands_enabled(vendor_id: int, role: str) -> bool | None:
    """True or False from the table; None where ONNX Runtime's default applies."""
    return METACOMMANDS.get(vendor_id, {}).get(role)


def provider_options(vendor_id: int, role: str) -> dict[str, str]:
    """The DML EP's options for one session. The EP reads "true"/"false" (or "1"/"0");
    the option is left out entirely where the table has no entry."""
    enabled = metacommands_enabled(vendor_id, role)
    if enabled is None:
        return {}
    return {DISABLE_METACOMMANDS: "false" if enabled else "true"}
