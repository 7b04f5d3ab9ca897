"""`python -m tools.bench`: arguments, the measuring sequence, the printed report and its JSON."""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

from tools.bench.documents import (BenchDocument, built_in_documents, given_document,
                                   missing_documents)
from tools.bench.formula_speed import DEFAULT_EVERY, FormulaSpeed, measure_formula_speed
from tools.bench.machine import describe_machine, load_average_1m, peak_rss_mib
from tools.bench.measure import ColdStart, measure_cold_start, measure_document
from tools.bench.report import BenchReport, render_report, report_json, results_json
from tools.bench.stats import acceptance_figures, summarise_document

REPO_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_RUNS = 5
QUICK_RUNS = 2
DEFAULT_OUT = REPO_ROOT / "build" / "bench" / "results.json"
# The committed figures the README's speed table is generated from (python -m tools.readme_tables).
DEFAULT_RESULTS = REPO_ROOT / "docs" / "results" / "bench.json"


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m tools.bench",
        description="Time Paperlens per document and per stage against its pure ONNX run time.")
    parser.add_argument("--runs", type=int, default=None,
                        help=f"timed converts per document (default {DEFAULT_RUNS}, "
                             f"{QUICK_RUNS} with --quick)")
    parser.add_argument("--warmup", type=int, default=1,
                        help="untimed converts per document before the timed ones (default 1)")
    parser.add_argument("--docs", nargs="+", metavar="PATH",
                        help="documents, or dev-set item folders (default: the built-in list "
                             "from ../shared/eval/dev/items)")
    parser.add_argument("--method", choices=("auto", "txt", "ocr"), default="auto",
                        help="text source for every page (default auto)")
    parser.add_argument("--dpi", type=int, default=200, help="render resolution (default 200)")
    parser.add_argument("--no-write", action="store_true",
                        help="do not write .md/.json outputs (by default they go to a temporary "
                             "folder, so export costs what it costs a user)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT,
                        help=f"JSON results file (default {DEFAULT_OUT.relative_to(REPO_ROOT)})")
    parser.add_argument("--results", type=Path, default=None,
                        help="also write the summary without per-run samples here (default "
                             f"{DEFAULT_RESULTS.relative_to(REPO_ROOT)} when the run covers the "
                             "built-in documents and the formula set; a run narrowed by --docs, "
                             "--formula-only or --formula-every 0 writes it only when given)")
    parser.add_argument("--no-results", action="store_true",
                        help=f"leave {DEFAULT_RESULTS.relative_to(REPO_ROOT)} as it is")
    parser.add_argument("--quick", action="store_true", help="fewer runs, for a quick look")
    parser.add_argument("--formula-every", type=int, default=DEFAULT_EVERY, metavar="N",
                        help="time the formula recogniser on every Nth image of "
                             f"../shared/eval/formula (default {DEFAULT_EVERY}; 1: all 196; "
                             "0: not at all)")
    parser.add_argument("--formula-only", action="store_true",
                        help="time only the formula recogniser, no documents")
    args = parser.parse_args(argv)
    if args.runs is None:
        args.runs = QUICK_RUNS if args.quick else DEFAULT_RUNS
    if args.runs < 1 or args.warmup < 0:
        parser.error("--runs must be at least 1 and --warmup at least 0")
    if args.formula_every < 0 or (args.formula_only and args.formula_every == 0):
        parser.error("--formula-every must be at least 0, and at least 1 with --formula-only")
    return args


def results_path(args: argparse.Namespace) -> Path | None:
    """Where the committed summary goes: --results, else the default for a complete run."""
    if args.no_results:
        return None
    if args.results is not None:
        return args.results
    complete = not args.docs and not args.formula_only and args.formula_every > 0
    return DEFAULT_RESULTS if complete else None


def _documents(args: argparse.Namespace) -> list[BenchDocument]:
    if args.formula_only:
        return []
    if not args.docs:
        scratch = Path(tempfile.mkdtemp(prefix="paperlens-bench-"))
        return built_in_documents(REPO_ROOT, scratch)
    return [given_document(spec, Path.cwd()) for spec in args.docs]


