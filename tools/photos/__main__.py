"""The photo set: pages photographed in software, with their truth, read by Paperlens and by
Tesseract.

    python -m tools.photos [--seed 1] [--folder build/photos] [--results docs/results/photos.json]
    python -m tools.photos --pages en_table zh_columns
    python -m tools.photos --bench [--runs 3]
    python -m tools.photos --light

generates the set (tools/photos/generate.py), measures it (tools/photos/measure.py) and rewrites
the README's photo table (tools/readme_blocks.py); with --pages, only the pages named are
photographed and read again, the other pages' rows kept from the results file; with --bench,
times the photo steps on a flat scan and on photos instead (tools/photos/bench.py ->
docs/results/photos_bench.json);
with --light, measures whether evening out the light helps the text detector
(tools/photos/light.py -> docs/results/photos_light.json)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from tools.photos import pages
from tools.photos.generate import generate
from tools.photos.measure import measure

REPO_ROOT = Path(__file__).resolve().parents[2]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.photos")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--folder", type=Path, default=REPO_ROOT / "build" / "photos")
    parser.add_argument("--results", type=Path,
                        default=REPO_ROOT / "docs" / "results" / "photos.json")
    parser.add_argument("--no-tesseract", action="store_true")
    parser.add_argument("--pages", nargs="+", choices=pages.PAGES, default=None)
    parser.add_argument("--bench", action="store_true")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--light", action="store_true")
    args = parser.parse_args(argv)
    if args.light:
        from tools.photos.light import measure_light

        found = measure_light(args.seed, tuple(args.pages or pages.PAGES))
        path = args.results.with_name("photos_light.json")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(found, indent=1) + "\n", encoding="utf-8")
        return 0
    if args.bench:
        from tools.photos.bench import bench

        timings = bench(args.folder / "bench", args.runs, args.seed)
        path = args.results.with_name("photos_bench.json")
        path.write_text(json.dumps(timings, indent=1) + "\n", encoding="utf-8")
        print(json.dumps(timings, indent=1))
        from tools import readme_blocks
        from tools.photos import readme

        return readme_blocks.rewrite({"photos-bench": ("photos_bench.json",
                                                       readme.bench_markdown)})
    folder = args.folder / f"seed-{args.seed}"
    earlier = None
    if args.pages and args.results.is_file():
        earlier = json.loads(args.results.read_text(encoding="utf-8"))
    generate(folder, args.seed, tuple(args.pages or pages.PAGES))
    results = measure(folder, tesseract_too=not args.no_tesseract, earlier=earlier)
    args.results.parent.mkdir(parents=True, exist_ok=True)
    args.results.write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n",
                            encoding="utf-8")
    from tools import readme_blocks
    from tools.eval.math_faults import summary_line
    from tools.photos import readme

    print(summary_line(results["math_faults"]))
    return readme_blocks.rewrite({"photos": ("photos.json", readme.readme_markdown)})


if __name__ == "__main__":
    raise SystemExit(main())
