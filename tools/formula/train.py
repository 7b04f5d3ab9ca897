"""Trains the formula recogniser on a packed render set, for a fixed wall-clock budget.

    python -m tools.formula.train --data build/formula/pack --out build/formula/run1 \
        --minutes 60 [--resume build/formula/run1/last.pt | --init build/formula/run-h200] \
        [--val build/formula/pack-val]

All images live on the training device as uint8 tensors bucketed by width (train_data.py); every
batch is augmented there (augment.py: resampling to low resolution, small
rotation/shear/scale, stroke thickening and thinning, blur, contrast and background changes,
low-frequency texture, noise, grey-level quantisation), so a GPU is never starved by a CPU loader. A batch is a window of formulas of
similar token length within one width bucket, so little of the decoder's work is padding. On a
CPU, ``--freeze-backbone --dropout 0 --cpu-bf16`` fine-tunes a trained model (``--init``) at 26
images/s against 9 for the whole model (two cores, batches of 32 at 64 x 384). The learning rate follows warm-up and a
cosine decay over the time budget; an exponential moving average of the weights is what is saved
and exported. Every ``--save-every`` seconds the run writes ``last.pt`` (full state, resumable)
and ``weights-ema-{0,1}.pt`` (fp16 EMA weights in two halves, with the model config and the
vocabulary), each file
replaced atomically, and appends a line to ``log.jsonl``.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from tools.formula.augment import augment
from tools.formula.model import Config, FormulaModel, carry_weights, config_like, load_weights
from tools.formula.train_data import BOS, EOS, PAD, VOCAB, Buckets, load_vocab


def lr_at(progress: float, step: int, peak: float, warmup: int) -> float:
    if step < warmup:
        return peak * (step + 1) / warmup
    return peak * (0.05 + 0.95 * 0.5 * (1 + math.cos(math.pi * min(1.0, progress))))


def _atomic_save(obj, path: Path) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    torch.save(obj, tmp)
    os.replace(tmp, path)


@torch.no_grad()
def greedy(model: FormulaModel, images: torch.Tensor, max_len: int = 200) -> list[list[int]]:
    """Plain greedy decoding (recomputes the prefix each step; fine for validation)."""
    memory_kv = model.cross_keys_values(model.encode(images))
    b = images.shape[0]
    tokens = torch.full((b, 1), BOS, dtype=torch.long, device=images.device)
    done = torch.zeros(b, dtype=torch.bool, device=images.device)
    for _ in range(max_len):
        t = tokens.shape[1]
        x = model.embed(tokens) * math.sqrt(model.cfg.dim) + model.positions[:t]
        for layer, (ck, cv) in zip(model.decoder, memory_kv):
            k, v = layer.self_attn.keys_values(layer.norm1(x))
            x = layer(x, k, v, ck, cv, causal=True)
        nxt = model.logits(x[:, -1:]).argmax(-1)
        nxt[done] = PAD
        tokens = torch.cat([tokens, nxt], 1)
        done |= nxt[:, 0] == EOS
        if bool(done.all()):
            break
    out = []
    for row in tokens[:, 1:].tolist():
        seq = []
        for t in row:
            if t in (EOS, PAD):
                break
            seq.append(t)
        out.append(seq)
    return out


def evaluate(model: FormulaModel, val: Buckets, rng: np.random.Generator, batches: int,
             device: torch.device, limit: int | None = None) -> dict:
    model.eval()
    exact = total = 0
    similarity = 0.0
    for _ in range(batches):
        pixels, _, tokens = val.batch(rng, limit=min(128, limit or 128))
        x = pixels.float().div(255).unsqueeze(1)
        with torch.autocast(device.type, dtype=torch.bfloat16, enabled=device.type == "cuda"):
            pred = greedy(model, x, max_len=tokens.shape[1] + 10)
        for p, t in zip(pred, tokens.tolist()):
            truth = [v for v in t[1:] if v not in (PAD, EOS)]
            exact += p == truth
            similarity += 1 - _edit(p, truth) / max(len(p), len(truth), 1)
            total += 1
    model.train()
    return {"val_exact": exact / max(total, 1), "val_similarity": similarity / max(total, 1),
            "val_items": total}


def _edit(a: list[int], b: list[int]) -> int:
    prev = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        cur = [i]
        for j, y in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x != y)))
        prev = cur
    return prev[-1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--val", type=Path)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--minutes", type=float, default=60)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--warmup", type=int, default=400)
    parser.add_argument("--label-smoothing", type=float, default=0.1)
    parser.add_argument("--ema", type=float, default=0.998)
    parser.add_argument("--save-every", type=float, default=120)
    parser.add_argument("--resume", type=Path)
    parser.add_argument("--init", type=Path,
                        help="start from trained weights: a run folder (weights-ema-*.pt) or the "
                             "exported graphs (resources/formula); fresh optimiser; tokens new to "
                             "the vocabulary start random")
    parser.add_argument("--cudnn-benchmark", action="store_true",
                        help="let cuDNN time its algorithms for every new batch shape (each width "
                             "bucket is one; off by default: short runs lost minutes to it)")
    parser.add_argument("--state-dir", type=Path, help="where last.pt goes (default: --out)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    parser.add_argument("--max-batch", type=int, default=None, help="cap (CPU runs)")
    parser.add_argument("--freeze-backbone", action="store_true",
                        help="keep the convolutional backbone as it is (eval-mode batch norms, no "
                             "gradients) and train the transformer layers only: fine-tuning on a "
                             "CPU, where the backbone's backward pass is the largest cost")
    parser.add_argument("--dropout", type=float, default=None,
                        help="override the model's dropout (fine-tuning runs use 0)")
    parser.add_argument("--cpu-bf16", action="store_true",
                        help="bfloat16 autocast on the CPU too (CPUs with AVX512-BF16 or AMX)")
    parser.add_argument("--val-batches", type=int, default=8)
    args = parser.parse_args(argv)

    start = time.monotonic()
    device = torch.device(args.device)
    torch.manual_seed(args.seed)
    random.seed(args.seed)
    rng = np.random.default_rng(args.seed)
    gen = torch.Generator(device=device)
    gen.manual_seed(args.seed)
    if device.type == "cuda":
        torch.backends.cudnn.benchmark = args.cudnn_benchmark
        torch.backends.cuda.matmul.allow_tf32 = True
        torch.backends.cudnn.allow_tf32 = True
    # The vocabulary the pack was made with; packs from before it carried one use the shipped one.
    vocab = load_vocab(args.data / "vocab.txt" if (args.data / "vocab.txt").exists() else VOCAB)
    train = Buckets(args.data, vocab, device, args.workers)
    val = Buckets(args.val, vocab, device, args.workers) if args.val else None
    args.out.mkdir(parents=True, exist_ok=True)
    state_dir = args.state_dir or args.out
    state_dir.mkdir(parents=True, exist_ok=True)
    log = open(args.out / "log.jsonl", "a", encoding="utf-8")
    print(f"loaded {train.count} images in {len(train.buckets)} buckets "
          f"({time.monotonic() - start:.0f} s)", flush=True)

    cfg = Config(vocab=len(vocab))
    source = None
    if args.init and not (args.resume and args.resume.exists()):
        if (args.init / "formula-encoder.onnx").exists():  # the shipped graphs
            from tools.formula.from_onnx import load_onnx

            pixels, widths, _ = train.batch(rng, min(64, args.max_batch or 64))
            source, source_vocab = load_onnx(args.init, augment(pixels, widths, gen).cpu())
            origin = "the exported graphs"
        else:
            source, source_vocab, meta = load_weights(args.init)
            origin = f"step {meta.get('step')}, {meta.get('seen')} images seen"
        cfg = config_like(source, vocab)
    if args.dropout is not None:
        cfg = replace(cfg, dropout=args.dropout)
    model = FormulaModel(cfg).to(device)
    if source is not None:
        carried = carry_weights(model, vocab, source.to(device), source_vocab)
        print(f"started from {args.init} ({origin}): {carried} of {len(vocab)} tokens carried "
              f"over", flush=True)
    ema = FormulaModel(cfg).to(device).eval()
    ema.load_state_dict(model.state_dict())
    if args.freeze_backbone:
        model.backbone.requires_grad_(False)
    decay, no_decay = [], []
    for name, p in model.named_parameters():
        if not p.requires_grad:
            continue
        (no_decay if p.ndim < 2 or "norm" in name or "bn" in name else decay).append(p)
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.05},
                             {"params": no_decay, "weight_decay": 0.0}],
                            lr=args.lr, betas=(0.9, 0.98), fused=device.type == "cuda")
    step, trained_s, seen = 0, 0.0, 0
    if args.resume and args.resume.exists():
        state = torch.load(args.resume, map_location=device)
        model.load_state_dict(state["model"])
        ema.load_state_dict(state["ema"])
        opt.load_state_dict(state["opt"])
        step, trained_s, seen = state["step"], state["trained_s"], state["seen"]
        print(f"resumed at step {step}", flush=True)
    budget = args.minutes * 60
    run_start = time.monotonic()
    last_save = run_start
    params, ema_params = list(model.parameters()), list(ema.parameters())
    autocast = device.type == "cuda" or args.cpu_bf16

    def save(final: bool = False) -> None:
        _atomic_save({"model": model.state_dict(), "ema": ema.state_dict(),
                      "opt": opt.state_dict(), "step": step, "seen": seen,
                      "trained_s": trained_s + time.monotonic() - run_start,
                      "config": cfg.to_dict()}, state_dir / "last.pt")
        half = {k: (v.half() if v.is_floating_point() else v) for k, v in ema.state_dict().items()}
        # Two halves: a file brought back from a training machine may be at most 16 MiB.
        names = sorted(half, key=lambda k: -half[k].numel())
        for part, keys in enumerate((names[0::2], names[1::2])):
            _atomic_save({"weights": {k: half[k] for k in keys}, "config": cfg.to_dict(),
                          "vocab": vocab, "step": step, "seen": seen},
                         args.out / f"weights-ema-{part}.pt")

    model.train()
    if args.freeze_backbone:
        model.backbone.eval()  # batch norms keep the statistics they were trained with
    while True:
        elapsed = time.monotonic() - run_start
        if elapsed >= budget:
            break
        progress = (trained_s + elapsed) / budget if not args.resume else elapsed / budget
        pixels, widths, tokens = train.batch(rng, args.max_batch)
        images = augment(pixels, widths, gen)
        lr = lr_at(progress, step, args.lr, args.warmup)
        for group in opt.param_groups:
            group["lr"] = lr
        with torch.autocast(device.type, dtype=torch.bfloat16, enabled=autocast):
            logits = model(images, tokens[:, :-1])
        loss = F.cross_entropy(logits.float().reshape(-1, logits.shape[-1]),
                               tokens[:, 1:].reshape(-1), ignore_index=PAD,
                               label_smoothing=args.label_smoothing)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(params, 1.0)
        opt.step()
        with torch.no_grad():
            d = min(args.ema, (1 + step) / (10 + step))
            torch._foreach_lerp_(ema_params, params, 1 - d)
            for eb, mb in zip(ema.buffers(), model.buffers()):
                eb.copy_(mb)
        step += 1
        seen += len(tokens)
        if step % 200 == 0:
            record = {"step": step, "seen": seen, "loss": float(loss.detach()), "lr": lr,
                      "elapsed_s": round(time.monotonic() - run_start, 1),
                      "images_per_s": round(seen / (time.monotonic() - run_start), 1)}
            if val is not None and step % 2000 == 0:
                record.update(evaluate(ema, val, rng, 2, device, args.max_batch))
            print(json.dumps(record), flush=True)
            log.write(json.dumps(record) + "\n")
            log.flush()
        if time.monotonic() - last_save > args.save_every:
            save()
            last_save = time.monotonic()
    save(final=True)
    final = {"step": step, "seen": seen, "final": True,
             "elapsed_s": round(time.monotonic() - run_start, 1)}
    if val is not None:
        final.update(evaluate(ema, val, rng, args.val_batches, device, args.max_batch))
    print(json.dumps(final), flush=True)
    log.write(json.dumps(final) + "\n")
    log.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
