"""The packed render set on the training device: images decoded from the pack's parts, scaled
to the model's height, bucketed by padded width and sorted by token length, and batches drawn
from them (tools/formula/train.py trains on them)."""

from __future__ import annotations

import json
import lzma
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import torch

from tools.formula.model import HEIGHT, MAX_WIDTH, WIDTH_STEP

ROOT = Path(__file__).resolve().parents[2]
VOCAB = ROOT / "resources" / "formula" / "vocab.txt"
PAD, BOS, EOS, UNK = 0, 1, 2, 3
PIXELS_PER_BATCH = 512 * 64 * 384


def load_vocab(path: Path = VOCAB) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def _decode_part(args):
    path, levels, shapes = args
    raw = np.frombuffer(lzma.decompress(Path(path).read_bytes()), np.uint8)
    out, pos = [], 0
    import cv2
    for h, w in shapes:
        img = raw[pos:pos + h * w].reshape(h, w)
        pos += h * w
        ink = (levels - 1 - img).astype(np.float32) * (255.0 / (levels - 1))  # ink bright
        width = max(8, round(w * HEIGHT / h))
        if width > MAX_WIDTH:
            height = max(8, round(h * MAX_WIDTH / w))
            small = cv2.resize(ink, (MAX_WIDTH, height), interpolation=cv2.INTER_AREA)
            canvas = np.zeros((HEIGHT, MAX_WIDTH), np.float32)
            top = (HEIGHT - height) // 2
            canvas[top:top + height] = small
            ink = canvas
        else:
            ink = cv2.resize(ink, (width, HEIGHT), interpolation=cv2.INTER_LINEAR)
        out.append(np.clip(ink, 0, 255).astype(np.uint8))
    return out


class Buckets:
    """Images grouped by padded width and sorted by token length, kept on the training device."""

    def __init__(self, data: Path, vocab: list[str], device: torch.device, workers: int):
        index = json.loads(lzma.decompress((data / "index.json.xz").read_bytes()))
        ids = {t: i for i, t in enumerate(vocab)}
        jobs = [(str(data / p["file"]), p["levels"], p["shapes"]) for p in index["parts"]]
        images: list[np.ndarray] = []
        with ProcessPoolExecutor(workers) as pool:
            for part in pool.map(_decode_part, jobs):
                images.extend(part)
        labels = [[ids.get(t, UNK) for t in toks.split()] for p in index["parts"]
                  for toks in p["tokens"]]
        groups: dict[int, list[int]] = {}
        for i, img in enumerate(images):
            width = min(MAX_WIDTH, -(-(img.shape[1] + 8) // WIDTH_STEP) * WIDTH_STEP)
            groups.setdefault(width, []).append(i)
        self.buckets = []
        for width, members in sorted(groups.items()):
            # A batch is a window of similar lengths; ties are scrambled so that renders of one
            # formula do not sit side by side.
            members.sort(key=lambda i: (len(labels[i]), (i * 2654435761) % 2 ** 32))
            pixels = np.zeros((len(members), HEIGHT, width), np.uint8)
            longest = max(len(labels[i]) for i in members) + 2
            tokens = np.zeros((len(members), longest), np.int64)
            for row, i in enumerate(members):
                img = images[i][:, :width]
                pixels[row, :, :img.shape[1]] = img
                seq = [BOS, *labels[i], EOS]
                tokens[row, :len(seq)] = seq
            self.buckets.append({
                "width": width, "pixels": torch.from_numpy(pixels).to(device),
                "lengths": (tokens != PAD).sum(1),
                "widths": torch.tensor([min(width, images[i].shape[1]) for i in members],
                                       device=device),
                "tokens": torch.from_numpy(tokens).to(device)})
        self.count = len(images)
        self.weights = np.array([len(b["tokens"]) for b in self.buckets], np.float64)
        self.weights /= self.weights.sum()

    def batch(self, rng: np.random.Generator, limit: int | None = None):
        b = self.buckets[rng.choice(len(self.buckets), p=self.weights)]
        size = max(8, min(1024, PIXELS_PER_BATCH // (HEIGHT * b["width"])))
        if limit:
            size = min(size, limit)
        count = len(b["tokens"])
        if count > size:  # consecutive rows: similar lengths, so little padding to compute on
            rows = rng.integers(0, count - size + 1) + np.arange(size)
        else:
            rows = rng.integers(0, count, size)
        length = int(b["lengths"][rows].max())  # on the host: no device round trip per step
        idx = torch.from_numpy(rows).to(b["tokens"].device)
        return b["pixels"][idx], b["widths"][idx], b["tokens"][idx, :length]
