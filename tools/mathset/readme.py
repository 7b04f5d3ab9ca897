"""The README's math-set table, from docs/results/mathset.json: per variant and family, then
each variant's pages together."""

from __future__ import annotations

from collections.abc import Mapping


def _figure(row: Mapping, key: str) -> str:
    return f"{row[key]:.3f}" if row.get(key) is not None else "-"


def _row(name: str, row: Mapping) -> str:
    return (f"| {name} | {row['pages']} | {_figure(row, 'paperlens')} | {_figure(row, 'pymupdf')} "
            f"| {_figure(row, 'tesseract')} | {_figure(row, 'inline_precision')} "
            f"| {_figure(row, 'inline_recall')} | {_figure(row, 'inline_similarity')} |")


def readme_markdown(results: Mapping) -> str:
    rows = ["| pages | count | Paperlens text | PyMuPDF text | Tesseract text | inline precision "
            "| inline recall | matched formula similarity |",
            "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for name, row in results["families"].items():
        rows.append(_row(name, row))
    for variant, row in results.get("variants", {}).items():
        rows.append(_row(f"**{variant}, all**", row))
    return "\n".join(rows) + "\n"


def bench_markdown(results: Mapping) -> str:
    """The README's table of what inline math costs, from docs/results/mathset_bench.json."""
    rows = ["| page | variant | inline math on (s) | off (s) | ratio | limit | inline stage (s) "
            "| stage / off |", "|---|---|---:|---:|---:|---:|---:|---:|"]
    for name, row in results["pages"].items():
        rows.append(f"| {name} | {row['variant']} | {row['median_on_s']:.2f} "
                    f"| {row['median_off_s']:.2f} | {row['ratio']:.3f} | {row['limit']:.2f} "
                    f"| {row['median_inline_stage_s']:.3f} "
                    f"| {row['median_inline_stage_s'] / row['median_off_s']:.1%} |")
    return "\n".join(rows) + "\n"
