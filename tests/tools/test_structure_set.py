"""The generated structure set: pages drawn reproducibly with truth in reading order, scanned
variants, scoring, and the README table written from its results."""

from __future__ import annotations

import random

import pymupdf
import pytest

from tools.eval.scoring import text_similarity
from tools.structure.generate import generate
from tools.structure.layouts import FAMILIES, draw_page
from tools.structure.readme import readme_markdown
from tools.structure.scans import scan
from tools.structure.text_source import load_prose


@pytest.fixture(scope="module")
def prose():
    return load_prose()


@pytest.mark.parametrize("family", FAMILIES)
def test_every_word_of_the_truth_is_on_the_page(prose, family):
    pdf, truth = draw_page(family, prose, seed=5)
    with pymupdf.open(stream=pdf) as doc:
        page_words = sorted(doc[0].get_text().split())
    truth_words = sorted(w for w in truth.split() if not set(w) <= {"#"})
    # The page holds the truth's words plus the folio (page number) only.
    assert len(page_words) - len(truth_words) in (0, 1)
    assert set(truth_words) <= set(page_words)


def test_the_same_seed_draws_the_same_page(prose):
    assert draw_page("newspaper", prose, 9) == draw_page("newspaper", prose, 9)
    assert draw_page("newspaper", prose, 9)[1] != draw_page("newspaper", prose, 10)[1]


def test_half_the_pages_store_their_text_out_of_reading_order(prose):
    """The PDF's own text order is not the truth on every page, so it is a floor, not an
    oracle."""
    scores = []
    for seed in range(8):
        pdf, truth = draw_page("paper", prose, seed)
        with pymupdf.open(stream=pdf) as doc:
            scores.append(text_similarity(doc[0].get_text(), truth))
    assert min(scores) < 0.9 < max(scores)


def test_a_scan_is_a_jpeg_of_the_page(prose):
    pdf, _ = draw_page("single", prose, 3)
    data = scan(pdf, random.Random(3))
    assert data[:3] == b"\xff\xd8\xff" and len(data) > 20_000


def test_generate_writes_pages_truths_scans_and_a_manifest(tmp_path):
    pages = generate(tmp_path, count=1, seed=2, families=("single", "textbook"))
    assert [p["id"] for p in pages] == ["single-000", "textbook-000"]
    assert sorted(f.name for f in tmp_path.iterdir()) == [
        "manifest.json", "single-000.md", "single-000.pdf", "single-000.scan.jpg",
        "textbook-000.md", "textbook-000.pdf", "textbook-000.scan.jpg"]


def test_the_readme_table_comes_from_the_results():
    results = {"set": {"count": 4, "seed": 1}, "summary": {
        "paper/digital/paperlens": {"pages": 4, "similarity": 0.99, "min_similarity": 0.95,
                                    "word_f1": 1.0},
        "paper/digital/text_layer": {"pages": 4, "similarity": 0.8, "min_similarity": 0.5,
                                     "word_f1": 1.0},
        "paper/scanned/paperlens": {"pages": 4, "similarity": 0.97, "min_similarity": 0.9,
                                    "word_f1": 0.99}}}
    text = readme_markdown(results)
    assert "| paper | 4 | 0.990 (min 0.95) | 0.800 (min 0.50) | 0.970 (min 0.90) | - | - | - |" \
        in text
    results["summary"]["paper/scanned/paperlens"]["paragraph_f1"] = 0.875
    assert "| 0.970 (min 0.90) | - | 0.875 | - |" in readme_markdown(results)
    assert "4 generated pages per family (seed 1)" in text


def test_paragraphs_are_found_whole_or_not_at_all():
    from tools.structure.evaluate import paragraph_f1

    truth = "# Title\n\nThe first paragraph runs on.\n\nThe second one ends here.\n"
    assert paragraph_f1(truth, truth) == 1.0
    merged = "# Title\n\nThe first paragraph runs on. The second one ends here.\n"
    assert round(paragraph_f1(merged, truth), 4) == 0.4  # the title alone: P 1/2, R 1/3
    split = "# Title\n\nThe first paragraph\n\nruns on.\n\nThe second one ends here.\n"
    assert round(paragraph_f1(split, truth), 4) == round(2 * (2 / 4) * (2 / 3) / (2 / 4 + 2 / 3), 4)
    assert paragraph_f1("# Title\n\nThe first paragraph runs an.\n\nThe second one ends here.",
                        truth) == 1.0  # a letter misread is still the paragraph
