"""The device status in plain words: what is configured, what runs, and why."""

from __future__ import annotations

import re
from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

translate = QCoreApplication.translate  # lupdate reads translate("Context", "text")


def device_name(device: str | None) -> str:
    return {"cpu": translate("DeviceText", "CPU"), "gpu": translate("DeviceText", "GPU"),
            "auto": translate("DeviceText", "Automatic")}.get(
        device or "", device or "")


def backend_name(backend: str | None) -> str:
    return {"cpu": translate("DeviceText", "CPU"),
            "webgpu": translate("DeviceText", "WebGPU (Vulkan)"),
            "dml": translate("DeviceText", "DirectML")}.get(
        backend or "", backend or "")


def origin_text(origin: str) -> str:
    return {
        "default": translate("DeviceText", "the default"),
        "file": translate("DeviceText", "the settings file"),
        "env": translate("DeviceText", "the environment variable PAPERLENS_MODEL_ONNX_DEVICE"),
    }.get(origin, origin)


def configured_text(status: Any) -> str:
    return translate("DeviceText", "{0}, from {1}").format(device_name(status.configured),
                                       origin_text(status.configured_origin))


def effective_text(status: Any) -> str:
    if not status.effective:
        return translate("DeviceText", "Not decided yet: the next document decides")
    text = device_name(status.effective)
    details = [d for d in (status.adapter, backend_name(status.backend)
                           if status.effective == "gpu" else None) if d]
    return f"{text} ({', '.join(details)})" if details else text


def _measurement(status: Any) -> str:
    parts = []
    if status.ratio is not None:
        parts.append(translate("DeviceText", "the GPU took {0:.2f}× the CPU's time").format(
            status.ratio))
    if status.measured_at:
        parts.append(translate("DeviceText", "measured on {0}").format(status.measured_at[:10]))
    return "; ".join(parts)


def decided_text(status: Any) -> str:
    """How the effective device was chosen, in one sentence."""
    how = status.decided_by
    if how == "not yet":
        if status.configured == "auto":
            return translate("DeviceText", "Automatic: the first document measures the GPU "
                             "against the CPU and keeps the faster one.")
        return translate("DeviceText",
                         "Your choice applies from the first page of the next document.")
    if how == "explicit":
        return translate("DeviceText", "You chose it in the settings.")
    measurement = _measurement(status)
    if how == "saved":
        text = translate("DeviceText", "A saved measurement chose it.")
        return f"{text} ({measurement})" if measurement else text
    if how == "measured":
        text = translate("DeviceText", "Measured in this session.")
        return f"{text} ({measurement})" if measurement else text
    if how == "fallback":
        return translate("DeviceText", "Running on the CPU instead of the GPU.")
    if how == "rule":
        return translate("DeviceText", "A discrete GPU, used without measuring.")
    return how


# Reasons recorded as short codes, in words a person can act on.
_REASONS = {
    "webgpu_architecture_policy": QT_TRANSLATE_NOOP(
        "DeviceText", "This Intel graphics generation runs these models slower than the CPU, "
        "so Paperlens uses the CPU."),
    "no_gpu": QT_TRANSLATE_NOOP(
        "DeviceText", "No usable GPU was found."),
    "no_gpu_found": QT_TRANSLATE_NOOP(
        "DeviceText", "No usable GPU was found."),
    "gpu_unavailable": QT_TRANSLATE_NOOP(
        "DeviceText", "The GPU could not be used."),
    "backend_unavailable": QT_TRANSLATE_NOOP(
        "DeviceText", "This system has no GPU backend Paperlens can use."),
    "unsupported_platform": QT_TRANSLATE_NOOP(
        "DeviceText", "GPUs are used on Windows (DirectML) and Linux x86-64 (WebGPU) only."),
    "calibration_failed": QT_TRANSLATE_NOOP(
        "DeviceText", "Measuring the GPU failed; the CPU is used this time."),
    "calibration_timeout": QT_TRANSLATE_NOOP(
        "DeviceText", "Measuring the GPU took too long; the CPU is used this time."),
    "calibration_invalid": QT_TRANSLATE_NOOP(
        "DeviceText", "The GPU measurement was too noisy to trust; the CPU is used this time "
        "and the next run measures again."),
    "calibration_mismatch": QT_TRANSLATE_NOOP(
        "DeviceText", "The GPU read the test images differently from the CPU, so the CPU is "
        "used."),
    "gpu_slower": QT_TRANSLATE_NOOP(
        "DeviceText", "The GPU was not at least 20% faster than the CPU."),
    "session_failed": QT_TRANSLATE_NOOP(
        "DeviceText", "The GPU could not run the models; the CPU took over."),
    "vulkan_missing": QT_TRANSLATE_NOOP(
        "DeviceText", "The Vulkan driver the GPU backend needs is not installed."),
    "vulkan_probe_failed": QT_TRANSLATE_NOOP(
        "DeviceText", "The GPUs could not be listed through Vulkan."),
    "no_allowed_gpu_visible": QT_TRANSLATE_NOOP(
        "DeviceText", "No GPU that Paperlens may use is visible to the GPU backend."),
    "no_adapter": QT_TRANSLATE_NOOP(
        "DeviceText", "The GPU backend offered no usable adapter."),
    "selection_busy": QT_TRANSLATE_NOOP(
        "DeviceText", "Another Paperlens process was measuring the GPU; the CPU is used this "
        "time."),
    "calibration_not_retried": QT_TRANSLATE_NOOP(
        "DeviceText", "Measuring the GPU failed earlier in this session and is not retried "
        "until Paperlens starts again."),
    "device_filter_unverified": QT_TRANSLATE_NOOP(
        "DeviceText", "The GPU could not be selected reliably among several; the CPU is "
        "used."),
}
_CODE = re.compile(r"^[a-z][a-z0-9_]*$")


def reason_text(status: Any) -> str:
    """Why the CPU is used instead of a GPU, in plain words ('' when it is not a fallback).

    A known reason code gets this app's (translated) words; otherwise the engine's sentence,
    and as a last resort the code itself made readable."""
    text = getattr(status, "fallback_reason", None) or ""
    code = getattr(status, "reason_code", None) or ""
    if not text and status.decided_by != "fallback":
        return ""
    if code in _REASONS:
        return translate("DeviceText", _REASONS[code])
    if text:
        return text
    if _CODE.match(code):
        return translate("DeviceText", "Reason recorded: {0}").format(code.replace("_", " "))
    return ""


def details_text(status: Any) -> str:
    """The engine's own account of the decision and any side notes, one per line."""
    lines = []
    reason = getattr(status, "reason", None)
    if reason and reason != getattr(status, "fallback_reason", None):
        lines.append(reason)
    lines.extend(getattr(status, "notes", ()) or ())
    last = getattr(status, "last_decision", None)
    if not status.effective and isinstance(last, dict) and last.get("effective"):
        used = device_name(str(last["effective"]))
        if last.get("adapter"):
            used += f" ({last['adapter']})"
        lines.append(translate("DeviceText", "Last time Paperlens ran models on: {0}").format(used))
    return "\n".join(lines)
