"""Cross-attention keys laid out for the decoder's product, once per image instead of every step.

As exported from PyTorch, each decoder layer turns the encoder's ``cross_k<i>`` [batch, heads,
cells, head_dim] into [batch, heads, head_dim, cells] and scales it by head_dim ** -0.25 (the
key's half of attention's scaling) at every decoding step, on a tensor that never changes while
a batch is read: on two cores that transpose and scale were a fifth of a step's time. This pass
moves both to the end of the encoder graph, so the encoder's ``cross_k<i>`` is already transposed
and scaled and the decoder multiplies by it directly. The values are computed by the same fp32
operations, so the readings do not change.

    python -m tools.formula.key_layout resources/formula

applies it to exported graphs in place (the export applies it itself); graphs already laid out
are left as they are.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import onnx
from onnx import helper, numpy_helper

ENCODER, DECODER = "formula-encoder.onnx", "formula-decoder.onnx"
KEY_PERM = [0, 1, 3, 2]
SCALE_NAME = "cross_key_scale"


def key_scale(head_dim: int) -> np.float32:
    """What the exported graph computes for a key's scale, in its fp32 steps:
    sqrt(1 / sqrt(head_dim))."""
    return np.sqrt(np.float32(1.0) / np.sqrt(np.float32(head_dim)))


def is_laid_out(encoder: onnx.ModelProto) -> bool:
    return any(init.name == SCALE_NAME for init in encoder.graph.initializer)


def _cross_keys(graph: onnx.GraphProto) -> list[str]:
    return [i.name for i in graph.input if i.name.startswith("cross_k")]


def _prune(graph: onnx.GraphProto) -> None:
    """Drops the nodes (and initialisers) no graph output depends on any more."""
    producers = {out: node for node in graph.node for out in node.output}
    needed, stack = set(), [o.name for o in graph.output]
    while stack:
        name = stack.pop()
        node = producers.get(name)
        if node is None or id(node) in needed:
            continue
        needed.add(id(node))
        stack.extend(node.input)
    used = {i for node in graph.node if id(node) in needed for i in node.input}
    kept = [node for node in graph.node if id(node) in needed]
    del graph.node[:]
    graph.node.extend(kept)
    inits = [init for init in graph.initializer if init.name in used]
    del graph.initializer[:]
    graph.initializer.extend(inits)


def lay_out_decoder(decoder: onnx.ModelProto) -> int:
    """Each cross key's Transpose and the Mul after it are taken out; their consumers read the
    input directly, which becomes [batch, heads, head_dim, cells]. Returns the head_dim."""
    graph = decoder.graph
    consumers: dict[str, list[onnx.NodeProto]] = {}
    for node in graph.node:
        for name in node.input:
            consumers.setdefault(name, []).append(node)
    head_dim = 0
    for key in _cross_keys(graph):
        (transpose,) = consumers[key]
        (scale,) = consumers[transpose.output[0]]
        perm = list(helper.get_attribute_value(transpose.attribute[0]))
        if transpose.op_type != "Transpose" or perm != KEY_PERM or scale.op_type != "Mul":
            raise ValueError(f"{key}: not the exported transpose-and-scale pattern")
        scaled = scale.output[0]
        for node in graph.node:
            for k, name in enumerate(node.input):
                if name == scaled:
                    node.input[k] = key
        inp = next(i for i in graph.input if i.name == key)
        dims = inp.type.tensor_type.shape.dim
        head_dim = dims[3].dim_value
        cells = onnx.TensorShapeProto.Dimension(dim_param=dims[2].dim_param or "cells")
        dims[2].CopyFrom(onnx.TensorShapeProto.Dimension(dim_value=head_dim))
        dims[3].CopyFrom(cells)
    if not head_dim:
        raise ValueError("the decoder's cross keys have no static head size")
    _prune(graph)
    onnx.checker.check_model(decoder)
    return head_dim


def lay_out_encoder(encoder: onnx.ModelProto, head_dim: int) -> None:
    """Each ``cross_k<i>`` output is transposed to [batch, heads, head_dim, cells] and scaled."""
    graph = encoder.graph
    graph.initializer.append(numpy_helper.from_array(
        np.array(key_scale(head_dim), np.float32), SCALE_NAME))
    for output in graph.output:
        if not output.name.startswith("cross_k"):
            continue
        raw = f"{output.name}_unscaled"
        for node in graph.node:
            for k, name in enumerate(node.output):
                if name == output.name:
                    node.output[k] = raw
        graph.node.extend([
            helper.make_node("Transpose", [raw], [f"{raw}_t"], perm=KEY_PERM),
            helper.make_node("Mul", [f"{raw}_t", SCALE_NAME], [output.name])])
        dims = output.type.tensor_type.shape.dim
        cells, depth = onnx.TensorShapeProto.Dimension(), onnx.TensorShapeProto.Dimension()
        cells.CopyFrom(dims[2])
        depth.CopyFrom(dims[3])
        dims[2].CopyFrom(depth)
        dims[3].CopyFrom(cells)
    onnx.checker.check_model(encoder)


def model_layout(values: list[np.ndarray], encoder: onnx.ModelProto) -> list[np.ndarray]:
    """The encoder graph's outputs (k0, v0, k1, ...) in PyTorch's layout, [batch, heads, cells,
    head_dim] unscaled, whichever layout the graph has."""
    if not is_laid_out(encoder):
        return values
    out = []
    for value, output in zip(values, encoder.graph.output):
        if output.name.startswith("cross_k"):
            value = np.transpose(value, KEY_PERM) / key_scale(value.shape[2])
        out.append(value)
    return out


def lay_out(folder: Path) -> bool:
    """Applies the pass to the two graphs in `folder`; False when they were already laid out."""
    encoder = onnx.load(str(folder / ENCODER))
    if is_laid_out(encoder):
        return False
    decoder = onnx.load(str(folder / DECODER))
    head_dim = lay_out_decoder(decoder)
    lay_out_encoder(encoder, head_dim)
    onnx.save(decoder, str(folder / DECODER))
    onnx.save(encoder, str(folder / ENCODER))
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    args = parser.parse_args(argv)
    changed = lay_out(args.folder)
    print(f"{args.folder}: {'laid out' if changed else 'already laid out'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
