"""Tables across pages: generated documents converted by the real engine, joins scored.

    python -m tools.xtables [--seed 1] [--count 8] [--scans 2] [--out build/xtables]
                            [--results docs/results/xtables.json]

Writes `count` documents of every family (tools/xtables/generate.py) and a scanned copy of the
first `scans` of each into build/xtables/seed-S, converts each with the default options and
writes docs/results/xtables.json, from which `python -m tools.readme_tables` builds the
README's table."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from tools.xtables.generate import REPO, generate
from tools.xtables.measure import measure


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m tools.xtables")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=8, help="documents per family")
    parser.add_argument("--scans", type=int, default=2,
                        help="scanned copies of the first documents of each family")
    parser.add_argument("--out", type=Path, default=REPO / "build" / "xtables")
    parser.add_argument("--results", type=Path, default=REPO / "docs" / "results" / "xtables.json")
    args = parser.parse_args()
    folder = args.out / f"seed-{args.seed}"
    generate(folder, args.seed, args.count, args.scans)

    from engine.api import Engine
    from settings import SettingsStore

    results = {"seed": args.seed, "count": args.count, "scans": args.scans,
               **measure(folder, Engine(SettingsStore().load()))}
    args.results.parent.mkdir(parents=True, exist_ok=True)
    args.results.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    for name, row in results["summary"].items():
        print(name, row)


if __name__ == "__main__":
    main()
