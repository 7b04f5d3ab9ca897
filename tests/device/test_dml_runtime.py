"""DirectML sessions through the session factory: presets, options, per-session locks, the
formula tail session, and GPU loss between the decision and the session."""

from __future__ import annotations

import json
import threading

import numpy as np
import pytest
from device_fakes import settings_at
from dml_fakes import INTEL_IGPU, NVIDIA_DGPU, FakeDmlFacts, FakeDxgi, FakeOrtDml, runtime_of

from engine.device.dml_backend import DmlBackend
from engine.device.selector import DeviceSelector, ProcessDeviceState
from engine.runtime.gpu import WEBGPU_LOCK
from engine.runtime.sessions import FormulaSessions, SessionFactory


def dml_factory(tmp_path, seam: FakeOrtDml, adapter=NVIDIA_DGPU, configured="gpu"):
    store, settings = settings_at(tmp_path / "settings.json",
                                  raw={"model": {"onnx_device": configured}})
    facts = FakeDmlFacts(FakeDxgi([adapter], [adapter]), runtime_of(adapter))
    selector = DeviceSelector(settings, store=store, facts=facts, backend=DmlBackend(seam),
                              data_folder=tmp_path / "data", process_state=ProcessDeviceState(),
                              platform="win32-amd64")
    return SessionFactory(threads=1, device=selector), selector


def test_dml_sessions_get_the_role_presets_and_the_ep_requirements(tmp_path, model_path):
    seam = FakeOrtDml(runtime_of(NVIDIA_DGPU))
    factory, _ = dml_factory(tmp_path, seam)
    sessions = {role: factory.session(role, model_path)
                for role in ("layout", "formula", "rec", "det", "cls")}
    for role in ("layout", "formula", "rec"):
        info = sessions[role].info
        assert (info.device, info.backend, info.providers[0]) == (
            "gpu", "dml", "DmlExecutionProvider"), role
    assert sessions["det"].info.device == "cpu" and sessions["cls"].info.device == "cpu"
    # NVIDIA: metacommands on for layout and formula only.
    assert [c["ep_options"] for c in seam.created] == [
        {"disable_metacommands": "false"}, {"disable_metacommands": "false"},
        {"disable_metacommands": "true"}]
    assert all(c["luid"] == NVIDIA_DGPU.luid for c in seam.created)
    assert all(c["mem_pattern"] is False and c["sequential"] for c in seam.created)
    # The CPU sessions keep the factory's own options (memory patterns on).
    assert sessions["det"]._session.get_session_options().enable_mem_pattern is True


def test_each_dml_session_has_its_own_lock_and_cpu_sessions_none(tmp_path, model_path):
    factory, _ = dml_factory(tmp_path, FakeOrtDml(runtime_of(NVIDIA_DGPU)))
    rec, layout = factory.session("rec", model_path), factory.session("layout", model_path)
    det = factory.session("det", model_path)
    assert rec._lock is not None and layout._lock is not None
    assert rec._lock is not layout._lock and WEBGPU_LOCK not in (rec._lock, layout._lock)
    assert det._lock is None


def test_runs_of_one_dml_session_never_overlap(tmp_path, model_path):
    seam = FakeOrtDml(runtime_of(NVIDIA_DGPU), run_s=0.01)
    factory, _ = dml_factory(tmp_path, seam)
    rec = factory.session("rec", model_path)
    batch = np.array([[-1, 2, -3, 4]], np.float32)
    results = []

    def work():
        for _ in range(3):
            results.append(rec.run(batch)[0].tolist())

    threads = [threading.Thread(target=work) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [[[0, 2, 0, 4]]] * 12
    assert seam.sessions[0].most_at_once == 1


def test_intel_gets_only_formula_metacommands(tmp_path, model_path):
    seam = FakeOrtDml(runtime_of(INTEL_IGPU))
    factory, _ = dml_factory(tmp_path, seam, adapter=INTEL_IGPU)
    for role in ("layout", "formula", "rec"):
        factory.session(role, model_path)
    assert [c["ep_options"]["disable_metacommands"] for c in seam.created] == [
        "true", "false", "true"]


def test_formula_tail_session_is_created_on_first_need_and_reused(tmp_path, model_path):
    factory, _ = dml_factory(tmp_path, FakeOrtDml(runtime_of(NVIDIA_DGPU)))
    formula = FormulaSessions(factory, model_path)
    full = formula.plan(16)
    assert [(a, b, s.info.device) for a, b, s in full] == [(0, 8, "gpu"), (8, 16, "gpu")]
    assert len(factory.created()) == 1  # no CPU session yet
    plan = formula.plan(12)
    assert [(a, b, s.info.device) for a, b, s in plan] == [(0, 8, "gpu"), (8, 12, "cpu")]
    tail = plan[1][2]
    assert formula.plan(3)[0][2] is tail and tail._lock is None
    assert [(i.role, i.device) for i in factory.created()] == [
        ("formula", "gpu"), ("formula", "cpu")]


def test_a_formula_session_that_fell_back_creates_no_tail(tmp_path, model_path):
    seam = FakeOrtDml(runtime_of(NVIDIA_DGPU), fail="EP_FAIL: out of video memory")
    factory, selector = dml_factory(tmp_path, seam)
    plan = FormulaSessions(factory, model_path).plan(12)
    main = plan[0][2]
    assert main.info.device == "cpu" and "out of video memory" in main.info.fallback_reason
    assert all(session is main for _, _, session in plan)
    assert len(factory.created()) == 1
    assert selector.decided().reason_code == "session_failed"


def test_a_small_custom_formula_batch_never_creates_a_gpu_session(tmp_path, model_path):
    seam = FakeOrtDml(runtime_of(NVIDIA_DGPU))
    factory, _ = dml_factory(tmp_path, seam)
    plan = FormulaSessions(factory, model_path, batch_size=4).plan(10)
    assert [(a, b) for a, b, _ in plan] == [(0, 4), (4, 8), (8, 10)]
    assert {s.info.device for _, _, s in plan} == {"cpu"} and seam.created == []


def test_gpu_gone_between_decision_and_session_is_cpu_and_keeps_the_setting(tmp_path,
                                                                              model_path):
    # The decision saw the adapter; by the time the first session is made ORT no longer
    # lists it (unplugged, driver reset).
    seam = FakeOrtDml(runtime_of())
    factory, selector = dml_factory(tmp_path, seam)
    rec = factory.session("rec", model_path)
    assert rec.info.device == "cpu" and rec.info.requested_device == "gpu"
    assert "no longer listed" in rec.info.fallback_reason
    decision = selector.decided()
    assert (decision.device, decision.decided_by, decision.reason_code) == (
        "cpu", "fallback", "no_gpu_found")
    raw = json.loads((tmp_path / "settings.json").read_text())
    assert raw["model"]["onnx_device"] == "gpu"
    assert selector.status().effective == "cpu"
