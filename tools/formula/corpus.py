"""Corpus -> normalised token sequences, the fixed vocabulary, and a train/validation split.

    python -m tools.formula.corpus [--corpus ../shared/formula/corpus] [--out build/formula]

Writes ``build/formula/formulas.jsonl`` (one record per usable formula: source file, raw LaTeX,
normalised tokens, split) and ``build/formula/vocab.txt`` (the vocabulary a model trained on these
renders will have; the pack carries it to training, the weights carry it to export, and export
writes it beside the ONNX graphs in resources/formula). The split is by formula (hash of the normalised
text), so no formula is in both halves.
"""

from __future__ import annotations

import argparse
import collections
import hashlib
import json
from pathlib import Path

from engine.formulas.latex_tokens import normalized

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_CORPUS = ROOT.parent / "shared" / "formula" / "corpus"
DEFAULT_OUT = ROOT / "build" / "formula"
VOCAB = DEFAULT_OUT / "vocab.txt"
SPECIALS = ["<pad>", "<bos>", "<eos>", "<unk>"]
MAX_TOKENS = 200
MIN_COUNT = 8
VALIDATION_PERCENT = 2


def split_of(tokens: list[str]) -> str:
    digest = hashlib.sha1(" ".join(tokens).encode()).digest()
    return "val" if digest[0] * 100 // 256 < VALIDATION_PERCENT else "train"


def build(corpus: Path, out: Path, vocab_path: Path, min_count: int = MIN_COUNT) -> dict:
    records = []
    counts: collections.Counter[str] = collections.Counter()
    for path in sorted(corpus.glob("*.txt")):
        for line in path.read_text(encoding="utf-8").splitlines():
            line = line.strip()
            if not line:
                continue
            tokens = normalized(line)
            if not tokens or len(tokens) > MAX_TOKENS:
                continue
            counts.update(tokens)
            records.append({"source": path.stem, "latex": line, "tokens": tokens})
    vocab = SPECIALS + sorted(t for t, n in counts.items() if n >= min_count)
    known = set(vocab)
    kept = [r for r in records if all(t in known for t in r["tokens"])]
    seen: set[str] = set()
    out.mkdir(parents=True, exist_ok=True)
    stats: collections.Counter[str] = collections.Counter()
    with open(out / "formulas.jsonl", "w", encoding="utf-8") as fh:
        for r in kept:
            key = " ".join(r["tokens"])
            if key in seen:  # distinct raw spellings with one canonical form count once
                continue
            seen.add(key)
            r["split"] = split_of(r["tokens"])
            stats[f"{r['source']}:{r['split']}"] += 1
            fh.write(json.dumps(r, ensure_ascii=True) + "\n")
    vocab_path.parent.mkdir(parents=True, exist_ok=True)
    vocab_path.write_text("\n".join(vocab) + "\n", encoding="utf-8")
    return {"read": len(records), "kept": len(seen), "vocab": len(vocab), "per_source": dict(stats)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--vocab", type=Path, default=VOCAB)
    args = parser.parse_args(argv)
    print(json.dumps(build(args.corpus, args.out, args.vocab), indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
