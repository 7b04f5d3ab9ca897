"""The cross-key layout pass (tools/formula/key_layout.py): on a pair of graphs built with the
exported pattern it changes no output, converts back to PyTorch's layout, runs once; and the
shipped formula graphs carry it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

from resources import resource_path
from tools.formula import key_layout

HEADS, HEAD_DIM, WIDTH = 2, 4, 6


def run(path: Path, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    return session.run(None, feeds)


def exported_pair(folder: Path, seed: int = 0) -> None:
    """An encoder image [batch, cells, WIDTH] -> cross_k0, cross_v0 [batch, heads, cells, head_dim],
    and a decoder that attends to them the way the PyTorch export does: the key transposed and
    scaled by sqrt(1 / sqrt(head_dim)) inside the step."""
    rng = np.random.default_rng(seed)
    weights = {name: rng.standard_normal((WIDTH, HEADS * HEAD_DIM)).astype(np.float32)
               for name in ("wk", "wv")}
    shape = np.array([0, -1, HEADS, HEAD_DIM], np.int64)
    enc_nodes = []
    for part in ("k", "v"):
        enc_nodes += [
            helper.make_node("MatMul", ["image", f"w{part}"], [f"{part}_flat"]),
            helper.make_node("Reshape", [f"{part}_flat", "heads_shape"], [f"{part}_heads"]),
            helper.make_node("Transpose", [f"{part}_heads"], [f"cross_{part}0"], perm=[0, 2, 1, 3])]
    cross = [helper.make_tensor_value_info(f"cross_{p}0", TensorProto.FLOAT,
                                           ["batch", HEADS, "cells", HEAD_DIM]) for p in "kv"]
    encoder = helper.make_model(helper.make_graph(
        enc_nodes, "encoder",
        [helper.make_tensor_value_info("image", TensorProto.FLOAT, ["batch", "cells", WIDTH])],
        cross,
        [numpy_helper.from_array(w, n) for n, w in weights.items()]
        + [numpy_helper.from_array(shape, "heads_shape")]),
        opset_imports=[helper.make_opsetid("", 17)])
    encoder.ir_version = 8
    onnx.save(encoder, str(folder / key_layout.ENCODER))

    scale = numpy_helper.from_array(np.array(key_layout.key_scale(HEAD_DIM), np.float32), "scale")
    dec_nodes = [
        helper.make_node("Transpose", ["cross_k0"], ["k_t"], perm=key_layout.KEY_PERM),
        helper.make_node("Mul", ["k_t", "scale"], ["k_scaled"]),
        helper.make_node("Mul", ["query", "scale"], ["q_scaled"]),
        helper.make_node("MatMul", ["q_scaled", "k_scaled"], ["scores"]),
        helper.make_node("Softmax", ["scores"], ["weights"], axis=-1),
        helper.make_node("MatMul", ["weights", "cross_v0"], ["attended"])]
    decoder = helper.make_model(helper.make_graph(
        dec_nodes, "decoder",
        [helper.make_tensor_value_info("query", TensorProto.FLOAT, ["batch", HEADS, 1, HEAD_DIM]),
         *[helper.make_tensor_value_info(f"cross_{p}0", TensorProto.FLOAT,
                                         ["batch", HEADS, "cells", HEAD_DIM]) for p in "kv"]],
        [helper.make_tensor_value_info("attended", TensorProto.FLOAT, ["batch", HEADS, 1, HEAD_DIM])],
        [scale]), opset_imports=[helper.make_opsetid("", 17)])
    decoder.ir_version = 8
    onnx.save(decoder, str(folder / key_layout.DECODER))


def read(folder: Path, image: np.ndarray, query: np.ndarray) -> tuple[list[np.ndarray], np.ndarray]:
    cross = run(folder / key_layout.ENCODER, {"image": image})
    (attended,) = run(folder / key_layout.DECODER,
                      {"query": query, "cross_k0": cross[0], "cross_v0": cross[1]})
    return cross, attended


def test_the_pass_moves_the_key_transpose_into_the_encoder_and_changes_no_reading(tmp_path):
    exported_pair(tmp_path)
    rng = np.random.default_rng(1)
    image = rng.standard_normal((3, 5, WIDTH)).astype(np.float32)
    query = rng.standard_normal((3, HEADS, 1, HEAD_DIM)).astype(np.float32)
    before_cross, before = read(tmp_path, image, query)

    assert key_layout.lay_out(tmp_path)
    after_cross, after = read(tmp_path, image, query)

    np.testing.assert_allclose(after, before, rtol=1e-6, atol=1e-6)
    assert after_cross[0].shape == (3, HEADS, HEAD_DIM, 5)  # laid out for q @ k
    np.testing.assert_array_equal(after_cross[1], before_cross[1])  # values untouched
    encoder = onnx.load(str(tmp_path / key_layout.ENCODER))
    back = key_layout.model_layout(after_cross, encoder)
    np.testing.assert_allclose(back[0], before_cross[0], rtol=1e-6)
    decoder = onnx.load(str(tmp_path / key_layout.DECODER))
    assert [n.op_type for n in decoder.graph.node].count("Transpose") == 0
    dims = [d.dim_value or d.dim_param for d in decoder.graph.input[1].type.tensor_type.shape.dim]
    assert dims == ["batch", HEADS, HEAD_DIM, "cells"]

    laid_out = [(tmp_path / name).read_bytes() for name in (key_layout.ENCODER, key_layout.DECODER)]
    assert not key_layout.lay_out(tmp_path)  # a second run leaves the graphs as they are
    assert [(tmp_path / n).read_bytes() for n in (key_layout.ENCODER, key_layout.DECODER)] == laid_out


def test_model_layout_leaves_an_unpassed_encoder_alone(tmp_path):
    exported_pair(tmp_path)
    values = [np.ones((1, HEADS, 5, HEAD_DIM), np.float32)] * 2
    assert key_layout.model_layout(values, onnx.load(str(tmp_path / key_layout.ENCODER))) is values


def test_a_decoder_without_the_exported_pattern_is_refused(tmp_path):
    exported_pair(tmp_path)
    decoder = onnx.load(str(tmp_path / key_layout.DECODER))
    next(n for n in decoder.graph.node if n.op_type == "Transpose").attribute[0].ints[:] = [0, 2, 1, 3]
    with pytest.raises(ValueError, match="not the exported transpose-and-scale pattern"):
        key_layout.lay_out_decoder(decoder)


def test_the_shipped_formula_graphs_are_laid_out():
    folder = resource_path("formula")
    encoder = onnx.load(str(folder / key_layout.ENCODER), load_external_data=False)
    decoder = onnx.load(str(folder / key_layout.DECODER), load_external_data=False)
    assert key_layout.is_laid_out(encoder)
    keys = {i.name for i in decoder.graph.input if i.name.startswith("cross_k")}
    assert keys and not any(n.op_type == "Transpose" and set(n.input) & keys for n in decoder.graph.node)
