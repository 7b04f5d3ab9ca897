"""`python -m tools.handwriting generate [--count N] [--seed S]` draws the set into
build/handwriting/seed-S/; `python -m tools.handwriting evaluate [--seed S]` reads its pages,
the structure set's scans and the dev set with the engine's OCR and scores the handwriting
detector (docs/handwriting.md)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tools.handwriting.generate import DEFAULT_ROOT, generate


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.handwriting")
    sub = parser.add_subparsers(dest="command", required=True)
    gen = sub.add_parser("generate", help="draw the set into build/handwriting/seed-S")
    gen.add_argument("--count", type=int, default=40, help="pages of each label (default 40)")
    gen.add_argument("--seed", type=int, default=1)
    gen.add_argument("--root", type=Path, default=DEFAULT_ROOT)
    gen.add_argument("--debian-fonts-only", action="store_true",
                     help="leave out the @fontsource fonts (no npm needed; a different set)")
    ev = sub.add_parser("evaluate", help="score the detector on a seed, the structure scans "
                                         "and the dev set")
    ev.add_argument("--seed", type=int, default=1)
    ev.add_argument("--root", type=Path, default=DEFAULT_ROOT)
    ev.add_argument("--structure", type=Path, default=None,
                    help="the structure set's folder (default: build/structure for seed 1, "
                         "build/structure-seed<S> otherwise)")
    ev.add_argument("--structure-per-family", type=int, default=4,
                    help="scanned pages of each structure family (default 4)")
    ev.add_argument("--dev", type=Path, default=Path("../shared/eval/dev"))
    ev.add_argument("--no-dev", action="store_true")
    ev.add_argument("--json", type=Path, default=None, help="write every page's features here")
    choose = sub.add_parser("choose", help="the detector's thresholds as chosen on a seed")
    choose.add_argument("--seed", type=int, default=1)
    choose.add_argument("--root", type=Path, default=DEFAULT_ROOT)
    choose.add_argument("--structure", type=Path, default=None)
    choose.add_argument("--structure-per-family", type=int, default=4)
    args = parser.parse_args(argv)
    if args.command == "generate":
        pages = generate(args.root, args.count, args.seed, npm_fonts=not args.debian_fonts_only)
        print(f"{len(pages)} pages in {args.root / f'seed-{args.seed}'}")
        return 0
    from tools.handwriting.evaluate import collect, evaluate
    if args.command == "choose":
        from tools.handwriting.choose import report

        args.no_dev, args.dev = True, None
        report(collect(args))
        return 0
    return evaluate(args)


if __name__ == "__main__":
    sys.exit(main())
