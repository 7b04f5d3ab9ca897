"""The README's Office-set table, from docs/results/officeset.json."""

from __future__ import annotations

from collections.abc import Mapping


def _mean_and_min(row: Mapping, key: str) -> str:
    value = row.get(key)
    if value is None:
        return ""
    return f"{value:.3f} ({row[key + '_min']:.3f})"


def readme_markdown(results: Mapping) -> str:
    rows = ["| family | documents | text (min) | table TEDS (min) | pasted scan text (min) "
            "| as LibreOffice's PDF (min) | left out, named (min) |",
            "|---|---:|---:|---:|---:|---:|---:|"]
    for name, row in results["families"].items():
        cells = [name, str(row["documents"])] + [
            _mean_and_min(row, key) for key in ("text", "teds", "scan", "pdf_text", "named")]
        rows.append("| " + " | ".join(cells) + " |")
    docling = results.get("docling")
    if docling:
        rows += ["", f"docling {docling['version']} on the same files (the kinds it reads):", "",
                 "| family | documents | text (min) | table TEDS (min) |", "|---|---:|---:|---:|"]
        for name, row in docling["families"].items():
            cells = [name, str(row["documents"])] + [_mean_and_min(row, key)
                                                     for key in ("text", "teds")]
            rows.append("| " + " | ".join(cells) + " |")
    return "\n".join(rows) + "\n"
