"""The README's photo table, from docs/results/photos.json (`python -m tools.photos`): each
effect's order-sensitive text similarity per page, Paperlens with its photo steps on and off,
beside Tesseract; a Paperlens page marked partial says so."""

from __future__ import annotations

from collections.abc import Mapping

from tools.gfm import gfm_table

TOOLS = (("paperlens", "Paperlens"), ("paperlens_steps_off", "steps off"),
         ("tesseract", "Tesseract"))
PAGE_TITLES = {"en_prose": "English", "zh_prose": "Chinese", "en_columns": "Two columns",
               "zh_columns": "Chinese, two columns", "en_table": "Table"}


def _shot(row: Mapping) -> str:
    return row["effect"] if row["effect"] in ("flat", "turn") else \
        f"{row['effect']} {row['strength']}"


def readme_markdown(results: Mapping) -> str:
    cells: dict[tuple[str, str, str], str] = {}
    shots: list[str] = []
    pages: list[str] = []
    for row in results["photos"]:
        shot = _shot(row)
        if shot not in shots:
            shots.append(shot)
        if row["page"] not in pages:
            pages.append(row["page"])
        text = f"{row['similarity']:.3f}"
        if row.get("status") == "partial":
            text += " (partial)"
        cells[(shot, row["page"], row["tool"])] = text
    headers = ["photo"] + [f"{PAGE_TITLES.get(page, page)}: {title}"
                           for page in pages for _, title in TOOLS]
    rows = [[shot] + [cells.get((shot, page, tool), "-") for page in pages for tool, _ in TOOLS]
            for shot in shots]
    meta = results["set"]
    return (f"{gfm_table(headers, rows)}\n\nOrder-sensitive text similarity of each photo "
            f"(seed {meta['seed']}, {meta['photos']} photos); \"partial\": the page said that "
            "it could not read part of its text.\n")


BENCH_LABELS = {"flat scan": "a flat scan (the dev set's docling-ocr_test page)",
                "photo flat": "a photo of a page lying flat", "photo curl-2": "a curled photo",
                "photo all-2": "a photo with every effect"}


def bench_markdown(results: Mapping) -> str:
    """The README's photo-step cost table, from docs/results/photos_bench.json
    (`python -m tools.photos --bench`, run by `make bench`)."""
    rows = []
    runs = 0
    for label, row in results["pages"].items():
        runs = row["runs"]
        rows.append([BENCH_LABELS.get(label, label), f"{row['median_on_s']:.2f}",
                     f"{row['median_off_s']:.2f}", f"{(row['ratio'] - 1) * 100:+.0f}%",
                     f"{row['median_photo_stage_s']:.2f}",
                     f"{row['median_photo_stage_s'] / row['median_on_s'] * 100:.0f}%"])
    headers = ["input", "steps on (s)", "steps off (s)", "cost", "photo stage (s)",
               "stage's share"]
    return (f"{gfm_table(headers, rows)}\n\nMedians of {runs} runs with the photo steps on and "
            "off in turn, in one process; \"cost\": the time with the steps against without "
            "them; \"stage's share\": the photo stage's own time in the time with the "
            "steps.\n")
