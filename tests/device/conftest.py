"""Make the fakes in this folder importable, and keep device tests off the user's data folder."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

HERE = str(Path(__file__).resolve().parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)


@pytest.fixture(autouse=True)
def _private_data_dir(tmp_path, monkeypatch):
    # Reports and the last decision go to the data folder; never the developer's real one.
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
    for name in ("PAPERLENS_MODEL_ONNX_DEVICE", "PAPERLENS_CALIBRATION_TIMEOUT_S",
                 "PAPERLENS_CONFIG"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def model_path(tmp_path):
    """A one-node ONNX model (Relu over [N, 4]) any execution provider can run."""
    import onnx
    from onnx import TensorProto, helper

    graph = helper.make_graph([helper.make_node("Relu", ["x"], ["y"])], "g",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, [None, 4])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [None, 4])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    path = tmp_path / "relu.onnx"
    onnx.save(model, str(path))
    return path
