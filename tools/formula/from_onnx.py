"""Rebuilds the PyTorch formula model from the two exported ONNX graphs, so that training can go
on from the shipped model wherever the repository is (``train.py --init resources/formula``).

Every weight is in the graphs under a name that says where it belongs: most keep their PyTorch
name, a linear layer's weight is the (transposed) right operand of the MatMul whose bias Add
names the layer, and a convolution is found by its node name (``/backbone/stages/stages.1/conv1/
Conv`` is ``backbone.stages.1.conv1``). One thing is lost in export: each batch norm was folded
into the convolution before it (weight scaled, bias added). The rebuilt convolution takes the
folded weight, and its batch norm is set to pass it through unchanged in evaluation: running
mean and variance are the statistics the folded convolution's output has on calibration images,
its scale their standard deviation and its shift their mean plus the folded bias. The model then
computes exactly what the graphs compute, and in training mode (batch statistics) it normalises
as the original did.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import onnx
import torch
from onnx import numpy_helper

from tools.formula import key_layout
from tools.formula.model import Config, FormulaModel

ENCODER, DECODER, VOCAB = "formula-encoder.onnx", "formula-decoder.onnx", "vocab.txt"


def _tensors(graph: onnx.GraphProto) -> dict[str, np.ndarray]:
    """Initialiser values by the name the graph's nodes use (fp16 ones behind their Cast)."""
    values = {init.name: numpy_helper.to_array(init) for init in graph.initializer}
    for node in graph.node:
        if node.op_type == "Cast" and node.input[0] in values:
            values[node.output[0]] = values[node.input[0]].astype(np.float32)
    return values


def _conv_module(node_name: str) -> str:
    """``/backbone/stages/stages.1/skip/skip.0/Conv`` -> ``backbone.stages.1.skip.0``."""
    parts: list[str] = []
    for part in node_name.strip("/").split("/")[:-1]:
        if parts and part.startswith(parts[-1] + "."):
            parts[-1] = part
        else:
            parts.append(part)
    return ".".join(parts)


def _norm_after(conv: str) -> str:
    """The batch norm that follows a convolution in tools.formula.model.Block / Backbone."""
    head, last = conv.rsplit(".", 1)
    if last.startswith("conv"):
        return f"{head}.bn{last[4:]}"
    return f"{head}.{int(last) + 1}"  # stem.0 -> stem.1, skip.0 -> skip.1


def _graph_weights(graph: onnx.GraphProto) -> tuple[dict[str, np.ndarray], dict[str, tuple]]:
    """State-dict entries read from one graph, and the folded convolutions (weight, bias)."""
    values = _tensors(graph)
    state: dict[str, np.ndarray] = {}
    folded: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    producers = {out: node for node in graph.node for out in node.output}
    for name, value in values.items():
        if name.startswith("model.") and not name.endswith("_fp16"):
            state[name[len("model."):]] = value
    for node in graph.node:
        if node.op_type == "Add":
            bias = next((i for i in node.input if i.startswith("model.") and i.endswith(".bias")),
                        None)
            matmul = next((producers[i] for i in node.input
                           if i in producers and producers[i].op_type == "MatMul"), None)
            if bias and matmul is not None and matmul.input[1] in values:
                module = bias[len("model."):-len(".bias")]
                state[f"{module}.weight"] = values[matmul.input[1]].T
        elif node.op_type == "Conv" and not node.input[1].startswith("model."):
            folded[_conv_module(node.name)] = (values[node.input[1]], values[node.input[2]])
    return state, folded


