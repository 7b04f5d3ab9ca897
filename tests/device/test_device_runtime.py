"""The session factory: per-role presets, GPU sessions, CPU fallback with fresh options."""

from __future__ import annotations

import numpy as np
import onnxruntime as ort
import pytest
from device_fakes import NVIDIA, FakeFacts, settings_at

from engine.device.selector import DeviceSelector, ProcessDeviceState
from engine.runtime.gpu import WEBGPU_LOCK, GpuSessionError
from engine.runtime.sessions import GPU_ROLES, RuntimeOptions, SessionFactory, runs_on_gpu


class FakeBackend:
    """Creates a plain CPU session in place of a WebGPU one, or fails as told."""

    def __init__(self, fail: str | None = None) -> None:
        self.fail = fail
        self.options_seen: list[ort.SessionOptions] = []

    def create_session(self, model_path, options, target):
        self.options_seen.append(options)
        if self.fail:
            raise GpuSessionError(self.fail, "Failed to get a WebGPU adapter: none")
        return ort.InferenceSession(str(model_path), sess_options=options,
                                    providers=["CPUExecutionProvider"])


def gpu_selector(tmp_path, backend) -> DeviceSelector:
    store, settings = settings_at(tmp_path / "settings.json",
                                  raw={"model": {"onnx_device": "gpu"}})
    return DeviceSelector(settings, store=store, facts=FakeFacts(gpus=[NVIDIA]),
                          backend=backend, data_folder=tmp_path / "data",
                          process_state=ProcessDeviceState(), platform="linux-x86_64")


def test_presets_follow_the_design():
    for role in ("layout", "rec", "formula", "det"):
        assert runs_on_gpu(role, "webgpu")
    for role in ("cls", "table", "orientation", "unknown-role"):
        assert not runs_on_gpu(role, "webgpu") and not runs_on_gpu(role, "dml")
    assert not runs_on_gpu("det", "dml") and runs_on_gpu("rec", "dml")
    assert GPU_ROLES["dml"] < GPU_ROLES["webgpu"]


def test_without_a_selector_everything_is_cpu(model_path):
    factory = SessionFactory(threads=1)
    session = factory.session("rec", model_path)
    assert session.info.device == "cpu" and session.info.requested_device == "cpu"
    assert factory.session("rec", model_path) is session  # created once, reused


def test_gpu_roles_get_gpu_sessions_behind_the_webgpu_lock(tmp_path, model_path):
    backend = FakeBackend()
    factory = SessionFactory(threads=1, device=gpu_selector(tmp_path, backend))
    rec = factory.session("rec", model_path)
    assert (rec.info.device, rec.info.backend, rec.info.requested_device) == (
        "gpu", "webgpu", "gpu")
    assert rec._lock is WEBGPU_LOCK
    assert rec.run(np.array([[-1, 2, -3, 4]], np.float32))[0].tolist() == [[0, 2, 0, 4]]
    cls = factory.session("cls", model_path)
    assert cls.info.device == "cpu" and cls._lock is None
    assert len(backend.options_seen) == 1  # cls never asked the GPU backend
    tail = factory.session("rec", model_path, cpu_only=True)
    assert tail is not rec and tail.info.device == "cpu" and len(backend.options_seen) == 1


def test_gpu_session_failure_gives_a_cpu_session_and_a_reason(tmp_path, model_path):
    backend = FakeBackend(fail="no_adapter")
    selector = gpu_selector(tmp_path, backend)
    factory = SessionFactory(options=RuntimeOptions(threads=1, memory_arena=False),
                             device=selector)
    det = factory.session("det", model_path)
    assert det.info.device == "cpu" and det.info.requested_device == "gpu"
    assert "no usable adapter" in det.info.fallback_reason
    assert det.info.providers == ("CPUExecutionProvider",)
    # The options the GPU attempt got are not the ones the CPU session was built with.
    assert det._session.get_session_options() is not backend.options_seen[0]
    assert det._session.get_session_options().enable_cpu_mem_arena is False
    decision = selector.decided()
    assert (decision.device, decision.decided_by, decision.reason_code) == (
        "cpu", "fallback", "no_adapter")
    status = selector.status()
    assert status.effective == "cpu" and "adapter" in status.fallback_reason
    # The engine is on the CPU now: later GPU roles do not try again.
    rec = factory.session("rec", model_path)
    assert rec.info.requested_device == "cpu" and len(backend.options_seen) == 1


def test_failure_after_a_working_gpu_session_only_moves_that_role(tmp_path, model_path):
    backend = FakeBackend()
    selector = gpu_selector(tmp_path, backend)
    factory = SessionFactory(threads=1, device=selector)
    factory.session("det", model_path)
    backend.fail = "session_failed"
    layout = factory.session("layout", model_path)
    assert layout.info.device == "cpu" and layout.info.fallback_reason
    decision = selector.decided()
    assert decision.device == "gpu" and any("layout" in n for n in decision.notes)
