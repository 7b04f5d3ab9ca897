"""ONNX Runtime's side of DirectML: listing DML devices by LUID, binding a session to one, the
failures a person must be told about, and two ORT distributions installed side by side."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import onnxruntime as ort
import pytest
from dml_fakes import NVIDIA_DGPU, FakeOrtDml, runtime_of

from engine.device.dml_backend import DmlBackend, DmlSessionError, OrtDml, parse_luid
from engine.runtime.install import OnnxRuntimeInstallConflict, install_conflict, \
    ort_distributions
from engine.device.types import GpuDescription, GpuTarget
from engine.runtime.gpu import GpuSessionError
from engine.errors import PaperlensError

REPO_ROOT = Path(__file__).resolve().parents[2]
ONE = lambda: {"onnxruntime": ["onnxruntime-directml"], "numpy": ["numpy"]}  # noqa: E731
TWO = lambda: {"onnxruntime": ["onnxruntime", "onnxruntime_directml"]}  # noqa: E731


def ep_device(ep_name: str, luid: int | None, vendor=0x10DE, device=0x2489, **extra):
    metadata = {"Description": "NVIDIA GeForce RTX 3060 Ti", "DxgiAdapterNumber": "1", **extra}
    if luid is not None:
        metadata["LUID"] = str(luid)
    return SimpleNamespace(ep_name=ep_name, device=SimpleNamespace(
        vendor_id=vendor, device_id=device, metadata=metadata))


class FakeOrtModule:
    """The parts of the onnxruntime module OrtDml uses."""

    __version__ = "1.23.2"

    def __init__(self, providers=("DmlExecutionProvider", "CPUExecutionProvider"),
                 devices=(), with_ep_devices=True) -> None:
        self._providers = list(providers)
        self._devices = list(devices)
        self.sessions: list[dict] = []
        if with_ep_devices:
            self.get_ep_devices = lambda: list(self._devices)

    def get_available_providers(self):
        return list(self._providers)

    def InferenceSession(self, path, sess_options=None, **kwargs):  # noqa: N802 (ORT's name)
        self.sessions.append({"path": path, "options": sess_options, **kwargs})
        return SimpleNamespace(get_providers=lambda: ["DmlExecutionProvider",
                                                      "CPUExecutionProvider"])


class RecordingOptions:
    def __init__(self) -> None:
        self.added: list = []

    def add_provider_for_devices(self, devices, options):
        self.added.append((devices, options))


def test_listing_reads_the_luid_from_orts_hardware_metadata():
    cpu = ep_device("CPUExecutionProvider", None, vendor=0x1022, device=0)
    dml = ep_device("DmlExecutionProvider", NVIDIA_DGPU.luid, Discrete="1")
    listing = OrtDml(FakeOrtModule(devices=[cpu, dml]), ONE).listing()
    assert listing.problem_code is None and len(listing.devices) == 1
    device = listing.devices[0]
    assert (device.luid, device.vendor_id, device.discrete) == (NVIDIA_DGPU.luid, 0x10DE, True)
    assert parse_luid("4294967296") == 1 << 32 and parse_luid("0x10") == 16
    assert parse_luid("") is None and parse_luid("n/a") is None


def test_plain_onnxruntime_on_windows_says_to_install_the_directml_build():
    listing = OrtDml(FakeOrtModule(providers=["CPUExecutionProvider"]), ONE).listing()
    assert listing.problem_code == "dml_unavailable"
    assert "onnxruntime-directml" in listing.problem and "uninstall" in listing.problem


def test_an_ort_too_old_to_list_devices_is_named():
    listing = OrtDml(FakeOrtModule(with_ep_devices=False), ONE).listing()
    assert listing.problem_code == "dml_unavailable" and "1.23 or later" in listing.problem


def test_two_distributions_side_by_side_are_the_reason():
    listing = OrtDml(FakeOrtModule(devices=[ep_device("DmlExecutionProvider", 7)]),
                     TWO).listing()
    assert listing.problem_code == "onnxruntime_conflict"
    assert "installed: onnxruntime, onnxruntime-directml" in listing.problem
    assert "pip uninstall -y onnxruntime onnxruntime-directml" in listing.problem


def test_distribution_names_are_normalised_and_one_is_fine():
    assert ort_distributions(TWO) == ("onnxruntime", "onnxruntime-directml")
    assert install_conflict(ONE) is None
    assert install_conflict(lambda: {}) is None
    conflict = install_conflict(TWO)
    assert isinstance(conflict, OnnxRuntimeInstallConflict) and isinstance(conflict,
                                                                            PaperlensError)
    assert conflict.distributions == ("onnxruntime", "onnxruntime-directml")
    assert str(conflict).startswith("Two ONNX Runtime packages are installed side by side")
    assert "pip uninstall -y onnxruntime onnxruntime-directml" in str(conflict)
    # This environment has exactly one ORT (the test would be wrong otherwise).
    assert len(ort_distributions()) == 1


def test_a_failing_onnxruntime_import_with_two_distributions_raises_the_typed_error():
    code = (
        "import sys, importlib.metadata as m\n"
        "sys.modules['onnxruntime'] = None\n"  # the import fails, as with mixed files
        "m.packages_distributions = lambda: {'onnxruntime': ['onnxruntime', "
        "'onnxruntime-directml']}\n"
        "try:\n"
        "    import engine.runtime.sessions\n"
        "except Exception as exc:\n"
        "    print(type(exc).__name__, '|', exc)\n")
    result = subprocess.run([sys.executable, "-c", code], cwd=REPO_ROOT, capture_output=True,
                            text=True, timeout=120)
    assert result.stdout.startswith("OnnxRuntimeInstallConflict | Two ONNX Runtime packages"), (
        result.stdout + result.stderr)


def test_the_session_is_bound_to_the_device_with_the_luid():
    other = ep_device("DmlExecutionProvider", 0x1234, vendor=0x8086, device=0x4680)
    wanted = ep_device("DmlExecutionProvider", NVIDIA_DGPU.luid)
    module = FakeOrtModule(devices=[other, wanted])
    options = RecordingOptions()
    OrtDml(module, ONE).create_session(Path("m.onnx"), options, NVIDIA_DGPU.luid,
                                       {"disable_metacommands": "true"})
    assert options.added == [([wanted], {"disable_metacommands": "true"})]
    assert module.sessions[0]["enable_fallback"] == 0
    with pytest.raises(LookupError):
        OrtDml(module, ONE).create_session(Path("m.onnx"), RecordingOptions(), 0x9999, {})


def dml_target(luid=NVIDIA_DGPU.luid) -> GpuTarget:
    return GpuTarget(GpuDescription("dml", 0x10DE, 0x2489, "NVIDIA GeForce RTX 3060 Ti",
                                    "discrete", luid=luid))


def test_session_failures_are_typed_for_the_factorys_fallback(tmp_path):
    options = ort.SessionOptions()
    with pytest.raises(DmlSessionError) as gone:
        DmlBackend(FakeOrtDml(runtime_of())).create_session("m.onnx", options, dml_target(),
                                                            role="rec")
    assert gone.value.code == "no_gpu_found" and isinstance(gone.value, GpuSessionError)
    failing = FakeOrtDml(runtime_of(NVIDIA_DGPU),
                         fail="[ONNXRuntimeError] : 1 : FAIL : C:\\a\\b.cpp(12) EP_FAIL: D3D12 "
                              "device removed")
    with pytest.raises(DmlSessionError) as failed:
        DmlBackend(failing).create_session("m.onnx", ort.SessionOptions(), dml_target(),
                                           role="rec")
    assert failed.value.code == "session_failed"
    assert str(failed.value) == "EP_FAIL: D3D12 device removed"
    webgpu_description = GpuTarget(GpuDescription("webgpu", 0x10DE, 0x2489))
    with pytest.raises(DmlSessionError):
        DmlBackend(FakeOrtDml(runtime_of())).create_session("m.onnx", options,
                                                            webgpu_description, role="rec")


def test_a_session_without_the_dml_ep_is_refused(tmp_path):
    from onnx import TensorProto, helper, save

    graph = helper.make_graph([helper.make_node("Relu", ["x"], ["y"])], "g",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    save(model, str(tmp_path / "m.onnx"))
    cpu_only = FakeOrtDml(runtime_of(NVIDIA_DGPU), providers=("CPUExecutionProvider",))
    with pytest.raises(DmlSessionError) as refused:
        DmlBackend(cpu_only).create_session(tmp_path / "m.onnx", ort.SessionOptions(),
                                            dml_target(), role="layout")
    assert refused.value.code == "session_failed" and "CPUExecutionProvider" in str(refused.value)