def load_onnx(folder: Path, calibration: torch.Tensor) -> tuple[FormulaModel, list[str]]:
    """The model the graphs in `folder` hold, with its vocabulary. `calibration`: images
    [N, 1, 64, W] to measure the folded convolutions' output statistics on."""
    vocab = (folder / VOCAB).read_text(encoding="utf-8").splitlines()
    state: dict[str, np.ndarray] = {}
    folded: dict[str, tuple] = {}
    for graph_file in (ENCODER, DECODER):
        found, convs = _graph_weights(onnx.load(str(folder / graph_file)).graph)
        state.update(found)
        folded.update(convs)
    cfg = _config(state, folded, vocab)
    model = FormulaModel(cfg).eval()
    own = model.state_dict()
    for conv, (weight, bias) in folded.items():
        state[f"{conv}.weight"] = weight
    missing = [k for k in own if k not in state and not _is_norm_of(k, folded)]
    if missing:
        raise ValueError(f"{folder}: the graphs hold no value for {missing[:5]}")
    for key, value in state.items():
        if key in own:
            own[key].copy_(torch.from_numpy(np.array(value)).reshape(own[key].shape))
    model.load_state_dict(own)
    _calibrate_norms(model, folded, calibration)
    _check_against_encoder(model, folder / ENCODER, calibration[:4])
    return model, vocab


@torch.no_grad()
def _check_against_encoder(model: FormulaModel, encoder: Path, images: torch.Tensor,
                           tolerance: float = 0.05) -> None:
    """The rebuilt model's cross-attention keys/values must be the graph's (the head count, not
    stored in any weight, and the folded norms are what this checks)."""
    import onnxruntime as ort

    session = ort.InferenceSession(str(encoder), providers=["CPUExecutionProvider"])
    expected = key_layout.model_layout(session.run(None, {"image": images.numpy().astype(np.float32)}),
                                       onnx.load(str(encoder)))
    got = [t for pair in model.cross_keys_values(model.encode(images)) for t in pair]
    worst = max(float(np.abs(g.numpy() - e).max()) for g, e in zip(got, expected))
    if worst > tolerance:
        raise ValueError(f"{encoder}: the rebuilt model differs from the graph by {worst:.3f}")


def _is_norm_of(key: str, folded: dict) -> bool:
    return any(key.startswith(_norm_after(conv) + ".") for conv in folded)


def _config(state: dict[str, np.ndarray], folded: dict, vocab: list[str]) -> Config:
    """Sizes read off the weights; the head count is not in them (Config's default; load_onnx
    checks the rebuilt model against the graphs, which would catch another)."""
    def layers(prefix: str) -> int:
        return len({m.group(1) for k in state if (m := re.match(rf"{prefix}\.(\d+)\.", k))})

    convs = ("backbone.stem.0", "backbone.stages.1.conv1", "backbone.stages.3.conv1",
             "backbone.stages.5.conv1")
    return Config(vocab=len(vocab), dim=state["embed.weight"].shape[1],
                  ffn=state["encoder.0.ffn.0.weight"].shape[0],
                  encoder_layers=layers("encoder"), decoder_layers=layers("decoder"),
                  max_tokens=state["positions"].shape[0],
                  channels=tuple(int(folded[c][0].shape[0]) for c in convs))


@torch.no_grad()
def _calibrate_norms(model: FormulaModel, folded: dict, images: torch.Tensor) -> None:
    modules = dict(model.named_modules())
    stats: dict[str, tuple[torch.Tensor, torch.Tensor]] = {}

    def record(name):
        def hook(_module, _inputs, output):
            stats[name] = (output.mean(dim=(0, 2, 3)), output.var(dim=(0, 2, 3)))
        return hook

    for conv, (_, bias) in folded.items():
        # While measuring, each norm only adds the folded bias: every layer computes what the
        # graph computes, so the statistics downstream are the graph's too.
        norm = modules[_norm_after(conv)]
        norm.reset_running_stats()
        norm.running_var.fill_(1.0 - norm.eps)
        norm.weight.fill_(1.0)
        norm.bias.copy_(torch.from_numpy(np.array(bias)))
    handles = [modules[conv].register_forward_hook(record(conv)) for conv in folded]
    model.eval()
    model.backbone(images)
    for handle in handles:
        handle.remove()
    for conv, (_, bias) in folded.items():
        norm = modules[_norm_after(conv)]
        mean, var = stats[conv]
        var = var.clamp(min=1e-4)
        norm.running_mean.copy_(mean)
        norm.running_var.copy_(var - norm.eps)
        norm.weight.copy_(var.sqrt())
        norm.bias.copy_(mean + torch.from_numpy(np.array(bias)))
