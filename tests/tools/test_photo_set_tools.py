"""The photo set's tooling without the models: the table page it draws, results of some pages
measured again merged with the others, and the README's table of what the photo steps cost."""

from __future__ import annotations

import pytest

from tools.eval.tables import pipe_tables
from tools.photos import pages, readme
from tools.photos.measure import merged, summarised


def test_the_table_page_draws_its_table_between_paragraphs():
    import pymupdf

    pdf, truth = pages.draw("en_table", 1)
    tables = pipe_tables(truth)
    assert len(tables) == 1 and len(tables[0].rows) == pages.TABLE_ROWS + 1  # and a header
    parts = truth.split("\n\n")
    at = next(i for i, part in enumerate(parts) if part.startswith("| "))
    assert 0 < at < len(parts) - 1  # prose before and after it
    with pymupdf.open(stream=pdf) as doc:
        page = doc[0]
        words = page.get_text()
        rules = [d for d in page.get_drawings() if d["items"][0][0] == "l"]
    assert all(word in words for word in pages.TABLE_HEADER)
    assert len(rules) == pages.TABLE_ROWS + 2 + len(pages.TABLE_HEADER) + 1  # the grid


def _row(page: str, tool: str, similarity: float) -> dict:
    return {"id": f"{page}-flat", "page": page, "effect": "flat", "strength": 1, "tool": tool,
            "similarity": similarity, "math_faults": [] if tool != "tesseract" else None}


def test_pages_measured_again_replace_their_rows_and_keep_the_others():
    earlier = summarised(1, [_row("en_prose", "paperlens", 1.0),
                             _row("en_table", "paperlens", 0.5)])
    for row in earlier["photos"]:
        if row["math_faults"] is None:
            del row["math_faults"]
    manifest = {"seed": 1, "photos": [{"page": "en_table"}]}
    rows = merged(earlier, manifest, [_row("en_table", "paperlens", 0.98)])
    assert [(r["page"], r["similarity"]) for r in rows] == [("en_prose", 1.0), ("en_table", 0.98)]
    assert summarised(1, rows)["summary"]["en_table/flat/paperlens"]["similarity"] == 0.98
    with pytest.raises(ValueError, match="seed"):
        merged(earlier, {"seed": 2, "photos": []}, rows)


def test_the_cost_table_says_the_share_of_the_photo_stage():
    table = readme.bench_markdown({"pages": {"flat scan": {
        "runs": 3, "median_on_s": 5.0, "median_off_s": 4.9, "ratio": 1.02,
        "median_photo_stage_s": 0.05}}})
    assert "| a flat scan (the dev set's docling-ocr_test page) | 5.00 | 4.90 | +2% | 0.05 | 1% |" \
        in table


def test_the_light_measurement_evens_paper_and_keeps_ink():
    import numpy as np

    from tools.photos import light

    page = np.full((400, 300, 3), 240, np.uint8)
    page[100:110, 40:260] = 30  # a line of "ink"
    shaded = light.shadow_band(page, 1, depth=0.4)
    assert shaded[:, :, 0].min() < 240 * 0.5 and shaded[0, 0, 0] > 230  # a band, not all
    evened = light.even_light(shaded)
    paper = np.ones(page.shape[:2], bool)
    paper[95:115] = False
    # The darkest paper, bar its band's edges: far below white as shot, near white evened.
    assert np.percentile(shaded[paper], 5) < 150 and np.percentile(evened[paper], 5) > 220
    assert evened[105, 150].max() < 80  # the ink stays dark
