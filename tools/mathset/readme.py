"""The README's math-set table, from docs/results/mathset.json."""

from __future__ import annotations

from collections.abc import Mapping


def readme_markdown(results: Mapping) -> str:
    rows = ["| family | pages | Paperlens text | PyMuPDF text | inline precision | inline recall "
            "| matched formula similarity |", "|---|---:|---:|---:|---:|---:|---:|"]
    for name, row in results["families"].items():
        rows.append(f"| {name} | {row['pages']} | {row['paperlens']:.3f} | {row['pymupdf']:.3f} "
                    f"| {row['inline_precision']:.3f} | {row['inline_recall']:.3f} "
                    f"| {row['inline_similarity']:.3f} |")
    return "\n".join(rows) + "\n"
