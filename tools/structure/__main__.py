"""python -m tools.structure generate [--count N] [--seed S] [--families ...]
python -m tools.structure eval [--tools paperlens,text_layer,tesseract] [--families ...]
python -m tools.structure published [--count N] [--seed S] [--out DIR]"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from tools.structure.generate import ALL_FAMILIES, DEFAULT_OUT, generate

RESULTS = Path("docs/results/structure.json")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.structure")
    commands = parser.add_subparsers(dest="command", required=True)
    gen = commands.add_parser("generate", help="draw the structure set")
    gen.add_argument("--count", type=int, default=20, help="pages per family (default 20)")
    gen.add_argument("--seed", type=int, default=1)
    gen.add_argument("--out", type=Path, default=DEFAULT_OUT)
    gen.add_argument("--families", help="comma-separated subset of " + ",".join(ALL_FAMILIES))
    gen.add_argument("--only", help="comma-separated pages (family-nnn) of the set to draw")
    gen.add_argument("--no-scans", action="store_true",
                     help="the born-digital pages and their truth, without the scanned JPEGs")
    real = commands.add_parser(
        "published", help="real two-column pages of TeX Live's journal classes (their samples)")
    real.add_argument("--count", type=int, default=40, help="pages (default 40)")
    real.add_argument("--seed", type=int, default=1)
    real.add_argument("--out", type=Path, default=Path("build/published"))
    ev = commands.add_parser("eval", help="score Paperlens and the baselines on the set")
    ev.add_argument("--folder", type=Path, default=DEFAULT_OUT)
    ev.add_argument("--tools", default="paperlens,text_layer,tesseract")
    ev.add_argument("--families", help="comma-separated subset of " + ",".join(ALL_FAMILIES))
    ev.add_argument("--limit", type=int, help="at most this many pages (for quick checks)")
    ev.add_argument("--out", type=Path, default=RESULTS,
                    help=f"where the results go (default {RESULTS})")
    args = parser.parse_args(argv)
    if args.command == "generate":
        chosen = tuple(args.families.split(",")) if args.families else ALL_FAMILIES
        only = frozenset(args.only.split(",")) if args.only else None
        pages = generate(args.out, args.count, args.seed, chosen, only, not args.no_scans)
        print(f"{len(pages)} pages in {args.out}", file=sys.stderr)
        return 0
    if args.command == "published":
        from tools.structure.published import build

        try:
            pages = build(args.out, args.count, args.seed)
        except FileNotFoundError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        print(f"{len(pages)} pages in {args.out}", file=sys.stderr)
        return 0
    from tools.structure.evaluate import evaluate

    families = tuple(args.families.split(",")) if args.families else None
    result = evaluate(args.folder, tuple(args.tools.split(",")), families, args.limit)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    for key, row in result["summary"].items():
        print(f"{key:40} n={row['pages']:3} sim={row['similarity']:.3f} "
              f"min={row['min_similarity']:.3f} wordF1={row['word_f1']:.3f}")
    if result["math_faults"] is not None:
        from tools.eval.math_faults import summary_line

        print(summary_line(result["math_faults"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
