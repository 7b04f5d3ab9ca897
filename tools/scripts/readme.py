"""The README's per-script table, from docs/results/scripts.json (`python -m tools.scripts`)."""

from __future__ import annotations

from collections.abc import Mapping

from tools.gfm import gfm_table


# The README's columns: (heading, variant); each cell holds Paperlens' figure and Tesseract's.
COLUMNS = (("200 dpi", "clean"), ("200 dpi, degraded", "degraded"), ("150 dpi", "clean-150"),
           ("150 dpi, degraded", "degraded-150"), ("300 dpi", "clean-300"),
           ("300 dpi, degraded", "degraded-300"), ("two columns", "two-column"),
           ("two columns, degraded", "two-column-degraded"))


def readme_markdown(results: Mapping) -> str:
    rows_by_sample: dict[str, dict[str, dict]] = {}
    for row in results["pages"]:
        rows_by_sample.setdefault(row["sample"], {})[row["variant"]] = row
    columns = [(heading, variant) for heading, variant in COLUMNS
               if any(variant in v for v in rows_by_sample.values())]
    rows = []
    for sample, variants in rows_by_sample.items():
        first = next(iter(variants.values()))
        rows.append([sample, first["script"]]
                    + [_pair(variants.get(variant, {})) for _, variant in columns]
                    + [_cell(variants.get("digital", {}), "paperlens"),
                       ", ".join(sorted({s for v in variants.values() for s in v["scripts"]}))
                       or "-"])
    table = gfm_table(["page", "script"] + [heading for heading, _ in columns]
                      + ["born-digital", "read with Tesseract"], rows, left=2)
    table = table.replace(" ---: |\n", " --- |\n", 1)
    summary = results["summary"]
    short = summary.get("short_of_acceptance", [])
    lines = [table, "", "Character similarity to the truth (1 - edit distance / length), "
             "Paperlens / Tesseract in each scan's cell"
             + (f"; a degraded cell is the mean of {draws} draws of the degradation. "
                if (draws := results.get("set", {}).get("degraded_draws", 1)) > 1 else ". ") +
             "Paperlens with its default settings, no language named; Tesseract told each "
             "page's language (full-page segmentation, the same libtesseract 5.5, the language data of "
             "Debian's tesseract-ocr-<lang> packages). "
             "Means: " + "; ".join(
                 f"{variant} Paperlens {s['paperlens_mean']:.3f}"
                 + (f", Tesseract {s['tesseract_mean']:.3f}" if "tesseract_mean" in s else "")
                 for variant, s in summary.items() if isinstance(s, Mapping)) + ". "
             + ("Short of the bar (0.95 clean at 200 dpi, 0.98 born-digital, Tesseract's figure "
                "degraded): " + "; ".join(short) + "." if short else
                "Every page meets the bar: 0.95 clean at 200 dpi, 0.98 born-digital, at least "
                "Tesseract's figure degraded.")
             + _draws_under(results["pages"])]
    return "\n".join(lines) + "\n"


def _draws_under(rows: list[Mapping], bar: float = 0.95) -> str:
    """The degraded draws under `bar` that a cell's mean hides."""
    under = [f"{row['sample']} {row['variant']} {d['paperlens']:.3f}" for row in rows
             for d in row.get("draws", []) if d["paperlens"] < bar]
    return (f" Draws under {bar:.2f} (inside a mean over it): " + "; ".join(under) + "."
            if under else "")


def _pair(row: Mapping) -> str:
    return "-" if not row else f"{_cell(row, 'paperlens')} / {_cell(row, 'tesseract')}"


def _cell(row: Mapping, tool: str) -> str:
    if not row or tool not in row:
        return "-"
    flag = "" if tool != "paperlens" or row.get("status", "ok") == "ok" else " (partial)"
    return f"{row[tool]:.3f}{flag}"


STEP_NAMES = {"text_detector": "text detector", "layout_model": "layout model",
              "pp_ocr_recogniser": "PP-OCR recogniser (the probe and lines it keeps)",
              "tesseract_lines": "Tesseract's line reading",
              "tesseract_script_detection": "Tesseract's script detection"}


def _own_share(results: Mapping) -> str:
    """The script reader's own time in the page reader's, measured inside the same runs."""
    if "median_scripts_share" not in results:
        return ""
    return (f"; the script reader's own steps timed inside the same runs (the probe, the "
            f"doubts, any detection), median {results['median_scripts_share']:.1%} of the "
            f"page reader's time, at most {results['max_scripts_share']:.1%}")


def bench_markdown(results: Mapping) -> str:
    """The README's `scripts-bench` block, from docs/results/scripts_bench.json
    (python -m tools.scripts.bench)."""
    others = results["other_script_pages"]
    table = gfm_table(
        ["page", "Tesseract language", "Paperlens, warm (s)", "`tesseract` command (s)",
         "Tesseract, warm (s)", "Paperlens / command", "Paperlens / warm Tesseract"],
        [[r["page"], r["language"], f"{r['paperlens_s']:.2f}", f"{r['tesseract_command_s']:.2f}",
          f"{r['tesseract_warm_s']:.2f}", f"{r['ratio_command']:.2f}", f"{r['ratio_warm']:.2f}"]
         for r in others], left=2)
    same = results["same_script_pages"]
    load = results.get("load_average_1m", {})
    lines = [table, "",
             f"Medians of {results['repeat']} runs in turn on {results.get('cpu_count', '?')} "
             f"CPU cores (load average {load.get('start', '?')} at the start, "
             f"{load.get('end', '?')} at the end). Paperlens: the warm engine converting the "
             "clean 200 dpi page with its default settings, no language named (layout "
             "included); the `tesseract` command: `tesseract page.png - -l LANG`, its start "
             "included; warm Tesseract: one tesserocr instance's full-page run. Median "
             f"ratio {results['median_ratio_command']:.2f} to the command and "
             f"{results['median_ratio_warm']:.2f} to warm Tesseract. Finding scripts on "
             f"{len(same)} English, Chinese and Japanese pages: page reader time with it over "
             f"without, median {results['median_ratio_same_script']:.3f}, at most "
             f"{results['max_ratio_same_script']:.3f}" + _own_share(results) + "."]
    steps = results.get("median_step_shares")
    if steps:
        lines[-1] += (" Where a page in another script's time goes (median shares of the "
                      "engine's time): " + ", ".join(f"{STEP_NAMES.get(key, key)} {share:.0%}"
                                                     for key, share in steps.items())
                      + f", the rest {max(0.0, 1 - sum(steps.values())):.0%} (rendering, "
                      "orientation, the page's structure and Markdown).")
    return "\n".join(lines) + "\n"
