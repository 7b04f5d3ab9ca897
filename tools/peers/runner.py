"""The peers run: install, render, load every tool, then time and score each item with each tool.

Tools take turns item by item (not tool after tool), so a change in the machine's load during
the run falls on every tool alike.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from collections.abc import Sequence
from datetime import datetime, timezone
from pathlib import Path

from tools.bench.machine import describe_machine, load_average_1m
from tools.eval.manifest import ManifestError, ManifestItem, load_manifest
from tools.eval.runner import DEFAULT_MANIFEST, select_items
from tools.eval.scoring import score_output
from tools.peers.comparison import ItemResult, compare, rows_json
from tools.peers.install import (InstallError, bench_requirements, ensure_peers_venv,
                                 ensure_tesseract)
from tools.peers.page_images import render_pdf, write_warm_inputs
from tools.peers.paperlens_side import PaperlensConverter
from tools.peers.peer_process import PeerFailed, PeerProcess
from tools.peers.plan import (LABELS, PEERS, READS_PAGE_IMAGES, Tool, is_pdf, items_for,
                              language, languages, reads)
from tools.peers.report import ToolState, peers_table, render_markdown
from tools.peers.timing import ItemTiming, time_item

REPO_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_OUT_DIR = REPO_ROOT / "build" / "peers"
DEFAULT_PEERS_VENV = REPO_ROOT / "build" / "peers-venv"
# The committed figures the README's peers table is generated from (python -m tools.readme_tables).
DEFAULT_RESULTS = REPO_ROOT / "docs" / "results" / "peers.json"
DEFAULT_RUNS, QUICK_RUNS = 3, 1
# Timed runs of one item by one tool stop once they add up to this (OCR of a dense page by
# RapidOCR takes 10-40 s on the 2-core machine; three of them would double the run's length).
DEFAULT_BUDGET_S = 10.0
# Per timed or warm-up pass of one item; a peer that takes longer is stopped.
ITEM_TIMEOUT_S = 300.0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m tools.peers",
        description="Paperlens, RapidOCR, Tesseract and pymupdf4llm on the same dev-set items "
                    "in one run: per-category score and seconds per page, and ours/peer.")
    parser.add_argument("--manifest", type=Path, default=DEFAULT_MANIFEST)
    parser.add_argument("--only", nargs="+", metavar="CATEGORY", help="only these categories")
    parser.add_argument("--ids", nargs="+", metavar="ID", help="only these item ids")
    parser.add_argument("--peers", nargs="+", choices=[p.value for p in PEERS],
                        default=[p.value for p in PEERS])
    parser.add_argument("--runs", type=int, help=f"timed runs per item and tool (default "
                                                  f"{DEFAULT_RUNS}, {QUICK_RUNS} with --quick)")
    parser.add_argument("--warmup", type=int, default=1, help="untimed runs first (default 1)")
    parser.add_argument("--budget-s", type=float, default=DEFAULT_BUDGET_S,
                        help="stop an item's timed runs once they add up to this many seconds "
                             f"(default {DEFAULT_BUDGET_S:g}; 0 for always --runs)")
    parser.add_argument("--quick", action="store_true", help="one timed run, for a quick look")
    parser.add_argument("--out-dir", type=Path, default=DEFAULT_OUT_DIR,
                        help="results.json, results.md, outputs/, pages/ and logs/ go here")
    parser.add_argument("--peers-venv", type=Path, default=DEFAULT_PEERS_VENV,
                        help="the peers' own virtual environment, created on demand")
    parser.add_argument("--results", type=Path, default=None,
                        help="also write results.json here (default "
                             f"{DEFAULT_RESULTS.relative_to(REPO_ROOT)} for a run over the whole "
                             "default manifest with every peer; a run narrowed by --manifest, "
                             "--only, --ids or --peers writes it only when given)")
    parser.add_argument("--no-results", action="store_true",
                        help=f"leave {DEFAULT_RESULTS.relative_to(REPO_ROOT)} as it is")
    parser.add_argument("--no-install", action="store_true",
                        help="install nothing; skip the peers that are missing")
    return parser


def results_path(args: argparse.Namespace) -> Path | None:
    """Where the committed copy goes: --results, else the default for a complete run."""
    if args.no_results:
        return None
    if args.results is not None:
        return args.results
    complete = (not args.only and not args.ids and args.manifest == DEFAULT_MANIFEST
                and set(args.peers) == {p.value for p in PEERS})
    return DEFAULT_RESULTS if complete else None


def _progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def _is_root() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0


def _python_for(tool: Tool, args: argparse.Namespace, states: dict[Tool, ToolState]) -> Path | None:
    """The interpreter a peer's worker runs on, installing what it needs; None when skipped."""
    if tool is Tool.TESSERACT:
        reason = ensure_tesseract(_progress, not args.no_install, _is_root())
        if reason:
            states[tool] = ToolState(skipped=reason)
            return None
        return Path(sys.executable)  # the worker needs only ctypes and the Debian libraries
    python = args.peers_venv / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")
    if args.no_install:
        if python.is_file():
            return python
        states[tool] = ToolState(skipped=f"no peers' venv at {args.peers_venv} (--no-install)")
        return None
    try:
        return ensure_peers_venv(args.peers_venv, bench_requirements(REPO_ROOT / "pyproject.toml"),
                                 _progress)
    except InstallError as error:
        states[tool] = ToolState(skipped=str(error))
        return None


