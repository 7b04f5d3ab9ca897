"""Heading recall, precision and level accuracy of Paperlens on generated documents.

    python -m tools.headings [--seed 7] [--count 3] [--families ...] [--scans 0]
                             [--math-count 2] [--out build/headings]
                             [--results docs/results/headings.json]

The structure set (tools/structure, born-digital pages, `--count` per family, and the scanned
variants of the first `--scans` pages of each family, read by OCR) and sectioned
math documents (tools/mathset: pdfLaTeX articles of a few pages with a title and numbered
sections at three depths, `--math-count` per font family) are drawn at `--seed`, converted, and
their headings scored by tools/headings/score.py. Writes the results file, from which
`python -m tools.readme_tables` builds the README's heading table."""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

from tools.headings.score import score_headings, summary
from tools.mathset.generate import REPO, generate_sectioned
from tools.structure.generate import ALL_FAMILIES, generate

RESULTS = REPO / "docs" / "results" / "headings.json"


def measure(documents: list[tuple[str, str, Path, Path]], engine) -> list[dict]:
    """(set, family, input, truth Markdown) converted and scored, one row each."""
    from engine.options import ConvertOptions

    rows = []
    for name, family, source, truth in documents:
        markdown = engine.convert(str(source), ConvertOptions()).markdown
        rows.append({"set": name, "family": family, "document": source.name,
                     **score_headings(markdown, truth.read_text(encoding="utf-8")).row()})
        print(f"{source.name}: {rows[-1]['matched']}/{rows[-1]['truth']} found, "
              f"{rows[-1]['same_rank']} at their level", file=sys.stderr)
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.headings",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=7,
                        help="the sets' seed (default 7: not a seed the rules were chosen on)")
    parser.add_argument("--count", type=int, default=3, help="structure pages per family")
    parser.add_argument("--families", help="comma-separated subset of " + ",".join(ALL_FAMILIES))
    parser.add_argument("--scans", type=int, default=0,
                        help="scanned variants of this many pages per family (OCR: slower)")
    parser.add_argument("--math-count", type=int, default=2,
                        help="sectioned math documents per font family (0: none)")
    parser.add_argument("--out", type=Path, default=REPO / "build" / "headings")
    parser.add_argument("--results", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    families = tuple(args.families.split(",")) if args.families else ALL_FAMILIES
    structure = args.out / f"structure-{args.seed}"
    pages = generate(structure, args.count, args.seed, families, scans=False)
    documents = [("structure", page["family"], structure / f"{page['id']}.pdf",
                  structure / f"{page['id']}.md") for page in pages]
    if args.scans:
        scanned = frozenset(f"{family}-{n:03d}" for family in families
                            for n in range(min(args.scans, args.count)))
        folder = args.out / f"structure-scanned-{args.seed}"
        documents += [("structure_scanned", page["family"], folder / f"{page['id']}.scan.jpg",
                       folder / f"{page['id']}.md")
                      for page in generate(folder, args.count, args.seed, families, scanned)]
    if args.math_count:
        for pdf in generate_sectioned(args.out / f"math-{args.seed}", args.seed,
                                      args.math_count):
            meta = json.loads(pdf.with_suffix(".json").read_text(encoding="utf-8"))
            documents.append(("math", meta["family"], pdf, pdf.with_suffix(".md")))

    from engine.api import Engine
    from settings import SettingsStore

    rows = measure(documents, Engine(SettingsStore().load()))
    sets: dict[str, dict] = {}
    for name in dict.fromkeys(row["set"] for row in rows):
        of_set = [row for row in rows if row["set"] == name]
        by_family: dict[str, list[dict]] = defaultdict(list)
        for row in of_set:
            by_family[row["family"]].append(row)
        sets[name] = {"all": summary(of_set),
                      "families": {family: summary(group) for family, group in by_family.items()}}
    results = {"seed": args.seed, "count": args.count, "scans": args.scans,
               "math_count": args.math_count,
               "sets": sets, "documents": rows}
    args.results.parent.mkdir(parents=True, exist_ok=True)
    args.results.write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n",
                            encoding="utf-8")
    for name, row in sets.items():
        print(name, row["all"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
