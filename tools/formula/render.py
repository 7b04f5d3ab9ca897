"""Renders corpus formulas with TeX Live into training images: parallel, resumable, cached.

    python -m tools.formula.render --count 60000 [--workers N] [--out build/formula/renders]
    python -m tools.formula.render --structures 2 --out build/formula/renders-structures
    python -m tools.formula.render --renderer katex --count 16000 --out build/formula/renders-katex

Formulas are drawn from the training split with per-source weights (the Stacks Project is half of
the corpus but should not be half of what the model sees). They are typeset in chunks of 128, one
page per formula (``preview`` package), in one of several font set-ups (Computer Modern, Latin
Modern, Times, Palatino, sans-serif math, ...) and in display or text style, rasterised by
``dvipng`` at a chunk-specific resolution, cropped to the ink and stored as 16-level grey PNGs of
32-60 px height. A chunk is written as ``chunk-NNNNN.bin`` (the PNGs end to end) plus
``chunk-NNNNN.json`` (offsets and normalised token strings), the JSON last; a chunk whose JSON
exists is never rendered again, so an interrupted run resumes where it stopped. With
``--renderer katex`` the formulas are typeset by KaTeX in headless Chromium instead (katex.py).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import subprocess
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import cv2
import numpy as np

from tools.formula import katex
from tools.formula.corpus import DEFAULT_OUT

CHUNK = 128
STORE_HEIGHT = (32, 60)
BASE = r"""\documentclass[11pt]{article}
\usepackage[T1]{fontenc}
\usepackage{amsmath,amssymb,mathtools,bm,mathrsfs,upgreek,cancel,slashed,nicefrac}
%s
\usepackage[active,tightpage]{preview}
\setlength\PreviewBorder{2pt}
\pagestyle{empty}
\begin{document}
"""
# (name, preamble lines, weight). Each set-up must typeset the whole Tier-B corpus.
FONTS = [
    ("cm", "", 40),
    ("lmodern", r"\usepackage{lmodern}", 12),
    ("times", r"\usepackage{mathptmx}", 10),
    ("newtx", r"\usepackage{newtxtext,newtxmath}", 8),
    ("palatino", r"\usepackage{mathpazo}", 8),
    ("sans", r"\usepackage{sansmathfonts}\renewcommand{\familydefault}{\sfdefault}", 8),
    ("kpfonts", r"\usepackage{kpfonts}", 6),
    ("euler", r"\usepackage{eulervm}", 4),
    ("fourier", r"\usepackage{fourier}", 4),
]
# Share of each corpus file in what is rendered (arXiv physics is what papers look like).
SOURCE_WEIGHTS = {
    "im2latex100k_val_test": 22, "texnet_arxiv2018_test": 14, "latex_in_arxiv_equations": 14,
    "latex_in_arxiv_hep_arrays": 8, "crohme2014_captions": 4, "lebl_diffyqs": 5,
    "lebl_basic_analysis": 5, "crowell_light_and_matter": 6, "d2l_en": 4, "stacks_project": 18,
}


def select(formulas: Path, count: int, seed: int, split: str = "train") -> list[dict]:
    """``count`` training formulas drawn per source by weight, without repeats while a source lasts."""
    by_source: dict[str, list[dict]] = {}
    with open(formulas, encoding="utf-8") as fh:
        for line in fh:
            r = json.loads(line)
            if r["split"] == split:
                by_source.setdefault(r["source"], []).append(r)
    rng = random.Random(seed)
    for items in by_source.values():
        rng.shuffle(items)
    total = sum(SOURCE_WEIGHTS.get(s, 1) for s in by_source)
    picked: list[dict] = []
    for source, items in sorted(by_source.items()):
        want = round(count * SOURCE_WEIGHTS.get(source, 1) / total)
        picked.extend(items[i % len(items)] for i in range(want))
    rng.shuffle(picked)
    return picked[:count]


# Structures a reader meets in papers that are rare in the corpus (\binom in 124 of 237,383
# training formulas, \begin{cases} in 201, \overbrace in 14): `--structures N` renders every
# training formula holding one N times, each time in another chunk's font set-up and size.
STRUCTURES = frozenset([
    "\\binom", "\\overbrace", "\\underbrace", "\\stackrel", "\\overset", "\\underset",
    "\\not", "\\notin", "\\xrightarrow", "\\xleftarrow", "\\substack", "\\boxed", "\\cancel",
    "\\begin{cases}", "\\begin{aligned}", "\\begin{gathered}", "\\begin{matrix}",
    "\\begin{pmatrix}", "\\begin{bmatrix}", "\\begin{vmatrix}", "\\begin{Bmatrix}",
])


def select_structures(formulas: Path, repeats: int, seed: int, split: str = "train") -> list[dict]:
    """Every formula of the split that holds one of STRUCTURES, `repeats` times, shuffled."""
    with open(formulas, encoding="utf-8") as fh:
        rows = [r for r in map(json.loads, fh)
                if r["split"] == split and STRUCTURES.intersection(r["tokens"])]
    picked = rows * repeats
    random.Random(seed).shuffle(picked)
    return picked


def _chunk_setup(index: int, seed: int) -> dict:
    rng = random.Random(seed * 100003 + index)
    names = [f[0] for f in FONTS]
    font = rng.choices(names, weights=[f[2] for f in FONTS])[0]
    return {"font": font, "display": rng.random() < 0.7, "dpi": rng.choice([150, 200, 250, 300]),
            "seed": rng.randrange(1 << 30)}


def _typeset(formulas: list[str], setup: dict, work: Path) -> list[np.ndarray | None]:
    preamble = dict((f[0], f[1]) for f in FONTS)[setup["font"]]
    style = r"\displaystyle " if setup["display"] else ""
    lines = [BASE % preamble]
    first_line = lines[0].count("\n") + 1
    for f in formulas:
        lines.append("\\begin{preview}$%s%s$\\end{preview}\n" % (style, f.replace("\n", " ")))
    lines.append("\\end{document}\n")
    (work / "f.tex").write_text("".join(lines), encoding="utf-8")
    run = subprocess.run(["latex", "-interaction=nonstopmode", "f.tex"], cwd=work,
                         capture_output=True, timeout=300)
    log = (work / "f.log").read_text(encoding="latin-1") if (work / "f.log").exists() else ""
    bad = {int(m) - first_line for m in re.findall(r"^l\.(\d+)", log, re.M)}
    if not (work / "f.dvi").exists():
        return [None] * len(formulas)
    subprocess.run(["dvipng", "-q", "-D", str(setup["dpi"]), "-T", "tight", "-bg", "White",
                    "-fg", "Black", "-z", "1", "-o", "p%05d.png", "f.dvi"], cwd=work,
                   capture_output=True, timeout=300)
    pages = sorted(work.glob("p*.png"))
    if len(pages) != len(formulas) or run.returncode not in (0, 1):
        return [None] * len(formulas)
    out: list[np.ndarray | None] = []
    for i, page in enumerate(pages):
        img = cv2.imread(str(page), cv2.IMREAD_GRAYSCALE)
        out.append(None if i in bad or img is None else img)
    return out


def store_image(img: np.ndarray, rng: random.Random) -> np.ndarray | None:
    """Crops to the ink, pads a little, scales to the stored height and quantises to 16 levels."""
    ink = np.argwhere(img < 200)
    if ink.size == 0:
        return None
    (y0, x0), (y1, x1) = ink.min(0), ink.max(0) + 1
    img = img[y0:y1, x0:x1]
    pad = max(1, round(img.shape[0] * rng.uniform(0.03, 0.15)))
    img = cv2.copyMakeBorder(img, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=255)
    height = rng.randint(*STORE_HEIGHT)
    scale = height / img.shape[0]
    width = max(1, round(img.shape[1] * scale))
    if width > 1600:
        return None
    img = cv2.resize(img, (width, height), interpolation=cv2.INTER_AREA)
    return (img // 17 * 17).astype(np.uint8)


def render_chunk(args: tuple[int, list[dict], Path, int, str]) -> int:
    index, records, out, seed, renderer = args
    meta_path = out / f"chunk-{index:05d}.json"
    if meta_path.exists():
        return 0
    setup = _chunk_setup(index, seed)
    rng = random.Random(setup["seed"])
    with tempfile.TemporaryDirectory() as tmp:
        latex = [r["latex"] for r in records]
        if renderer == "katex":
            setup = {"renderer": "katex", "seed": setup["seed"]}
            images = katex.typeset(latex, setup["seed"], Path(tmp))
        else:
            images = _typeset(latex, setup, Path(tmp))
    blobs, items = [], []
    offset = 0
    for r, img in zip(records, images):
        stored = None if img is None else store_image(img, rng)
        if stored is None:
            continue
        ok, png = cv2.imencode(".png", stored, [cv2.IMWRITE_PNG_COMPRESSION, 9])
        if not ok:
            continue
        blobs.append(png.tobytes())
        items.append({"offset": offset, "size": len(blobs[-1]), "tokens": " ".join(r["tokens"])})
        offset += len(blobs[-1])
    (out / f"chunk-{index:05d}.bin").write_bytes(b"".join(blobs))
    tmp_meta = meta_path.with_suffix(".json.tmp")
    tmp_meta.write_text(json.dumps({"setup": setup, "items": items}), encoding="utf-8")
    os.replace(tmp_meta, meta_path)
    return len(items)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=60000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--split", choices=["train", "val"], default="train")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--formulas", type=Path, default=DEFAULT_OUT / "formulas.jsonl")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT / "renders")
    parser.add_argument("--structures", type=int, metavar="N",
                        help="instead of --count by source: every formula with a rare structure "
                             "(STRUCTURES), N times")
    parser.add_argument("--renderer", choices=["tex", "katex"], default="tex",
                        help="TeX Live (font set-ups of FONTS) or KaTeX in headless Chromium")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    picked = (select_structures(args.formulas, args.structures, args.seed, args.split)
              if args.structures else select(args.formulas, args.count, args.seed, args.split))
    jobs = [(i // CHUNK, picked[i:i + CHUNK], args.out, args.seed, args.renderer)
            for i in range(0, len(picked), CHUNK)]
    start, done = time.monotonic(), 0
    with ProcessPoolExecutor(args.workers) as pool:
        for n, made in enumerate(pool.map(render_chunk, jobs), 1):
            done += made
            if n % 10 == 0 or n == len(jobs):
                print(f"{n}/{len(jobs)} chunks, {done} new images, "
                      f"{time.monotonic() - start:.0f} s", flush=True)
    size = sum(p.stat().st_size for p in args.out.glob("chunk-*.bin"))
    print(f"renders: {size / 2**20:.1f} MiB in {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