def _page_inputs(items: Sequence[ManifestItem], folder: Path) -> tuple[dict[str, tuple[Path, ...]],
                                                                       list[float]]:
    """Page images per item for the OCR peers (PDFs rendered, images as they are), and the
    render seconds per PDF page."""
    inputs, render_s = {}, []
    for item in items:
        if is_pdf(item):
            pages = render_pdf(item.input_path, folder / item.id)
            inputs[item.id] = pages.paths
            render_s += [pages.render_s / len(pages.paths)] * len(pages.paths)
        else:
            inputs[item.id] = (item.input_path,)
    return inputs, render_s


def _score(item: ManifestItem, tool: Tool, timing: ItemTiming) -> tuple[ItemResult, dict]:
    if timing.error:
        score, metric = 0.0, ""
    else:
        scored = score_output(timing.markdown, item.truth, item.truth_format)
        score, metric = scored.primary, scored.primary_metric
    result = ItemResult(tool=tool.value, item_id=item.id, category=item.category, score=score,
                        seconds=timing.median_s, pages=timing.pages, error=timing.error)
    record = {"tool": tool.value, "id": item.id, "category": item.category, "score": score,
              "primary_metric": metric, "seconds": timing.median_s, "pages": timing.pages,
              "run_s": list(timing.run_s), "error": timing.error}
    return result, record


def _start_peers(pythons: dict[Tool, Path | None], items: Sequence[ManifestItem],
                 warm_pdf: Path, warm_png: Path, out_dir: Path,
                 states: dict[Tool, ToolState]) -> dict[Tool, PeerProcess]:
    workers: dict[Tool, PeerProcess] = {}
    for tool, python in pythons.items():
        if python is None:
            continue
        _progress(f"loading {LABELS[tool]}")
        warm = warm_pdf if tool is Tool.PYMUPDF4LLM else warm_png
        log_path = out_dir / "logs" / f"{tool.value}.log"
        try:
            worker = PeerProcess(python, tool.value, warm, languages(items_for(tool, items)),
                                 REPO_ROOT, log_path, ITEM_TIMEOUT_S)
        except PeerFailed as error:
            states[tool] = ToolState(skipped=str(error))
            continue
        workers[tool] = worker
        states[tool] = ToolState(load_s=worker.load_s, versions=worker.versions)
    return workers


def _keep_output(out_dir: Path, tool: Tool, item: ManifestItem, markdown: str) -> None:
    path = out_dir / "outputs" / tool.value / f"{item.id}.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(markdown, encoding="utf-8")


