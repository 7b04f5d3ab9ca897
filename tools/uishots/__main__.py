"""python -m tools.uishots generate [--count N] [--seed S] [--out DIR]
python -m tools.uishots eval [--folder DIR] [--tools paperlens,tesseract] [--out FILE]
python -m tools.uishots all [--count N] [--seed S]   (generate, eval, README table)

Screenshots drawn by headless Chromium (code in four languages, a chat, a settings dialog, a
web article; 100% and 200%), their truth the HTML's text; not the GUI's own screenshots
(tools/screenshots.py)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from tools.uishots.generate import DEFAULT_OUT, generate

RESULTS = Path("docs/results/uishots.json")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.uishots")
    commands = parser.add_subparsers(dest="command", required=True)
    for name in ("generate", "all"):
        gen = commands.add_parser(name)
        gen.add_argument("--count", type=int, default=2, help="pages per family (default 2)")
        gen.add_argument("--seed", type=int, default=1)
        gen.add_argument("--out", type=Path, default=DEFAULT_OUT)
        if name == "all":
            gen.add_argument("--results", type=Path, default=RESULTS)
    ev = commands.add_parser("eval", help="score Paperlens and Tesseract on the set")
    ev.add_argument("--folder", type=Path, default=DEFAULT_OUT)
    ev.add_argument("--tools", default="paperlens,tesseract")
    ev.add_argument("--limit", type=int, help="at most this many shots (for quick checks)")
    ev.add_argument("--results", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    if args.command in ("generate", "all"):
        from tools.uishots.draw import NoBrowser

        try:
            shots = generate(args.out, args.count, args.seed)
        except NoBrowser as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        print(f"{len(shots)} screenshots in {args.out}", file=sys.stderr)
        if args.command == "generate":
            return 0
    from tools.uishots.evaluate import evaluate

    folder = args.out if args.command == "all" else args.folder
    tools = ("paperlens", "tesseract") if args.command == "all" else tuple(args.tools.split(","))
    results = evaluate(folder, tools, getattr(args, "limit", None))
    args.results.parent.mkdir(parents=True, exist_ok=True)
    args.results.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    for key, row in results["summary"].items():
        print(key, row)
    if args.command == "all":
        from tools import readme_blocks
        from tools.uishots import readme

        return readme_blocks.rewrite({"uishots": ("uishots.json", readme.readme_markdown)})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
