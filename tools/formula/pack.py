"""Packs rendered chunks into a compact training set that fits a size budget.

    python -m tools.formula.pack [--renders build/formula/renders-structures build/formula/renders]
                                 [--out build/formula/pack]
                                 [--budget-mib 40]

Renders taller than ``--max-height`` are scaled down (the model sees 64 px high inputs either
way, and low-resolution crops are what real pages give); images are re-quantised to 4 grey levels
(training blurs, resamples and adds noise anyway) and stored as raw bytes, compressed with LZMA in
parts of 4096 images: about 0.65 KB per formula, so 57.5 MiB carry 90,000 formulas to a training
machine. ``index.json.xz`` lists each
part's images (height, width, tokens) in order; ``vocab.txt`` is the corpus step's vocabulary.
"""

from __future__ import annotations

import argparse
import json
import lzma
import os
import random
import shutil
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import cv2
import numpy as np

from engine.formulas.model import TRAINED_MAX_HEIGHT
from engine.formulas.latex_tokens import detokenize, normalize
from tools.formula.corpus import DEFAULT_OUT
from tools.eval.formula_items import read_chunk_index

PART = 4096
LEVELS = 4


def read_chunks(renders: Path):
    for chunk, items in read_chunk_index(renders):
        blob = chunk.read_bytes()
        for item in items:
            png = np.frombuffer(blob, np.uint8, item["size"], item["offset"])
            # Renders keep the tokens of the canon they were made with; a pack carries today's
            # (the canon may have gained a rule since: x^{a}_{b} -> x_{b}^{a}).
            yield png, detokenize(normalize(item["tokens"].split()))


def _pack_part(args: tuple[int, list[tuple[bytes, str]], Path, int]) -> dict:
    index, items, out, max_height = args
    rng = random.Random(index)
    shapes, tokens, raw = [], [], []
    for png, toks in items:
        img = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_GRAYSCALE)
        if img.shape[0] > max_height:
            height = rng.randint(max(8, max_height * 2 // 3), max_height)
            width = max(1, round(img.shape[1] * height / img.shape[0]))
            img = cv2.resize(img, (width, height), interpolation=cv2.INTER_AREA)
        level = (img.astype(np.uint16) * (LEVELS - 1) + 127) // 255
        raw.append(level.astype(np.uint8).tobytes())
        shapes.append(img.shape)
        tokens.append(toks)
    path = out / f"part-{index:03d}.xz"
    path.write_bytes(lzma.compress(b"".join(raw), preset=3))
    return {"file": path.name, "levels": LEVELS, "shapes": shapes, "tokens": tokens,
            "bytes": path.stat().st_size}


def pack(renders: Path | list[Path], out: Path, budget_mib: float, workers: int, max_height: int,
         vocab: Path | None = None) -> dict:
    """Packs the renders of one folder, or of several in order: when the budget runs out, what
    comes last is left out (so a supplement of rare structures goes first)."""
    out.mkdir(parents=True, exist_ok=True)
    if vocab is not None and vocab.exists():
        shutil.copyfile(vocab, out / "vocab.txt")
    for old in out.glob("part-*.xz"):
        old.unlink()
    folders = [renders] if isinstance(renders, Path) else list(renders)
    items = [(png.tobytes(), toks) for folder in folders for png, toks in read_chunks(folder)]
    dropped = 0
    if vocab is not None and vocab.exists():
        # A canon rule added since the renders can spell a formula with a token the vocabulary
        # lacks (\operatorname{hom} -> \hom): such formulas are left out, as the corpus step
        # leaves out formulas with rare tokens.
        known = set(vocab.read_text(encoding="utf-8").splitlines())
        kept = [item for item in items if all(t in known for t in item[1].split())]
        dropped, items = len(items) - len(kept), kept
    jobs = [(i // PART, items[i:i + PART], out, max_height) for i in range(0, len(items), PART)]
    parts, total = [], 0
    with ProcessPoolExecutor(workers) as pool:
        for part in pool.map(_pack_part, jobs):
            if (total + part["bytes"]) / 2**20 > budget_mib:
                (out / part["file"]).unlink()
                continue
            total += part["bytes"]
            parts.append(part)
    (out / "index.json.xz").write_bytes(lzma.compress(json.dumps({"parts": parts}).encode()))
    total += (out / "index.json.xz").stat().st_size
    return {"images": sum(len(p["shapes"]) for p in parts), "parts": len(parts),
            "mib": round(total / 2**20, 1), "unknown_tokens_dropped": dropped}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--renders", type=Path, nargs="+", default=[DEFAULT_OUT / "renders"],
                        help="render folders, packed in this order until the budget is spent")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT / "pack")
    # What travels to a training machine is at most 64 MiB with the repository (about 22 MiB
    # since the shipped graphs are in it) and the validation pack: 40 MiB leaves a margin.
    # Starting from trained weights (train.py --init) carries their 19.5 MiB too: use 20.
    parser.add_argument("--budget-mib", type=float, default=40)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--vocab", type=Path, default=DEFAULT_OUT / "vocab.txt")
    parser.add_argument("--max-height", type=int, default=TRAINED_MAX_HEIGHT,
                        help="taller renders are scaled to a random height in [2/3 of it, it] "
                             "(the engine brings large crops down to the default too)")
    args = parser.parse_args(argv)
    print(json.dumps(pack(args.renders, args.out, args.budget_mib, args.workers,
                                args.max_height, args.vocab)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
