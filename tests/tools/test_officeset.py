"""The Office set: its generated documents read back to their truth (text and tables), the
truth grids' spans, and the scorer's pieces."""

from __future__ import annotations

import random

import pytest

from tools.officeset.generate import make_grid, write_docx, write_pptx, write_xlsx
from tools.officeset.measure import scan_text, table_scores
from tools.officeset.readme import readme_markdown
from tools.eval.scoring import text_similarity
from tools.structure.text_source import load_prose


def test_a_grid_places_its_spans():
    grid = make_grid(random.Random(3), ["alpha", "beta", "gamma"])
    full = grid.full()
    assert len(full) == 4 and all(len(row) == 4 for row in full)
    assert grid.spans() == [(0, 0, 1, 2), (1, 0, 2, 1)]
    assert full[0][1] is None and full[2][0] is None
    assert grid.html().count('colspan="2"') == 1 and grid.html().count('rowspan="2"') == 1


@pytest.fixture(scope="module")
def prose():
    return load_prose()


@pytest.mark.parametrize("writer", ["docx", "xlsx", "pptx"])
def test_generated_documents_read_back_to_their_truth(engine, prose, tmp_path, writer):
    rng = random.Random(7)
    words = ["river", "stone", "market", "engine", "window"]
    if writer == "docx":
        item = write_docx(tmp_path / "a.docx", rng, prose, words)
    elif writer == "xlsx":
        item = write_xlsx(tmp_path / "a.xlsx", rng, words)
    else:
        item = write_pptx(tmp_path / "a.pptx", rng, prose, words)
    from engine.options import ConvertOptions

    markdown = engine.convert(tmp_path / item.file, ConvertOptions()).markdown
    assert text_similarity(markdown, item.truth) == 1.0
    assert table_scores(markdown, item.tables) == [1.0] * len(item.tables)


def test_the_scorer_pairs_tables_in_order_and_strips_headings():
    table = "<table><tr><td>a</td></tr></table>"
    assert table_scores(f"x\n\n{table}\n", [table, table]) == [1.0, 0.0]
    assert scan_text("# Head\n\n![figure](images/a.png)\n\nread text\n").strip().endswith(
        "read text")
    assert not scan_text("# Head\n").strip()


def test_the_readme_table_shows_means_and_minima():
    text = readme_markdown({"families": {"docx": {"documents": 2, "text": 1.0, "text_min": 0.99,
                                                  "teds": 0.9, "teds_min": 0.8}}})
    assert "| docx | 2 | 1.000 (0.990) | 0.900 (0.800) |  |  |  |" in text


def test_the_readme_shows_docling_beside_when_measured():
    text = readme_markdown({"families": {}, "docling": {
        "version": "2.143.0", "families": {"pptx": {"documents": 2, "text": 0.5,
                                                    "text_min": 0.4}}}})
    assert "docling 2.143.0 on the same files" in text and "| pptx | 2 | 0.500 (0.400) |  |" in text


def test_doclings_header_cells_become_a_head():
    from tools.officeset.docling_side import _head_rows

    docling = ('<table><tbody><tr><th colspan="2">A</th></tr><tr><td>b</td><td>c</td></tr>'
               '</tbody></table>')
    assert _head_rows(docling) == ('<table><thead><tr><td colspan="2">A</td></tr></thead>'
                                   '<tbody><tr><td>b</td><td>c</td></tr></tbody></table>')
