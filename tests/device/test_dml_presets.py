"""Preset tables: DML metacommands per vendor and model, model placement per backend, and the
routing of formula batches between the GPU and the CPU."""

from __future__ import annotations

import pytest

from engine.device.dml_presets import metacommands_enabled, provider_options
from engine.runtime.sessions import GPU_FORMULA_BATCH, formula_batches, runs_on_gpu

INTEL, AMD, NVIDIA, QUALCOMM, MICROSOFT = 0x8086, 0x1002, 0x10DE, 0x5143, 0x1414
ROLES = ("layout", "formula", "rec")

# metacommands on (True) / off (False) / ORT default (None), per vendor, in ROLES order.
METACOMMANDS = {
    INTEL: (False, True, False),
    AMD: (True, True, True),
    NVIDIA: (True, True, False),
    QUALCOMM: (None, None, None),
    MICROSOFT: (None, None, None),
}


@pytest.mark.parametrize("vendor", list(METACOMMANDS))
def test_metacommands_per_vendor_and_model(vendor):
    for role, expected in zip(ROLES, METACOMMANDS[vendor]):
        assert metacommands_enabled(vendor, role) is expected, (hex(vendor), role)
        options = provider_options(vendor, role)
        if expected is None:
            assert options == {}, (hex(vendor), role)  # ORT's own default, nothing passed
        else:
            assert options == {"disable_metacommands": "false" if expected else "true"}


def test_roles_that_never_reach_directml_have_no_metacommand_entry():
    for vendor in (INTEL, AMD, NVIDIA):
        for role in ("det", "cls", "table", "orientation"):
            assert provider_options(vendor, role) == {}


# role -> (on the GPU with WebGPU, on the GPU with DirectML); DESIGN §5.
PLACEMENT = {
    "layout": (True, True),
    "rec": (True, True),
    "formula": (True, True),
    "det": (True, False),
    "table": (False, False),
    "cls": (False, False),
    "orientation": (False, False),
}


@pytest.mark.parametrize("role", list(PLACEMENT))
def test_model_placement_per_backend(role):
    webgpu, dml = PLACEMENT[role]
    assert runs_on_gpu(role, "webgpu") is webgpu
    assert runs_on_gpu(role, "dml") is dml
    assert runs_on_gpu(role, "cpu") is False


# crops -> [(size, on the GPU)] for a GPU session with the default batch of 8.
GPU_ROUTES = {
    **{n: [(n, False)] for n in range(1, 8)},
    8: [(8, True)],
    **{n: [(8, True), (n - 8, False)] for n in range(9, 16)},
    16: [(8, True), (8, True)],
}


@pytest.mark.parametrize("count", range(1, 17))
def test_formula_batch_routing_on_a_gpu_session(count):
    runs = formula_batches(count, GPU_FORMULA_BATCH, on_gpu=True)
    assert [(stop - start, gpu) for start, stop, gpu in runs] == GPU_ROUTES[count]
    assert runs[0][0] == 0 and runs[-1][1] == count  # every crop once, in order, no padding
    assert all(a[1] == b[0] for a, b in zip(runs, runs[1:]))


@pytest.mark.parametrize("count", range(1, 17))
def test_formula_batches_on_a_cpu_session_or_with_a_small_batch_never_use_the_gpu(count):
    assert not any(gpu for _, _, gpu in formula_batches(count, 8, on_gpu=False))
    runs = formula_batches(count, 4, on_gpu=True)
    assert not any(gpu for _, _, gpu in runs)
    assert [stop - start for start, stop, _ in runs] == [4] * (count // 4) + (
        [count % 4] if count % 4 else [])


def test_a_larger_custom_batch_still_gives_the_gpu_exactly_eight():
    runs = formula_batches(20, 16, on_gpu=True)
    assert [(stop - start, gpu) for start, stop, gpu in runs] == [
        (8, True), (8, True), (4, False)]
