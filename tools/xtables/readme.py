"""The README's tables-across-pages table, from docs/results/xtables.json."""

from __future__ import annotations

from collections.abc import Mapping


def readme_markdown(results: Mapping) -> str:
    """One row per group of documents; a figure with nothing to count (precision where nothing
    was joined, recall where no table goes on) is left empty."""
    rows = ["| documents | page breaks | tables that go on | joined | precision | recall "
            "| recall where both parts were found as tables | joined tables with every row once |",
            "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for name, row in results["summary"].items():
        figures = " | ".join("" if row[key] is None else f"{row[key]:.3f}" for key in
                             ("precision", "recall", "found_recall", "rows_exact"))
        rows.append(f"| {name} ({row['documents']}) | {row['breaks']} | {row['true_joins']} "
                    f"| {row['joined']} | {figures} |")
    return "\n".join(rows) + "\n"
