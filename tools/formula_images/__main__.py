"""`python -m tools.formula_images generate|measure|replay`: see generate.py and measure.py."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tools.formula_images.generate import DEFAULT_ROOT


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.formula_images",
                                     description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    make = commands.add_parser("generate", help="write a labelled set of both kinds")
    make.add_argument("--seed", type=int, default=1)
    make.add_argument("--formulas", type=int, default=250)
    make.add_argument("--texts", type=int, default=250)
    make.add_argument("--out", type=Path, help="default: build/formula_images/seed-<seed>")
    measure = commands.add_parser("measure", help="score the rule on a generated set")
    measure.add_argument("set", type=Path, help="a folder written by `generate`")
    measure.add_argument("--out", type=Path, help="default: <set>/measured.json")
    measure.add_argument("--limit", type=int, help="only the first N items of each kind")
    again = commands.add_parser("replay", help="the present rule on an earlier measure run's "
                                               "recorded facts, without converting")
    again.add_argument("measured", type=Path, help="a JSON file written by `measure`")
    again.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                       help="a field of FormulaImageRules (engine/formulas/image_rules.py) "
                            "changed for this replay")
    args = parser.parse_args(argv)
    if args.command == "generate":
        from tools.formula_images.generate import generate

        out = args.out or DEFAULT_ROOT / f"seed-{args.seed}"
        records = generate(out, args.seed, args.formulas, args.texts)
        print(f"{len(records)} images in {out}")
        return 0
    if args.command == "replay":
        import json

        from engine.formulas.image_rules import FORMULA_IMAGE
        from tools.formula_images.measure import replay
        from tools.rule_variants import with_changes

        summary = replay(args.measured, with_changes(FORMULA_IMAGE, args.set))
        print(json.dumps(summary, indent=1))
        return 0
    from tools.formula_images.measure import main as measure_main

    return measure_main(args.set, args.out or args.set / "measured.json", args.limit)


if __name__ == "__main__":
    sys.exit(main())