def _run_items(items: Sequence[ManifestItem], tools: Sequence[Tool],
               paperlens: PaperlensConverter, workers: dict[Tool, PeerProcess],
               page_inputs: dict[str, tuple[Path, ...]], states: dict[Tool, ToolState],
               args: argparse.Namespace, runs: int,
               budget_s: float | None) -> tuple[list[ItemResult], list[dict]]:
    """Item by item, every tool that reads it: warm-up, timed runs, score."""
    results: list[ItemResult] = []
    records: list[dict] = []
    for item in items:
        for tool in tools:
            if not reads(tool, item) or (tool is not Tool.PAPERLENS and tool not in workers):
                continue
            inputs = page_inputs[item.id] if tool in READS_PAGE_IMAGES else (item.input_path,)
            if tool is Tool.PAPERLENS:
                timing = time_item(paperlens.convert, inputs, runs, args.warmup, budget_s)
            else:
                try:
                    timing = workers[tool].time_item(inputs, language(item), runs, args.warmup,
                                                     budget_s)
                except PeerFailed as error:
                    state = states[tool]
                    states[tool] = ToolState(state.load_s, state.versions, failed=str(error))
                    del workers[tool]
                    continue
            result, record = _score(item, tool, timing)
            results.append(result)
            records.append(record)
            _keep_output(args.out_dir, tool, item, timing.markdown)
            page_s = f"{result.seconds / result.pages:7.3f} s/page" if result.timed else "failed"
            _progress(f"{item.id:<40} {tool.value:<11} {result.score:6.3f} {page_s}"
                      + (f"  ERROR: {timing.error}" if timing.error else ""))
    return results, records


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    runs = args.runs or (QUICK_RUNS if args.quick else DEFAULT_RUNS)
    budget_s = args.budget_s if args.budget_s > 0 else None
    if runs < 1 or args.warmup < 0:
        print("error: --runs must be at least 1 and --warmup at least 0", file=sys.stderr)
        return 2
    load_at_start = load_average_1m()
    print(f"load average (1 min) at start: {load_at_start} on {os.cpu_count()} logical cores",
          flush=True)
    try:
        items = select_items(load_manifest(args.manifest), args.only, args.ids)
    except ManifestError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if not items:
        print("error: no manifest item matches --only/--ids", file=sys.stderr)
        return 2

    out_dir: Path = args.out_dir
    warm_pdf, warm_png = write_warm_inputs(out_dir / "warm")
    states: dict[Tool, ToolState] = {}
    chosen = [Tool(name) for name in args.peers]
    pythons = {tool: _python_for(tool, args, states) for tool in chosen}
    ocr_items = [item for item in items if any(reads(t, item) for t in READS_PAGE_IMAGES)]
    page_inputs, render_s = _page_inputs(ocr_items, out_dir / "pages")

    _progress("loading Paperlens")
    paperlens = PaperlensConverter(warm_png)
    states[Tool.PAPERLENS] = ToolState(load_s=paperlens.load_s, versions=paperlens.versions)
    workers = _start_peers(pythons, items, warm_pdf, warm_png, out_dir, states)
    try:
        results, records = _run_items(items, [Tool.PAPERLENS, *chosen], paperlens, workers,
                                      page_inputs, states, args, runs, budget_s)
    finally:
        for worker in workers.values():
            worker.close()

    machine = describe_machine(paperlens.ort_threads, device="cpu", load_at_start=load_at_start)
    machine["load_average_1m_at_end"] = load_average_1m()
    config = {"runs": runs, "warmup": args.warmup, "budget_s": budget_s,
              "manifest": str(args.manifest), "items": len(items),
              "peers": [t.value for t in chosen],
              "render_s_per_page_median": statistics.median(render_s) if render_s else None}
    _write_results(out_dir, results, records, machine, config, states,
                   [tool.value for tool in chosen if not states[tool].skipped],
                   results_path(args))
    return 1 if any(state.failed for state in states.values()) else 0


def _write_results(out_dir: Path, results: Sequence[ItemResult], records: list[dict],
                   machine: dict, config: dict, states: dict[Tool, ToolState],
                   peers_run: list[str], committed: Path | None) -> None:
    rows = compare(results, Tool.PAPERLENS.value, peers_run)
    report = {"created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
              "machine": machine, "config": config,
              "tools": {tool.value: state.to_json() for tool, state in states.items()},
              "categories": rows_json(rows), "items": records}
    # The table comes from the report as written, as the README's does (tools.readme_tables).
    markdown = render_markdown(peers_table(report), machine, config, states)
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "results.md").write_text(markdown, encoding="utf-8")
    text = json.dumps(report, indent=1, ensure_ascii=False) + "\n"
    (out_dir / "results.json").write_text(text, encoding="utf-8")
    print()
    print(markdown)
    print(f"results: {out_dir / 'results.json'} and {out_dir / 'results.md'}")
    if committed is not None:
        committed.parent.mkdir(parents=True, exist_ok=True)
        committed.write_text(text, encoding="utf-8")
        print(f"committed results: {committed} (README tables: python -m tools.readme_tables)")
