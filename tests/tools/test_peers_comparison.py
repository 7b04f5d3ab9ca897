"""The peers comparison table on fake results: means, seconds per page, ours/peer ratios."""

from __future__ import annotations

import pytest

from tools.peers.comparison import (ALL_CATEGORIES, ItemResult, compare, figures,
                                    markdown_table, ratio, rows_json)
from tools.peers.plan import LABELS, Tool
from tools.peers.report import ToolState, render_markdown

LABELS_BY_NAME = {tool.value: label for tool, label in LABELS.items()}


def result(tool: str, item: str, category: str, score: float, seconds: float | None,
           pages: int = 1, error: str = "") -> ItemResult:
    return ItemResult(tool, item, category, score, seconds, pages, error)


# Paperlens reads all four items; RapidOCR all four; Tesseract only the two scans;
# pymupdf4llm only the digital page and fails on nothing.
FAKE = [
    result("paperlens", "scan1", "scanned", 1.0, 2.0),
    result("paperlens", "scan2", "scanned", 0.8, 6.0, pages=2),
    result("paperlens", "digital1", "digital", 0.9, 0.2),
    result("paperlens", "line1", "chinese", 1.0, 0.5),
    result("rapidocr", "scan1", "scanned", 0.5, 4.0),
    result("rapidocr", "scan2", "scanned", 0.5, 4.0, pages=2),
    result("rapidocr", "digital1", "digital", 0.3, 10.0),
    result("rapidocr", "line1", "chinese", 0.0, None, pages=0, error="RuntimeError: boom"),
    result("tesseract", "scan1", "scanned", 0.5, 1.0),
    result("pymupdf4llm", "digital1", "digital", 0.6, 0.1),
]


def rows_by_category():
    rows = compare(FAKE, "paperlens", ["rapidocr", "tesseract", "pymupdf4llm"])
    return {row.category: row for row in rows}


def test_ratio_needs_a_positive_denominator() -> None:
    assert ratio(1.0, 4.0) == 0.25
    assert ratio(1.0, 0.0) is None
    assert ratio(None, 2.0) is None
    assert ratio(1.0, None) is None


def test_figures_weight_seconds_by_pages_and_count_failures_as_zero() -> None:
    got = figures([result("x", "a", "c", 1.0, 2.0), result("x", "b", "c", 0.5, 6.0, pages=3),
                   result("x", "d", "c", 0.0, None, pages=0, error="failed")])
    assert got.items == 3 and got.errors == 1
    assert got.score == pytest.approx(0.5)
    assert got.page_s == pytest.approx(8.0 / 4)


def test_figures_of_nothing_is_an_error() -> None:
    with pytest.raises(ValueError):
        figures([])


def test_rows_are_sorted_categories_then_all() -> None:
    rows = compare(FAKE, "paperlens", ["rapidocr"])
    assert [row.category for row in rows] == ["chinese", "digital", "scanned", ALL_CATEGORIES]


def test_peer_cell_compares_on_the_items_the_peer_read() -> None:
    scanned = rows_by_category()["scanned"]
    assert scanned.ours.items == 2
    assert scanned.ours.score == pytest.approx(0.9)
    assert scanned.ours.page_s == pytest.approx(8.0 / 3)
    tesseract = scanned.peers["tesseract"]
    assert tesseract.peer.items == 1
    assert tesseract.ours.score == pytest.approx(1.0)  # Paperlens on scan1 only
    assert tesseract.score_ratio == pytest.approx(2.0)
    assert tesseract.time_ratio == pytest.approx(2.0)
    rapid = scanned.peers["rapidocr"]
    assert rapid.score_ratio == pytest.approx(0.9 / 0.5)
    assert rapid.time_ratio == pytest.approx((8.0 / 3) / (8.0 / 3))


def test_a_failed_item_scores_zero_and_leaves_the_time_comparison() -> None:
    chinese = rows_by_category()["chinese"]
    cell = chinese.peers["rapidocr"]
    assert cell.peer.errors == 1 and cell.peer.score == 0.0
    assert cell.score_ratio is None  # ours / 0
    assert cell.peer.page_s is None and cell.time_ratio is None


def test_peers_that_read_nothing_of_a_category_have_no_cell() -> None:
    rows = rows_by_category()
    assert "tesseract" not in rows["digital"].peers
    assert "pymupdf4llm" not in rows["scanned"].peers
    digital = rows["digital"].peers["pymupdf4llm"]
    assert digital.score_ratio == pytest.approx(1.5)
    assert digital.time_ratio == pytest.approx(2.0)


def test_the_all_row_spans_every_item() -> None:
    everything = rows_by_category()[ALL_CATEGORIES]
    assert everything.ours.items == 4
    assert everything.ours.score == pytest.approx(3.7 / 4)
    assert everything.ours.page_s == pytest.approx(8.7 / 5)
    rapid = everything.peers["rapidocr"]
    assert rapid.peer.items == 4
    # Times over the three items both timed: ours 8.2 s / 4 pages, RapidOCR 18 s / 4 pages.
    assert rapid.time_ratio == pytest.approx((8.2 / 4) / (18.0 / 4))


def test_markdown_table_shape_and_cells() -> None:
    rows = compare(FAKE, "paperlens", ["rapidocr", "tesseract"])
    table = markdown_table(rows, ["rapidocr", "tesseract"], LABELS_BY_NAME, "Paperlens")
    lines = table.splitlines()
    assert lines[0].startswith("| category | items | Paperlens score | Paperlens s/page |")
    assert "Tesseract s/page (ours/peer)" in lines[0]
    assert all(line.count("|") == lines[0].count("|") for line in lines)
    scanned = next(line for line in lines if line.startswith("| scanned "))
    assert "| 0.500 (2.00) n=1 | 1 (2.00) |" in scanned
    chinese = next(line for line in lines if line.startswith("| chinese "))
    assert "0.000 (n/a) 1 failed" in chinese
    assert chinese.endswith("| — | — |")
    assert lines[-1].startswith("| **all** | 4 |")


def test_rows_json_and_report_text() -> None:
    rows = compare(FAKE, "paperlens", ["tesseract"])
    data = rows_json(rows)
    assert data[-1]["category"] == ALL_CATEGORIES
    assert data[-1]["peers"]["tesseract"]["ours_same_items"]["items"] == 1
    states = {Tool.PAPERLENS: ToolState(load_s=1.5, versions={"paperlens": "0.1.0",
                                                              "onnxruntime": "1.2"}),
              Tool.TESSERACT: ToolState(load_s=0.5, versions={"tesseract": "5.3.0"}),
              Tool.PYMUPDF4LLM: ToolState(skipped="not installed")}
    text = render_markdown("TABLE", {"cpu_model": "Test CPU", "logical_cores": 2},
                           {"items": 4, "runs": 3, "warmup": 1,
                            "render_s_per_page_median": 0.05}, states)
    assert "TABLE" in text and "Test CPU" in text
    assert "Paperlens 1.50 s, Tesseract 0.50 s" in text
    assert "Paperlens 0.1.0 (onnxruntime 1.2); Tesseract 5.3.0" in text
    assert "pymupdf4llm was skipped: not installed" in text
