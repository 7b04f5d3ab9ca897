"""The math set's summaries and README tables: scores per variant and family, the variants'
totals, and what inline math costs."""

from __future__ import annotations

from tools.mathset.measure import summary, totals
from tools.mathset.readme import bench_markdown, readme_markdown

PAGES = [
    {"page": "p1", "variant": "born-digital", "family": "cm", "columns": 1, "seconds": 1.0,
     "paperlens": 0.9, "pymupdf": 0.8, "tesseract": 0.7, "inline_truth": 4, "inline_found": 5,
     "inline_matched": 4, "inline_similarity": 1.0},
    {"page": "p2", "variant": "born-digital", "family": "cm", "columns": 2, "seconds": 3.0,
     "paperlens": 0.7, "pymupdf": 0.6, "tesseract": None, "inline_truth": 6,
     "inline_found": 3, "inline_matched": 2, "inline_similarity": 0.5},
    {"page": "p1", "variant": "scanned", "family": "cm", "columns": 1, "seconds": 9.0,
     "paperlens": 0.8, "tesseract": 0.75, "inline_truth": 4, "inline_found": 0,
     "inline_matched": 0, "inline_similarity": 0.0},
]


def test_scores_per_variant_pool_the_counts_and_weigh_each_match():
    born = totals(PAGES)["born-digital"]
    assert born["inline_precision"] == 0.75 and born["inline_recall"] == 0.6
    assert born["inline_similarity"] == round((4 * 1.0 + 2 * 0.5) / 6, 4)
    assert born["tesseract"] == 0.7  # the page Tesseract could not read is left out
    scanned = totals(PAGES)["scanned"]
    assert "pymupdf" not in scanned and scanned["inline_recall"] == 0.0
    assert list(summary(PAGES)) == ["born-digital cm-1col", "born-digital cm-2col",
                                    "scanned cm-1col"]


def test_the_readme_tables():
    table = readme_markdown({"families": summary(PAGES), "variants": totals(PAGES)})
    assert "| scanned cm-1col | 1 | 0.800 | - | 0.750 | 0.000 | 0.000 | 0.000 |" in table
    assert "| **born-digital, all** | 2 | 0.800 | 0.700 | 0.700 | 0.750 | 0.600 | 0.833 |" in table
    cost = bench_markdown({"pages": {"paper": {
        "variant": "born-digital", "runs": 3, "median_on_s": 1.1, "median_off_s": 1.0,
        "ratio": 1.1, "median_inline_stage_s": 0.05, "limit": 1.15}}})
    assert "| paper | born-digital | 1.10 | 1.00 | 1.100 | 1.15 | 0.050 | 5.0% |" in cost
