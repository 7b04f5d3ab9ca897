"""Exports trained weights to the two ONNX graphs the engine runs, and checks them.

    python -m tools.formula.export --weights build/formula/run1 [--out resources/formula]

``formula-encoder.onnx``: ``image`` float32 [batch, 1, 64, width] (ink 1, background 0; width a
multiple of 32) -> ``cross_k0, cross_v0, ...``, the cross-attention keys and values of every
decoder layer, computed once per image: a value is [batch, heads, 4*width/8, head_dim], a key is
laid out for the decoder's product, [batch, heads, head_dim, 4*width/8] and scaled by
head_dim ** -0.25 (tools/formula/key_layout.py, applied after the export).

``formula-decoder.onnx``: one decoding step. ``token`` int64 [batch, 1], ``step`` int64 [1] (the
position of ``token``), ``past_k0, past_v0, ...`` [batch, heads, step, head_dim] (empty at step 0)
and the encoder's outputs -> ``logits`` [batch, vocab] and ``present_k0, present_v0, ...`` (the
cache with this step appended). Weights are stored in fp16 where that loses nothing measurable
(weights only; activations stay fp32, so CPU and GPU execution providers run them unchanged).

The export is checked before it is kept: ONNX Runtime's greedy decoding of validation images
must reproduce PyTorch's tokens.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
import onnx
import torch

from tools.formula import key_layout
from tools.formula.model import HEIGHT, DecoderStep, EncoderExport, FormulaModel, load_weights

ROOT = Path(__file__).resolve().parents[2]
OPSET = 17


def export(model: FormulaModel, out: Path) -> tuple[Path, Path]:
    cfg = model.cfg
    n = cfg.decoder_layers
    dh = cfg.dim // cfg.heads
    out.mkdir(parents=True, exist_ok=True)
    enc_path, dec_path = out / "formula-encoder.onnx", out / "formula-decoder.onnx"
    image = torch.zeros(2, 1, HEIGHT, 256)
    cross_names = [f"cross_{kv}{i}" for i in range(n) for kv in "kv"]
    # Wrappers in eval mode: the exporter restores a wrapper's own mode on its children, and a
    # forward pass in training mode would move the batch-norm statistics.
    encoder, step = EncoderExport(model).eval(), DecoderStep(model).eval()
    with torch.no_grad():
        torch.onnx.export(encoder, (image,), str(enc_path), input_names=["image"],
                          output_names=cross_names, opset_version=OPSET, dynamo=False,
                          dynamic_axes={"image": {0: "batch", 3: "width"},
                                        **{c: {0: "batch", 2: "cells"} for c in cross_names}})
        cross = encoder(image)
        past = [torch.zeros(2, cfg.heads, 3, dh) for _ in range(2 * n)]
        past_names = [f"past_{kv}{i}" for i in range(n) for kv in "kv"]
        present_names = [f"present_{kv}{i}" for i in range(n) for kv in "kv"]
        torch.onnx.export(
            step, (torch.ones(2, 1, dtype=torch.long), torch.tensor([3]),
                                 *past, *cross), str(dec_path),
            input_names=["token", "step", *past_names, *cross_names],
            output_names=["logits", *present_names], opset_version=OPSET, dynamo=False,
            dynamic_axes={"token": {0: "batch"}, "logits": {0: "batch"},
                          **{p: {0: "batch", 2: "past"} for p in past_names},
                          **{p: {0: "batch", 2: "total"} for p in present_names},
                          **{c: {0: "batch", 2: "cells"} for c in cross_names}})
    for path in (enc_path, dec_path):
        _to_fp16_weights(path)
    key_layout.lay_out(out)
    return enc_path, dec_path


def _to_fp16_weights(path: Path) -> None:
    """Stores large float initialisers as fp16 behind a Cast, halving the file."""
    from onnx import helper, numpy_helper

    model = onnx.load(str(path))
    graph = model.graph
    keep, casts = [], []
    for init in graph.initializer:
        arr = numpy_helper.to_array(init)
        if arr.dtype == np.float32 and arr.size >= 1024:
            half = numpy_helper.from_array(arr.astype(np.float16), init.name + "_fp16")
            keep.append(half)
            casts.append(helper.make_node("Cast", [half.name], [init.name],
                                          to=onnx.TensorProto.FLOAT))
        else:
            keep.append(init)
    del graph.initializer[:]
    graph.initializer.extend(keep)
    for node in reversed(casts):
        graph.node.insert(0, node)
    onnx.checker.check_model(model)
    onnx.save(model, str(path))


def check(model: FormulaModel, vocab: list[str], encoder: Path, decoder: Path,
          images: list[np.ndarray], tolerance: float = 1e-2) -> dict:
    """ONNX Runtime against PyTorch on the same inputs: the decoder is fed PyTorch's greedy
    tokens step by step through its cache, and every step's logits must match PyTorch's
    teacher-forced logits within ``tolerance``. Also reports how many greedy readings (the
    engine's own decoding loop) are identical: a near-tie can flip one token legitimately."""
    import onnxruntime as ort

    from engine.formulas.model import BOS, FormulaRecognizerModel, batch_images, prepare
    from engine.formulas.latex_tokens import normalized
    from tools.formula.train import greedy

    class _Session:
        def __init__(self, path: Path):
            self.session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
            self.input_names = [i.name for i in self.session.get_inputs()]

        def run(self, *inputs):
            return self.session.run(None, dict(zip(self.input_names, inputs)))

    enc, dec = _Session(encoder), _Session(decoder)
    readings = FormulaRecognizerModel(enc, dec, vocab).read(images)
    worst, same = 0.0, 0
    for reading, img in zip(readings, images):
        batch = batch_images([prepare(img)])
        with torch.no_grad():
            tokens = greedy(model, torch.from_numpy(batch))[0]
            inputs = torch.tensor([[BOS, *tokens]])
            expected = model(torch.from_numpy(batch), inputs)[0].numpy()
        same += normalized(reading.latex if reading else "") == normalized(
            " ".join(vocab[t] for t in tokens))
        cross = enc.run(batch)
        heads, head_dim = cross[1].shape[1], cross[1].shape[3]  # off a value: keys are laid out
        past = [np.zeros((1, heads, 0, head_dim), np.float32)
                for n in dec.input_names if n.startswith("past_")]
        for step, token in enumerate(inputs[0].tolist()):
            out = dec.run(np.array([[token]], np.int64), np.array([step], np.int64), *past,
                          *cross)
            past = out[1:]
            worst = max(worst, float(np.abs(out[0][0] - expected[step]).max()))
    return {"checked": len(images), "max_logit_difference": worst,
            "identical_readings": same, "ok": worst <= tolerance}


def sample_images() -> list[np.ndarray]:
    """A few synthetic formula-like crops (no data files needed)."""
    import cv2

    out = []
    for text in ("x+y=2", "E=mc^2", "a_1+a_2", "f(x)=0"):
        img = np.full((60, 40 + 24 * len(text), 3), 255, np.uint8)
        cv2.putText(img, text, (10, 42), cv2.FONT_HERSHEY_SIMPLEX, 1.1, (0, 0, 0), 2,
                    cv2.LINE_AA)
        out.append(img)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--weights", type=Path, required=True)
    parser.add_argument("--out", type=Path, default=ROOT / "resources" / "formula")
    args = parser.parse_args(argv)
    model, vocab, meta = load_weights(args.weights)
    paths = export(model, args.out)
    agreement = check(model, vocab, *paths, sample_images())
    if not agreement["ok"]:
        for p in paths:
            p.unlink()
        raise SystemExit(f"ONNX Runtime decodes differently from PyTorch: {agreement}; "
                         "the exported files were removed")
    (args.out / "vocab.txt").write_text("\n".join(vocab) + "\n", encoding="utf-8")
    print(json.dumps({"files": [str(p) for p in paths], "check": agreement,
                      "bytes": [p.stat().st_size for p in paths],
                      "step": meta.get("step"), "seen": meta.get("seen")}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
