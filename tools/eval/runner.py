"""The evaluation run: convert each manifest item, score it, print and save the results."""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict
from datetime import datetime, timezone
from pathlib import Path

from tools.eval.conversion import (
    Conversion,
    ConversionError,
    Converter,
    cli_converter,
    default_command,
)
from tools.eval.manifest import ManifestError, ManifestItem, load_manifest
from tools.eval.math_faults import FaultTally
from tools.eval.report import (
    REGRESSION_TOLERANCE,
    compare_to_baseline,
    format_category_table,
    format_item_line,
    summarise,
)
from tools.eval.scoring import PRIMARY_METRIC, score_output

REPO_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_MANIFEST = REPO_ROOT.parent / "shared" / "eval" / "dev" / "manifest.json"
DEFAULT_OUT = REPO_ROOT / "build" / "eval" / "results.json"
DEFAULT_TIMEOUT_S = 900.0


def evaluate_item(item: ManifestItem, converter: Converter, keep_dir: Path | None = None,
                  tally: FaultTally | None = None) -> dict:
    """Convert and score one item. A failed conversion scores 0 and carries its error. With a
    tally, the display-math faults of the document JSON the converter wrote are counted and
    kept as the item's `math_faults`."""
    started = time.perf_counter()
    warnings: tuple[str, ...] = ()
    document = None
    try:
        output = converter(item.input_path)
        error = ""
    except ConversionError as failure:
        output, error = "", str(failure)
    seconds = time.perf_counter() - started
    if isinstance(output, Conversion):
        markdown, warnings, document = output.markdown, output.warnings, output.document
    else:
        markdown = output
    if keep_dir is not None and not error:
        (keep_dir / f"{item.id}.md").write_text(markdown, encoding="utf-8")
    result = {
        "id": item.id,
        "category": item.category,
        "tags": list(item.tags),
        "truth_format": item.truth_format,
        "seconds": seconds,
        "error": error,
        "warnings": list(warnings),
    }
    if tally is not None and document is not None:
        result["math_faults"] = tally.check(item.id, document)
    if error:
        primary_metric = PRIMARY_METRIC[item.truth_format]
        return {**result, "primary_metric": primary_metric, "score": 0.0, "metrics": {}}
    scored = score_output(markdown, item.truth, item.truth_format)
    result.update(
        primary_metric=scored.primary_metric, score=scored.primary, metrics=scored.metrics
    )
    if scored.facts:
        result["facts_passed"] = sum(fact.passed for fact in scored.facts)
        result["facts_total"] = len(scored.facts)
        result["facts"] = [asdict(fact) for fact in scored.facts]
    return result


def evaluate(
    items: Sequence[ManifestItem],
    converter: Converter,
    keep_dir: Path | None = None,
    on_item: Callable[[dict], None] | None = None,
    tally: FaultTally | None = None,
) -> list[dict]:
    """Evaluate items in order; `on_item` sees each result as soon as it is ready."""
    results = []
    for item in items:
        result = evaluate_item(item, converter, keep_dir, tally)
        results.append(result)
        if on_item is not None:
            on_item(result)
    return results


def select_items(
    items: Sequence[ManifestItem], categories: Sequence[str] | None, ids: Sequence[str] | None
) -> list[ManifestItem]:
    """Items in any of `categories` (all when None) and among `ids` (all when None)."""
    chosen = [item for item in items if not categories or item.category in categories]
    return [item for item in chosen if not ids or item.id in ids]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m tools.eval",
        description="Convert each manifest item with Paperlens and score it against its truth.",
    )
    parser.add_argument("--manifest", type=Path, default=DEFAULT_MANIFEST)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="results JSON to write")
    parser.add_argument("--baseline", type=Path, help="earlier results JSON to compare with")
    parser.add_argument("--only", nargs="+", metavar="CATEGORY", help="only these categories")
    parser.add_argument("--ids", nargs="+", metavar="ID", help="only these item ids")
    parser.add_argument(
        "--cmd",
        help="converter command line with {input} and {outdir} placeholders; it must write "
        "{outdir}/<input stem>.md (default: paperlens-cli convert {input} -o {outdir})",
    )
    parser.add_argument("--timeout-s", type=float, default=DEFAULT_TIMEOUT_S, help="per item")
    parser.add_argument(
        "--keep-outputs", type=Path, metavar="DIR", help="save each item's Markdown as <id>.md"
    )
    parser.add_argument("--tolerance", type=float, default=REGRESSION_TOLERANCE)
    return parser


def _load_baseline(path: Path) -> list[dict]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as error:
        raise ManifestError(f"cannot read baseline {path}: {error}") from error
    if not isinstance(data, dict) or not isinstance(data.get("items"), list):
        raise ManifestError(f"baseline {path} is not a results file (no 'items' list)")
    return data["items"]


def main(argv: Sequence[str] | None = None, converter: Converter | None = None) -> int:
    """Run the evaluation; exit status 1 when the baseline comparison finds a regression.

    `converter` replaces the engine CLI (tests pass a fake one).
    """
    args = _parser().parse_args(argv)
    try:
        items = select_items(load_manifest(args.manifest), args.only, args.ids)
        baseline = _load_baseline(args.baseline) if args.baseline else None
    except ManifestError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if not items:
        print("error: no manifest item matches --only/--ids", file=sys.stderr)
        return 2
    command = shlex.split(args.cmd) if args.cmd else default_command(REPO_ROOT)
    if converter is None:
        converter = cli_converter(command, cwd=REPO_ROOT, timeout_s=args.timeout_s)
        converter_label = shlex.join(command)
    else:
        converter_label = getattr(converter, "__name__", "injected converter")
    if args.keep_outputs:
        args.keep_outputs.mkdir(parents=True, exist_ok=True)

    print(f"evaluating {len(items)} items from {args.manifest} with: {converter_label}")
    tally = FaultTally()
    results = evaluate(
        items,
        converter,
        args.keep_outputs,
        on_item=lambda result: print(format_item_line(result), flush=True),
        tally=tally,
    )
    summary = summarise(results)
    print()
    print("\n".join(format_category_table(summary)))
    print(tally.closing_line() if tally.documents else
          "math faults: not checked (the converter wrote no document JSON)")

    report = {
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "manifest": str(args.manifest),
        "converter": converter_label,
        "categories": summary,
        "math_faults": tally.summary() if tally.documents else None,
        "items": results,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"\nresults written to {args.out}")

    if baseline is None:
        return 0
    regressions, verdict = compare_to_baseline(results, baseline, args.tolerance)
    for line in regressions:
        print(line)
    print(f"baseline {args.baseline}: {verdict}")
    return 1 if regressions else 0
