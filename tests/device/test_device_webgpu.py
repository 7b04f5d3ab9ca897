"""The WebGPU backend's failure reasons, without a GPU: missing plugin, missing Vulkan loader."""

from __future__ import annotations

import sys

import pytest

from engine.device import webgpu
from engine.device.types import GpuDescription, GpuTarget


@pytest.fixture
def fresh_registration(monkeypatch):
    # Registration is once per process by design; each test here gets its own "process".
    monkeypatch.setattr(webgpu, "_REGISTRATION", webgpu._Registration())


def test_missing_plugin_package_is_the_reason(fresh_registration, monkeypatch):
    monkeypatch.setitem(sys.modules, "onnxruntime_ep_webgpu", None)  # import raises
    monkeypatch.setattr(webgpu.ctypes, "CDLL", lambda name: object())
    inventory = webgpu.WebGpuBackend().inventory()
    assert inventory.problem_code == "backend_unavailable"
    assert "onnxruntime-ep-webgpu" in inventory.problem


def test_missing_vulkan_loader_is_the_reason(fresh_registration, monkeypatch):
    monkeypatch.setattr(webgpu, "VULKAN_LIBRARY", "libvulkan-not-installed.so.1")
    inventory = webgpu.WebGpuBackend().inventory()
    assert inventory.problem_code == "vulkan_missing"
    # Registration is not attempted twice in one process.
    assert webgpu.register_plugin()[0] == "vulkan_missing"


def test_restricted_intel_is_refused_by_the_session_factory_too():
    target = GpuTarget(GpuDescription("webgpu", 0x8086, 0x9A49, card_index=0))
    with pytest.raises(webgpu.GpuSessionError) as error:
        webgpu.WebGpuBackend().create_session("model.onnx", None, target)
    assert error.value.code == "webgpu_architecture_policy"


def test_short_error_keeps_the_sentence_a_person_can_use():
    text = ("[ONNXRuntimeError] : 11 : EP_FAIL : /src/ep_plugin.cc:393 virtual ... "
            "webgpu_context.cc:136 ... Failed to get a WebGPU adapter: No supported adapters")
    assert webgpu._short_error(text) == "Failed to get a WebGPU adapter: No supported adapters"
