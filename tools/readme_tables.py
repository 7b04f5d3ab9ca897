"""The README's generated tables: each marked block is rebuilt from a results file in docs/results/.

    python -m tools.readme_tables [--check] [--readme README.md] [--results docs/results]

A block in the README is the text between two marker comments naming it:

    <!-- results: bench -->
    ...made from docs/results/bench.json; edits here are overwritten...
    <!-- /results: bench -->

`python -m tools.bench` and `python -m tools.peers` write docs/results/bench.json and peers.json;
this rewrites every block from them (`make bench` and `make peers` run it last). With --check it
changes nothing and exits 1 when a block differs from what its results file gives. Prose around
the blocks stays hand-written.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tools.bench import readme as bench_readme
from tools.headings import readme as headings_readme
from tools.peers import report as peers_report
from tools import readme_blocks
from tools.readme_blocks import (DEFAULT_README, DEFAULT_RESULTS, MARKED_BLOCK, BlockError,
                                  Blocks)
from tools.photos import readme as photos_readme
from tools.scripts import readme as scripts_readme
from tools.structure import readme as structure_readme
from tools.mathset import readme as mathset_readme
from tools.officeset import readme as officeset_readme
from tools.uishots import readme as uishots_readme
from tools.xtables import readme as xtables_readme


# Block name -> (results file in docs/results, the function that writes the block from it).
BLOCKS: Blocks = {
    "bench": ("bench.json", bench_readme.readme_markdown),
    "peers": ("peers.json", peers_report.readme_markdown),
    "structure": ("structure.json", structure_readme.readme_markdown),
    "structure-published": ("structure_published.json", structure_readme.published_markdown),
    "photos": ("photos.json", photos_readme.readme_markdown),
    "photos-bench": ("photos_bench.json", photos_readme.bench_markdown),
    "scripts": ("scripts.json", scripts_readme.readme_markdown),
    "scripts-bench": ("scripts_bench.json", scripts_readme.bench_markdown),
    "uishots": ("uishots.json", uishots_readme.readme_markdown),
    "mathset": ("mathset.json", mathset_readme.readme_markdown),
    "mathset-bench": ("mathset_bench.json", mathset_readme.bench_markdown),
    "officeset": ("officeset.json", officeset_readme.readme_markdown),
    "xtables": ("xtables.json", xtables_readme.readme_markdown),
    "headings": ("headings.json", headings_readme.readme_markdown),
}


def regenerate(text: str, results_dir: Path, blocks: Blocks = BLOCKS) -> tuple[str, list[str]]:
    """`text` with every marked block rewritten, and the names of the blocks that changed."""
    return readme_blocks.regenerate(text, results_dir, blocks)

def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.readme_tables",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--readme", type=Path, default=DEFAULT_README)
    parser.add_argument("--results", type=Path, default=DEFAULT_RESULTS,
                        help="the folder of results files (default docs/results)")
    parser.add_argument("--check", action="store_true",
                        help="change nothing; exit 1 when a block is out of date")
    args = parser.parse_args(argv)
    text = args.readme.read_text(encoding="utf-8")
    try:
        updated, changed = regenerate(text, args.results)
    except BlockError as error:
        print(f"readme_tables: {error}", file=sys.stderr)
        return 2
    if not MARKED_BLOCK.search(text):
        print(f"readme_tables: no results block in {args.readme}", file=sys.stderr)
        return 2
    if args.check:
        for name in changed:
            print(f"{args.readme}: block {name!r} differs from {BLOCKS[name][0]}; "
                  "run python -m tools.readme_tables", file=sys.stderr)
        return 1 if changed else 0
    if changed:
        args.readme.write_text(updated, encoding="utf-8")
    print(f"{args.readme}: {', '.join(changed) or 'no block'} rewritten")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
