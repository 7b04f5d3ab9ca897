"""Summaries of an evaluation run: per-category means, printed tables, baseline comparison."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from statistics import fmean

# A score must drop by more than this to count as a regression.
REGRESSION_TOLERANCE = 0.02
ALL_CATEGORIES = "all"


def summarise(items: Sequence[dict]) -> dict[str, dict]:
    """Per category (and "all"): item count, mean primary score and seconds, error count and
    the mean of every secondary metric over the items that have it."""
    groups: dict[str, list[dict]] = {}
    for item in items:
        groups.setdefault(item["category"], []).append(item)
    summary = {name: _summarise_group(group) for name, group in sorted(groups.items())}
    if items:
        summary[ALL_CATEGORIES] = _summarise_group(items)
    return summary


def _summarise_group(group: Sequence[dict]) -> dict:
    metric_names = sorted({name for item in group for name in item["metrics"]})
    return {
        "n": len(group),
        "score": fmean(item["score"] for item in group),
        "seconds": fmean(item["seconds"] for item in group),
        "errors": sum(1 for item in group if item["error"]),
        "metrics": {
            name: fmean(item["metrics"][name] for item in group if name in item["metrics"])
            for name in metric_names
        },
    }


def format_item_line(item: dict) -> str:
    """One line per item: id, category, primary metric and score, seconds, and any error."""
    line = (
        f"{item['id']:<40} {item['category']:<27} {item['primary_metric']:<18} "
        f"{item['score']:6.3f} {item['seconds']:8.2f}s"
    )
    if item.get("facts_total"):
        line += f"  ({item['facts_passed']}/{item['facts_total']} facts)"
    if item["error"]:
        line += f"  ERROR: {item['error']}"
    warnings = item.get("warnings") or []
    if warnings:
        more = f" (+{len(warnings) - 1} more)" if len(warnings) > 1 else ""
        line += f"  WARN: {warnings[0]}{more}"
    return line


def format_category_table(summary: dict[str, dict]) -> list[str]:
    """The per-category table: n, mean primary score, seconds per item, errors, other metrics."""
    lines = [f"{'category':<27} {'n':>3} {'score':>6} {'s/item':>8} {'err':>3}  secondary metrics"]
    lines.append("-" * len(lines[0]))
    for name, row in summary.items():
        extras = "  ".join(f"{metric}={value:.3f}" for metric, value in row["metrics"].items())
        lines.append(
            f"{name:<27} {row['n']:>3} {row['score']:6.3f} {row['seconds']:8.2f} "
            f"{row['errors']:>3}  {extras}"
        )
    return lines


def _category_means(items: Iterable[dict]) -> dict[str, float]:
    scores: dict[str, list[float]] = {}
    for item in items:
        scores.setdefault(item["category"], []).append(item["score"])
    return {name: fmean(values) for name, values in sorted(scores.items())}


def compare_to_baseline(
    current: Sequence[dict], baseline: Sequence[dict], tolerance: float = REGRESSION_TOLERANCE
) -> tuple[list[str], str]:
    """Regression lines (one per item or category whose score fell by more than `tolerance`)
    and a one-line summary.

    Only items present in both runs are compared, and category means are taken over those
    shared items, so a run filtered with --only or --ids compares like with like.
    """
    base_by_id = {item["id"]: item for item in baseline}
    shared = [item for item in current if item["id"] in base_by_id]
    lines = []
    for item in shared:
        before = base_by_id[item["id"]]["score"]
        if before - item["score"] > tolerance:
            lines.append(
                f"REGRESSION item {item['id']}: {before:.3f} -> {item['score']:.3f} "
                f"({item['score'] - before:+.3f})"
            )
    now_means = _category_means(shared)
    before_means = _category_means(base_by_id[item["id"]] for item in shared)
    for name, now in now_means.items():
        before = before_means[name]
        if before - now > tolerance:
            lines.append(
                f"REGRESSION category {name}: {before:.3f} -> {now:.3f} ({now - before:+.3f})"
            )
    unmatched = len(current) - len(shared)
    scope = f"{len(shared)} items compared"
    if unmatched:
        scope += f", {unmatched} not in baseline"
    verdict = "no regressions" if not lines else f"{len(lines)} regressions"
    return lines, f"{verdict} ({scope}, tolerance {tolerance})"
