"""The README's per-script table, from docs/results/scripts.json (`python -m tools.scripts`)."""

from __future__ import annotations

from collections.abc import Mapping

from tools.gfm import gfm_table


def readme_markdown(results: Mapping) -> str:
    rows_by_sample: dict[str, dict[str, dict]] = {}
    for row in results["pages"]:
        rows_by_sample.setdefault(row["sample"], {})[row["variant"]] = row
    rows = []
    for sample, variants in rows_by_sample.items():
        clean, degraded = variants.get("clean", {}), variants.get("degraded", {})
        digital = variants.get("digital", {})
        first = clean or degraded or digital
        rows.append([sample, first["script"],
                     _cell(clean, "paperlens"), _cell(clean, "tesseract"),
                     _cell(degraded, "paperlens"), _cell(degraded, "tesseract"),
                     _cell(digital, "paperlens"),
                     ", ".join(sorted({s for v in variants.values() for s in v["scripts"]}))
                     or "-"])
    table = gfm_table(["page", "script", "Paperlens, 200 dpi", "Tesseract, 200 dpi",
                       "Paperlens, degraded", "Tesseract, degraded", "Paperlens, born-digital",
                       "read with Tesseract"], rows, left=2)
    table = table.replace(" ---: |\n", " --- |\n", 1)
    summary = results["summary"]
    lines = [table, "", "Character similarity to the truth (1 - edit distance / length). "
             "Paperlens with its default settings, no language named; Tesseract told each "
             "page's language (full-page segmentation, the same libtesseract 5.5, the language data of "
             "Debian's tesseract-ocr-<lang> packages). "
             "Means: " + "; ".join(
                 f"{variant} Paperlens {s['paperlens_mean']:.3f}"
                 + (f", Tesseract {s['tesseract_mean']:.3f}" if "tesseract_mean" in s else "")
                 for variant, s in summary.items()) + "."]
    return "\n".join(lines) + "\n"


def _cell(row: Mapping, tool: str) -> str:
    if not row or tool not in row:
        return "-"
    flag = "" if tool != "paperlens" or row.get("status", "ok") == "ok" else " (partial)"
    return f"{row[tool]:.3f}{flag}"
