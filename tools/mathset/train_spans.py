"""Trains the inline-span classifier (engine/formulas/inline_spans.py) and writes it as ONNX.

    python -m tools.mathset.train_spans [--seeds 11 12] [--count 2] [--epochs 300]

The words come from tools/mathset/span_pages.py (generated scanned pages of seeds apart from
the evaluation's, read by the engine, each word labelled by the formula ink under it); they are
kept under build/spans/train, and the weights of the last training in build/spans/state.npz.
The model is two dense layers in numpy (a hidden layer of HIDDEN units, ReLU, a sigmoid out),
trained with Adam on the weighted cross-entropy; a few minutes of one CPU core. One page in
every VALIDATION is held out of training and its word precision and recall printed."""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from tools.mathset.generate import REPO

HIDDEN = 32
VALIDATION = 6
OUT = REPO / "resources" / "formula" / "inline-spans.onnx"


def page_arrays(pages) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Features, labels and the page index of every word of the pages' prose lines."""
    from engine.formulas.inline_spans import line_features, page_grey

    features, labels, owners = [], [], []
    for index, labelled in enumerate(pages):
        grey = page_grey(labelled.image)
        for block, block_labels in zip(labelled.blocks, labelled.labels):
            for line, line_labels in zip(block.lines, block_labels):
                if not line.words:
                    continue
                features.append(line_features(grey, line))
                labels.extend(line_labels)
                owners.extend([index] * len(line.words))
    return (np.concatenate(features), np.asarray(labels, np.float32),
            np.asarray(owners, np.int32))


def train(x: np.ndarray, y: np.ndarray, epochs: int, seed: int = 0) -> dict[str, np.ndarray]:
    """Adam on full batches; math words weighed up to half the loss."""
    rng = np.random.default_rng(seed)
    w1 = rng.normal(0, np.sqrt(2 / x.shape[1]), (x.shape[1], HIDDEN)).astype(np.float32)
    params = {"w1": w1, "b1": np.zeros(HIDDEN, np.float32),
              "w2": rng.normal(0, np.sqrt(1 / HIDDEN), (HIDDEN, 1)).astype(np.float32),
              "b2": np.zeros(1, np.float32)}
    weight = np.where(y > 0.5, 0.5 / max(1, y.sum()), 0.5 / max(1, (1 - y).sum()))
    moments = {k: (np.zeros_like(v), np.zeros_like(v)) for k, v in params.items()}
    rate, decay = 3e-3, 1e-4
    for step in range(1, epochs + 1):
        hidden = np.maximum(0, x @ params["w1"] + params["b1"])
        p = 1 / (1 + np.exp(-(hidden @ params["w2"] + params["b2"]).ravel()))
        d_logit = ((p - y) * weight)[:, None].astype(np.float32)
        d_hidden = (d_logit @ params["w2"].T) * (hidden > 0)
        grads = {"w2": hidden.T @ d_logit + decay * params["w2"], "b2": d_logit.sum(0),
                 "w1": x.T @ d_hidden + decay * params["w1"], "b1": d_hidden.sum(0)}
        for key, grad in grads.items():
            m, v = moments[key]
            m[:] = 0.9 * m + 0.1 * grad
            v[:] = 0.999 * v + 0.001 * grad * grad
            params[key] -= (rate * (m / (1 - 0.9 ** step))
                            / (np.sqrt(v / (1 - 0.999 ** step)) + 1e-8)).astype(np.float32)
    return params


def predict(params: dict[str, np.ndarray], x: np.ndarray) -> np.ndarray:
    hidden = np.maximum(0, x @ params["w1"] + params["b1"])
    return 1 / (1 + np.exp(-(hidden @ params["w2"] + params["b2"]).ravel()))


def export(params: dict[str, np.ndarray], path: Path) -> None:
    """The two layers as an ONNX graph: features [N, D] -> math probability [N, 1]."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    width = params["w1"].shape[0]
    nodes = [helper.make_node("MatMul", ["features", "w1"], ["h0"]),
             helper.make_node("Add", ["h0", "b1"], ["h1"]),
             helper.make_node("Relu", ["h1"], ["h2"]),
             helper.make_node("MatMul", ["h2", "w2"], ["o0"]),
             helper.make_node("Add", ["o0", "b2"], ["o1"]),
             helper.make_node("Sigmoid", ["o1"], ["math"])]
    graph = helper.make_graph(
        nodes, "inline_spans",
        [helper.make_tensor_value_info("features", TensorProto.FLOAT, ["words", width])],
        [helper.make_tensor_value_info("math", TensorProto.FLOAT, ["words", 1])],
        [numpy_helper.from_array(params[k].astype(np.float32), k) for k in ("w1", "b1", "w2",
                                                                            "b2")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)],
                              producer_name="paperlens tools/mathset/train_spans.py")
    model.ir_version = 8
    onnx.checker.check_model(model)
    path.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(model, path)


def _scores(p: np.ndarray, y: np.ndarray, threshold: float = 0.5) -> str:
    hit = p >= threshold
    tp = float((hit & (y > 0.5)).sum())
    return (f"precision {tp / max(1, hit.sum()):.3f} recall {tp / max(1, (y > 0.5).sum()):.3f}"
            f" ({int((y > 0.5).sum())} math words of {len(y)})")


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m tools.mathset.train_spans")
    parser.add_argument("--seeds", type=int, nargs="+", default=[11, 12])
    parser.add_argument("--count", type=int, default=2, help="pages per family and columns")
    parser.add_argument("--epochs", type=int, default=300)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    from engine.api import Engine
    from settings import SettingsStore
    from tools.mathset.span_pages import training_pages

    engine = Engine(SettingsStore().load())
    folder = REPO / "build" / "spans" / "train"
    pages = [p for seed in args.seeds for p in training_pages(folder, seed, args.count, engine)]
    x, y, owners = page_arrays(pages)
    held = owners % VALIDATION == VALIDATION - 1
    trial = train(x[~held], y[~held], args.epochs)
    print("held-out pages:", _scores(predict(trial, x[held]), y[held]))
    params = train(x, y, args.epochs)
    print("training pages:", _scores(predict(params, x), y))
    np.savez(REPO / "build" / "spans" / "state.npz", **params)
    export(params, args.out)
    print(f"wrote {args.out} ({args.out.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
