"""Corpus -> normalised token sequences, the fixed vocabulary, and a train/validation split.

    python -m tools.formula.corpus [--corpus ../shared/formula/corpus] [--eval ../shared/eval]
                                   [--out build/formula]

Writes ``build/formula/formulas.jsonl`` (one record per usable formula: source file, raw LaTeX,
normalised tokens, split) and ``build/formula/vocab.txt`` (the vocabulary a model trained on these
renders will have; the pack carries it to training, the weights carry it to export, and export
writes it beside the ONNX graphs in resources/formula). The split is by formula (hash of the normalised
text), so no formula is in both halves.

No formula of the evaluation sets reaches either half: every corpus formula whose canonical form
(``engine.formulas.latex_tokens.normalized``, the form the evaluation scores exact matches in)
equals that of a truth of ``../shared/eval/formula`` or of a dev-set formula crop
(``../shared/eval/dev``, items with LaTeX truth) is dropped before the vocabulary is counted. The
truths are read at build time, the way ``python -m tools.eval formula`` reads them; without
them the build stops.
"""

from __future__ import annotations

import argparse
import collections
import hashlib
import json
from collections.abc import Collection
from pathlib import Path

from engine.formulas.latex_tokens import normalized
from tools.eval.formula_items import load_dev_crops, load_formula_set

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_CORPUS = ROOT.parent / "shared" / "formula" / "corpus"
DEFAULT_EVAL = ROOT.parent / "shared" / "eval"
DEFAULT_OUT = ROOT / "build" / "formula"
VOCAB = DEFAULT_OUT / "vocab.txt"
SPECIALS = ["<pad>", "<bos>", "<eos>", "<unk>"]
MAX_TOKENS = 200
MIN_COUNT = 8
VALIDATION_PERCENT = 2


def split_of(tokens: list[str]) -> str:
    digest = hashlib.sha1(" ".join(tokens).encode()).digest()
    return "val" if digest[0] * 100 // 256 < VALIDATION_PERCENT else "train"


def canonical_key(latex: str) -> str:
    """A formula's canonical form as one string: equal keys, equal formulas for the evaluation."""
    return " ".join(normalized(latex))


def eval_truths(eval_dir: Path = DEFAULT_EVAL) -> list[str]:
    """Every LaTeX truth the evaluation scores: the formula set's (``formula/manifest.json``) and
    the dev set's formula crops (``dev/manifest.json``, items whose truth format is LaTeX), read
    with the evaluation's own loaders. Raises FileNotFoundError when either manifest is missing."""

    formula_set, dev_manifest = eval_dir / "formula", eval_dir / "dev" / "manifest.json"
    for manifest in (formula_set / "manifest.json", dev_manifest):
        if not manifest.is_file():
            raise FileNotFoundError(f"no evaluation manifest at {manifest}: the corpus must "
                                    "leave out the evaluation's formulas (--eval)")
    items = [*load_formula_set(formula_set), *load_dev_crops(dev_manifest)]
    return [item.truth for item in items]


def eval_keys(eval_dir: Path = DEFAULT_EVAL) -> frozenset[str]:
    """The canonical forms of every evaluation truth (see eval_truths)."""
    return frozenset(canonical_key(truth) for truth in eval_truths(eval_dir))


def build(corpus: Path, out: Path, vocab_path: Path, *, excluded: Collection[str],
          min_count: int = MIN_COUNT) -> dict:
    """Writes formulas.jsonl and the vocabulary; `excluded` holds canonical keys (canonical_key)
    of formulas that must not be in any split: pass eval_keys()."""
    excluded = frozenset(excluded)
    records = []
    counts: collections.Counter[str] = collections.Counter()
    dropped_lines = 0
    dropped: set[str] = set()
    for path in sorted(corpus.glob("*.txt")):
        for line in path.read_text(encoding="utf-8").splitlines():
            line = line.strip()
            if not line:
                continue
            tokens = normalized(line)
            if not tokens or len(tokens) > MAX_TOKENS:
                continue
            key = " ".join(tokens)
            if key in excluded:  # an evaluation truth, however it is spelled here
                dropped_lines += 1
                dropped.add(key)
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
    return {"read": len(records) + dropped_lines, "kept": len(seen), "vocab": len(vocab),
            "eval_formulas": len(excluded), "excluded_formulas": len(dropped),
            "excluded_lines": dropped_lines, "per_source": dict(stats)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--eval", type=Path, default=DEFAULT_EVAL,
                        help="the evaluation sets whose formulas are left out (formula/ and "
                             "dev/ inside it; default ../shared/eval)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--vocab", type=Path, default=VOCAB)
    args = parser.parse_args(argv)
    try:
        excluded = eval_keys(args.eval)
    except FileNotFoundError as error:
        parser.error(str(error))
    print(json.dumps(build(args.corpus, args.out, args.vocab, excluded=excluded), indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
