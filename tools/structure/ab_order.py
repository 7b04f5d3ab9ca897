"""A/B of reading-order functions on stored page blocks, without running any model again.

`python -m tools.structure.ab_order collect` converts the set once and keeps each page's blocks
before ordering (build/structure/blocks.pkl); `score` re-orders them with each candidate and
scores the Markdown against the truth, in seconds."""

from __future__ import annotations

import argparse
import pickle
import statistics
import sys
from collections import defaultdict
from pathlib import Path

from tools.structure.generate import DEFAULT_OUT


def collect(folder: Path, variants: tuple[str, ...]) -> Path:
    """Every page converted once; the unordered blocks of each kept beside the set."""
    import json

    from engine.api import Engine
    from engine.options import ConvertOptions
    from engine.structure import assembly
    from settings import SettingsStore

    captured: list[list] = []
    original = assembly.order_blocks

    def capture(blocks):
        captured.append(list(blocks))
        return original(blocks)

    assembly.order_blocks = capture
    engine = Engine(SettingsStore().load())
    pages = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))["pages"]
    stored = []
    try:
        for page in pages:
            for variant in variants:
                path = folder / (f"{page['id']}.pdf" if variant == "digital"
                                 else f"{page['id']}.scan.jpg")
                captured.clear()
                result = engine.convert(path, ConvertOptions())
                stored.append({"id": page["id"], "family": page["family"], "variant": variant,
                               "unordered": captured[-1] if captured else [],
                               "page": result.pages[0]})
    finally:
        assembly.order_blocks = original
    out = folder / "blocks.pkl"
    out.write_bytes(pickle.dumps(stored))
    return out


def score(folder: Path, candidates: dict) -> dict[str, dict[str, float]]:
    from dataclasses import replace

    from engine.output.markdown import render_markdown
    from engine.structure.assembly import footnotes_last, label_captions, place_captions
    from tools.eval.scoring import text_similarity

    stored = pickle.loads((folder / "blocks.pkl").read_bytes())
    table: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for item in stored:
        truth = (folder / f"{item['id']}.md").read_text(encoding="utf-8")
        for name, order in candidates.items():
            blocks = footnotes_last(place_captions(label_captions(order(item["unordered"]))))
            page = replace(item["page"], blocks=tuple(blocks))
            sim = text_similarity(render_markdown([page]), truth)
            table[name][f"{item['family']}/{item['variant']}"].append(sim)
    return {name: {key: round(statistics.fmean(v), 4) for key, v in sorted(rows.items())}
            for name, rows in table.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.structure.ab_order")
    parser.add_argument("command", choices=("collect", "score"))
    parser.add_argument("--folder", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--variants", default="digital,scanned")
    args = parser.parse_args(argv)
    if args.command == "collect":
        print(collect(args.folder, tuple(args.variants.split(","))))
        return 0
    from engine.structure.reading_order import order_blocks

    for name, rows in score(args.folder, {"current": order_blocks}).items():
        for key, value in rows.items():
            print(f"{name:10} {key:24} {value:.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
