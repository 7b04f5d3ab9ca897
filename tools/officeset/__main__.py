"""Office documents with known truth: generated, converted from their markup and scored, and
converted again as the PDFs LibreOffice lays them out as.

    python -m tools.officeset [--seed 1] [--count 2] [--out build/officeset] [--results FILE]
                              [--no-pdf] [--docling build/docling-venv/bin/python]

Needs LibreOffice (Writer, Calc and Impress: `apt-get install libreoffice-writer-nogui
libreoffice-calc-nogui libreoffice-impress-nogui`) for the documents it saves again and the
PDFs; writes docs/results/officeset.json, from which `python -m tools.readme_tables` builds the
README's table."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from tools.officeset.generate import REPO, generate
from tools.officeset.measure import measure


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m tools.officeset")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=2, help="documents per family")
    parser.add_argument("--out", type=Path, default=REPO / "build" / "officeset")
    parser.add_argument("--results", type=Path,
                        default=REPO / "docs" / "results" / "officeset.json")
    parser.add_argument("--no-pdf", action="store_true",
                        help="skip the LibreOffice PDF comparison")
    parser.add_argument("--docling", type=Path, metavar="PYTHON",
                        help="the Python of a virtual environment with docling, to score it on "
                             "the same documents (tools/officeset/docling_side.py)")
    args = parser.parse_args()
    folder = args.out / f"seed-{args.seed}"
    generate(folder, args.seed, args.count)

    from engine.api import Engine
    from settings import SettingsStore

    results = {"seed": args.seed, "count": args.count,
               **measure(folder, Engine(SettingsStore().load()), not args.no_pdf)}
    if args.docling:
        from tools.officeset.docling_side import measure_docling
        from tools.officeset.measure import load_items

        results["docling"] = measure_docling(folder, load_items(folder), args.docling)
    args.results.parent.mkdir(parents=True, exist_ok=True)
    args.results.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    for name, row in results["families"].items():
        print(name, row)


if __name__ == "__main__":
    main()
