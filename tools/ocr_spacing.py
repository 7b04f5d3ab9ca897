"""`python -m tools.ocr_spacing`: word spaces on generated display lines, with and without
engine/ocr/spacing.py, to choose its thresholds on a broad set.

Lines of real prose words (the structure set's text source) are set in the base-14 fonts at
20-90 pt, in capitals or as written, with tracking from none to 0.5 em, rendered at 72-150 dpi,
some with a JPEG pass. Each line goes through the real detector and recogniser; the score is the
share of lines whose words (split on spaces, compared with the truth) all come out right, and
the word-sequence similarity. Writes docs/results/ocr_spacing.json."""

from __future__ import annotations

import argparse
import json
import random
import sys
from dataclasses import replace
from difflib import SequenceMatcher
from pathlib import Path

import cv2
import numpy as np
import pymupdf

FONTS = ("helv", "hebo", "tiro", "tibo", "cour", "cobo")
TRACKING_EM = (0.0, 0.0, 0.1, 0.2, 0.3, 0.4, 0.5)


def draw_line(words: list[str], font: str, size: float, tracking: float, dpi: int,
              jpeg: int | None) -> np.ndarray:
    text = " ".join(words)
    f = pymupdf.Font(font)
    width = sum(f.text_length(c, fontsize=size) + tracking * size for c in text) + 2 * size
    doc = pymupdf.open()
    page = doc.new_page(width=width, height=2.2 * size)
    x = size
    for char in text:
        page.insert_text((x, 1.5 * size), char, fontname=font, fontsize=size)
        x += f.text_length(char, fontsize=size) + tracking * size
    pix = page.get_pixmap(dpi=dpi)
    image = np.frombuffer(pix.samples, np.uint8).reshape(pix.height, pix.width, pix.n)[:, :, :3]
    if jpeg:
        ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, jpeg])
        image = cv2.imdecode(data, cv2.IMREAD_COLOR)
    return np.ascontiguousarray(image)


def samples(count: int, seed: int) -> list[dict]:
    from tools.structure.text_source import load_prose

    words = [w.strip(".,;:()'\"") for p in load_prose().paragraphs for w in p.split()]
    words = [w for w in words if w.isalpha() and 2 <= len(w) <= 12]
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        chosen = rng.sample(words, rng.randint(2, 5))
        if rng.random() < 0.6:
            chosen = [w.upper() for w in chosen]
        out.append({"words": chosen, "font": rng.choice(FONTS), "size": rng.uniform(20, 90),
                    "tracking": rng.choice(TRACKING_EM), "dpi": rng.choice((72, 100, 150)),
                    "jpeg": rng.choice((None, None, 60, 85))})
    return out


def read_pieces(reader, image: np.ndarray) -> list[tuple[str, tuple[int, ...], np.ndarray]]:
    """(text, CTC steps, crop) of each detected piece of the line, left to right: read once,
    so each threshold is tried on the same readings."""
    from engine.imaging import crop_quad, quad_bounds

    regions = sorted(reader.detector.detect(image), key=lambda r: quad_bounds(r.quad)[0])
    crops = [crop_quad(image, r.quad) for r in regions]
    return [(rec.text, rec.steps, crop)
            for rec, crop in zip(reader.recognizer.recognize(crops), crops)]


def joined(pieces, restore) -> str:
    texts = [restore(text, steps, crop)[0] if restore else text for text, steps, crop in pieces]
    return " ".join(t.strip() for t in texts if t.strip())


def score(truths: list[list[str]], reads: list[str]) -> dict[str, float]:
    exact = sum(r.split() == t for t, r in zip(truths, reads)) / len(truths)
    similarity = sum(SequenceMatcher(None, t, r.split(), autojunk=False).ratio()
                     for t, r in zip(truths, reads)) / len(truths)
    return {"lines_all_words_right": round(exact, 4), "word_similarity": round(similarity, 4)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.ocr_spacing")
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=Path("docs/results/ocr_spacing.json"))
    parser.add_argument("--ratios", default="1.6,2.0,2.5", help="WORD_GAP_RATIO candidates")
    parser.add_argument("--heights", default="0.15,0.22,0.3", help="WORD_GAP_HEIGHTS candidates")
    args = parser.parse_args(argv)

    from engine.api import Engine
    from functools import partial

    from engine.ocr.spacing import SPACING, restore_word_spaces
    from settings import SettingsStore

    reader = Engine(SettingsStore().load()).models.page_reader()
    items = samples(args.count, args.seed)
    readings = [read_pieces(reader, draw_line(s["words"], s["font"], s["size"], s["tracking"],
                                               s["dpi"], s["jpeg"])) for s in items]
    truths = [s["words"] for s in items]
    results = {"set": {"count": args.count, "seed": args.seed},
               "without": score(truths, [joined(r, None) for r in readings])}
    for ratio in (float(r) for r in args.ratios.split(",")):
        for height in (float(h) for h in args.heights.split(",")):
            rules = replace(SPACING, word_gap_ratio=ratio, word_gap_heights=height)
            restore = partial(restore_word_spaces, rules=rules)
            results[f"ratio {ratio} height {height}"] = score(
                truths, [joined(r, restore) for r in readings])
    for name, row in results.items():
        print(f"{name:28} {row}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