def _progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def _formula_speed(models, every: int, runs: int, warmup: int
                   ) -> tuple[FormulaSpeed | None, str | None]:
    """The formula recogniser's speed on every `every`th formula-set image, or why not."""
    from tools.eval.formula_eval import (FORMULA_SET_DIR, load_crop, load_formula_set,
                                         load_recognizer)

    if not (FORMULA_SET_DIR / "manifest.json").is_file():
        return None, f"no formula set at {FORMULA_SET_DIR}"
    items = load_formula_set(FORMULA_SET_DIR)[::every]
    crops = [load_crop(item.image_path) for item in items]
    speed = measure_formula_speed(load_recognizer(models), crops, runs, warmup, _progress)
    return speed, None


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        documents = _documents(args)
    except ValueError as exc:
        print(f"bench: {exc}", file=sys.stderr)
        return 2
    missing = missing_documents(documents)
    if missing:
        for document in missing:
            print(f"bench: {document.label}: {document.path} does not exist", file=sys.stderr)
        return 2

    load_at_start = load_average_1m()
    import_start = time.perf_counter()
    from engine.api import Engine
    from engine.errors import PaperlensError
    from engine.options import ConvertOptions, TextMethod
    from settings import SettingsStore
    import_s = time.perf_counter() - import_start

    engine = Engine(SettingsStore().load())
    failures: dict[str, str] = {}
    runs: dict[str, list] = {}
    cold: ColdStart | None = None
    with tempfile.TemporaryDirectory(prefix="paperlens-bench-") as scratch:
        try:
            options = ConvertOptions(output_dir=None if args.no_write else scratch,
                                     method=TextMethod(args.method), dpi=args.dpi)
        except PaperlensError as exc:
            print(f"bench: {exc}", file=sys.stderr)
            return 2
        for document in documents:
            try:
                if cold is None:
                    cold = measure_cold_start(engine, document, options, import_s)
                    _progress(f"cold start: {document.label} {cold.convert_s:.3f} s")
                runs[document.label] = measure_document(engine, document, options, args.runs,
                                                        args.warmup, _progress)
            except PaperlensError as exc:
                failures[document.label] = str(exc)
                _progress(f"{document.label}: failed: {exc}")

    formula, formula_skipped = None, "--formula-every 0"
    if args.formula_every:
        formula, formula_skipped = _formula_speed(engine.models, args.formula_every,
                                                  args.runs, args.warmup)

    kinds = {d.label: d.kind.value for d in documents}
    summaries = [summarise_document(label, kinds[label], samples)
                 for label, samples in runs.items()]
    figures = acceptance_figures(runs, [d.label for d in documents if d.reference_scan])
    report = BenchReport(
        created=datetime.now(timezone.utc).isoformat(timespec="seconds"),
        machine=describe_machine(engine.models.sessions.threads, device="cpu",
                                 load_at_start=load_at_start),
        config={"runs": args.runs, "warmup": args.warmup, "dpi": args.dpi,
                "method": args.method, "write_outputs": not args.no_write,
                "formula_every": args.formula_every,
                "documents": {d.label: str(d.path) for d in documents}},
        cold_start=cold, summaries=summaries, figures=figures, peak_rss_mib=peak_rss_mib(),
        runs=runs, failures=failures, formula=formula, formula_skipped=formula_skipped)
    print(render_report(report))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report_json(report), indent=1) + "\n", encoding="utf-8")
    print(f"\nresults: {args.out}")
    committed = results_path(args)
    if committed is not None and failures and args.results is None:
        print(f"summary: {committed} left as it is, since documents failed")
    elif committed is not None:
        committed.parent.mkdir(parents=True, exist_ok=True)
        committed.write_text(json.dumps(results_json(report), indent=1) + "\n", encoding="utf-8")
        print(f"summary: {committed} (README tables: python -m tools.readme_tables)")
    return 1 if failures else 0
