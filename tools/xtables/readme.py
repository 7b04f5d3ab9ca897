"""The README's tables-across-pages table, from docs/results/xtables.json."""

from __future__ import annotations

from collections.abc import Mapping


def readme_markdown(results: Mapping) -> str:
    rows = ["| documents | page breaks | tables that go on | joined | precision | recall "
            "| recall where both parts were found as tables | joined tables with every row once |",
            "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for name, row in results["summary"].items():
        exact = "" if row["rows_exact"] is None else f"{row['rows_exact']:.3f}"
        found = "" if row["found_recall"] is None else f"{row['found_recall']:.3f}"
        rows.append(f"| {name} ({row['documents']}) | {row['breaks']} | {row['true_joins']} "
                    f"| {row['joined']} | {row['precision']:.3f} | {row['recall']:.3f} "
                    f"| {found} | {exact} |")
    return "\n".join(rows) + "\n"
