"""The README's heading table, from docs/results/headings.json (`python -m tools.headings`)."""

from __future__ import annotations

from collections.abc import Mapping

from tools.gfm import gfm_table

SETS = {"structure": "structure set, born-digital", "structure_scanned": "structure set, scanned",
        "math": "sectioned pdfLaTeX documents"}


def _cell(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def readme_markdown(results: Mapping) -> str:
    rows = []
    for name, sets in results["sets"].items():
        groups = [("all", sets["all"])] + sorted(sets["families"].items())
        for family, row in groups:
            rows.append([f"{SETS.get(name, name)}: {family}", str(row["documents"]),
                         str(row["truth"]), _cell(row["recall"]), _cell(row["precision"]),
                         _cell(row["level_accuracy"]), _cell(row["absolute_level_accuracy"])])
    table = gfm_table(["documents", "n", "truth headings", "recall", "precision",
                       "level accuracy (ranked)", "same # count"], rows)
    scans = (f" (the scanned variants of {results['scans']} of them)"
             if results.get("scans") else "")
    return (f"{table}\n\nSeed {results['seed']}: {results['count']} pages per structure family"
            f"{scans}, {results['math_count']} sectioned document(s) per math font family.\n")
