"""The README's screenshot table, from docs/results/uishots.json (`python -m tools.uishots`)."""

from __future__ import annotations

from collections.abc import Mapping

from tools.gfm import gfm_table


def _cell(row: Mapping | None, key: str) -> str:
    if row is None:
        return "-"
    if key in ("code_exact", "rows_exact"):
        return f"{row[key]}/{row['shots']}" if key in row else "-"
    if key == "headings":
        return str(row["headings"])
    return f"{row['similarity']:.3f}"


def readme_markdown(results: Mapping) -> str:
    summary = results["summary"]
    families = sorted({key.split("/")[0] for key in summary})
    scales = sorted({key.split("/")[1] for key in summary})
    rows = []
    for family in families:
        for scale in scales:
            ours = summary.get(f"{family}/{scale}/paperlens")
            theirs = summary.get(f"{family}/{scale}/tesseract")
            if ours is None and theirs is None:
                continue
            rows.append([family, scale, _cell(ours, "similarity"), _cell(ours, "code_exact"),
                         _cell(ours, "rows_exact"), _cell(ours, "headings"),
                         _cell(theirs, "similarity"), _cell(theirs, "code_exact")])
    table = gfm_table(["screenshot", "scale", "Paperlens similarity", "code exact",
                       "rows and indentation exact", "headings", "Tesseract similarity",
                       "Tesseract code exact"], rows, left=2)
    meta = results["set"]
    return (f"{table}\n\nOrder-sensitive text similarity (mean); code exact: shots whose code "
            "block equals the listing line for line with its indentation (Tesseract: its whole "
            "text); rows and indentation exact: the same apart from misread characters; "
            "headings: `#` lines in the output (a user interface has none, an article its title "
            f"and section heads). {meta['count']} shots per family and scale, drawn by headless "
            f"Chromium (seed {meta['seed']}).\n")
