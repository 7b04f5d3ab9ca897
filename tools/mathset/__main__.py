"""Born-digital math pages with inline formulas: generated, converted and scored.

    python -m tools.mathset [--seed 1] [--count 4] [--out build/mathset] [--results FILE]

Needs pdfLaTeX (make formula-sysdeps) and the formula corpus beside the repository; writes
docs/results/mathset.json, from which `python -m tools.readme_tables` builds the README's table."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from tools.eval.math_faults import summary_line
from tools.mathset.generate import REPO, generate
from tools.mathset.measure import measure


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m tools.mathset")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=4, help="pages per family and columns")
    parser.add_argument("--out", type=Path, default=REPO / "build" / "mathset")
    parser.add_argument("--results", type=Path, default=REPO / "docs" / "results" / "mathset.json")
    args = parser.parse_args()
    folder = args.out / f"seed-{args.seed}"
    generate(folder, args.seed, args.count)

    from engine.api import Engine
    from settings import SettingsStore

    results = {"seed": args.seed, **measure(folder, Engine(SettingsStore().load()))}
    args.results.parent.mkdir(parents=True, exist_ok=True)
    args.results.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    for name, row in results["families"].items():
        print(name, row)
    print(summary_line(results["math_faults"]))


if __name__ == "__main__":
    main()
