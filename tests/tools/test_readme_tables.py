"""The README's speed and peers tables, generated from results files (tools.readme_tables)."""

from __future__ import annotations

import json

import pytest

from tools import readme_tables
from tools.bench import readme as bench_readme
from tools.bench import runner as bench_runner
from tools.bench.formula_speed import FormulaRepeat, summarise_repeats
from tools.bench.report import BenchReport, results_json
from tools.bench.stats import PageSample, RunSample, acceptance_figures, summarise_document
from tools.peers import report as peers_report
from tools.peers import runner as peers_runner
from tools.peers.comparison import ItemResult, compare, markdown_table, rows_json
from tools.peers.plan import LABELS, Tool

MACHINE = {"cpu_model": "Test CPU", "logical_cores": 2, "device": "cpu", "onnxruntime": "1.0",
           "ort_intra_op_threads": 2, "load_average_1m_at_start": 0.3,
           "load_average_1m_at_end": 0.4}

# A bench summary as docs/results/bench.json holds it, cut to one scan and one digital page.
BENCH = {
    "created": "2026-12-01T00:00:00+00:00", "machine": MACHINE,
    "config": {"runs": 5, "warmup": 1, "formula_every": 4},
    "cold_start": {"label": "scan", "import_s": 0.5, "convert_s": 3.0, "roles_loaded": []},
    "documents": [
        {"label": "a4-scan-200dpi", "kind": "scanned", "page_count": 1, "text_sources": ["ocr"],
         "page_s": 0.8, "onnx_s": {"det": 0.5, "rec": 0.1, "layout": 0.1},
         "stage_ratios": {"ocr": 1.05, "layout": 1.1}},
        {"label": "some-paper", "kind": "given", "page_count": 2, "text_sources": ["txt", "txt"],
         "page_s": 0.2, "onnx_s": {"layout": 0.12, "table": 0.04},
         "stage_ratios": {"layout": 1.04, "table": 1.1}},
    ],
    "acceptance": {"digital_page_s": 0.2, "digital_pages": 2, "digital_slowest_s": 0.25,
                   "scanned_ratio": 1.14},
    "formula": {"images": 49, "batch_size": 8, "ms_per_formula": 99.0, "encoder_ms": 36.0,
                "decoder_ms": 54.0},
    "peak_rss_mib": 1843.2, "failures": {},
}

BENCH_TABLE = """\
| document | text | pages | s/page | pure ONNX s/page | wall / ONNX |
| --- | ---: | ---: | ---: | ---: | ---: |
| A4 scan, 200 dpi PNG (`a4-scan-200dpi`) | OCR + layout | 1 | 0.80 | 0.70 | 1.14 |
| some-paper (`some-paper`) | text layer + layout + table | 2 | 0.20 | 0.16 | 1.25 |
| text-layer pages, median of 2 | text layer | 2 | 0.20 |  |  |
| formula crops, batches of 8 (49 images) | formula model | - | 0.099 per formula \
| encoder 0.036, decoder 0.054 | 1.10 |"""

# A peers results file cut to two categories, Paperlens and Tesseract.
PEERS = {
    "created": "2026-12-01T01:00:00+00:00", "machine": MACHINE,
    "config": {"runs": 3, "warmup": 1, "budget_s": 10.0, "items": 3,
               "peers": ["rapidocr", "tesseract"]},
    "tools": {"paperlens": {"load_s": 1.0, "versions": {"paperlens": "0.1.0"}, "skipped": "",
                            "failed": ""},
              "rapidocr": {"load_s": None, "versions": {}, "skipped": "not installed",
                           "failed": ""},
              "tesseract": {"load_s": 0.3, "versions": {"tesseract": "5.3.0"}, "skipped": "",
                            "failed": ""}},
    "categories": [
        {"category": "scanned_image", "ours": {"items": 2, "score": 0.75, "page_s": 1.3,
                                               "errors": 0},
         "peers": {"tesseract": {"peer": {"items": 1, "score": 0.5, "page_s": 2.0, "errors": 0},
                                 "ours_same_items": {"items": 1, "score": 1.0, "page_s": 1.0,
                                                     "errors": 0},
                                 "score_ratio": 2.0, "time_ratio": 0.5}}},
        {"category": "all", "ours": {"items": 3, "score": 0.8, "page_s": 0.9, "errors": 0},
         "peers": {}},
    ],
    "items": [],
}

PEERS_TABLE = """\
| category | items | Paperlens score | Paperlens s/page | Tesseract score (ours/peer) \
| Tesseract s/page (ours/peer) |
| --- | ---: | ---: | ---: | ---: | ---: |
| scanned_image | 2 | 0.750 | 1.3 | 0.500 (2.00) n=1 | 2 (0.50) |
| **all** | 3 | 0.800 | 0.9 | — | — |"""


def test_the_speed_table_comes_from_the_bench_results():
    assert bench_readme.speed_table(BENCH) == BENCH_TABLE
    block = bench_readme.readme_markdown(BENCH)
    assert block.startswith("Measured on 2026-12-01 on Test CPU, 2 logical cores, CPU only")
    assert "medians of 5 converts after 1 warm-up" in block
    assert "load average 0.3 at the start." in block and "inflated" not in block
    assert "layout 1.04-1.10x, OCR 1.05x, tables 1.10x" in block
    assert "Peak RSS 1.8 GiB" in block
    assert "median 0.20, slowest 0.25" in block and "(1.14)" in block


def test_a_busy_run_says_its_seconds_are_inflated():
    busy = {**BENCH, "machine": {**MACHINE, "load_average_1m_at_start": 2.9}}
    assert "these seconds are inflated" in bench_readme.readme_markdown(busy)


def test_the_bench_writes_what_the_table_reads():
    """The summary python -m tools.bench commits, through JSON, into the table."""
    page = PageSample(page_number=1, text_source="ocr", wall_s=1.2,
                      stages_s={"layout": 0.2, "ocr": 0.9}, onnx_s={"det": 0.7, "layout": 0.18})
    runs = {"a4-scan-200dpi": [RunSample(convert_s=1.2, export_s=0.01, pages=(page,))]}
    report = BenchReport(
        machine=MACHINE, config={"runs": 1, "warmup": 1, "formula_every": 4},
        cold_start=None,
        summaries=[summarise_document("a4-scan-200dpi", "scanned", runs["a4-scan-200dpi"])],
        figures=acceptance_figures(runs, ["a4-scan-200dpi"]), peak_rss_mib=900.0, runs=runs,
        formula=summarise_repeats([FormulaRepeat(0.8, 0.2, 0.5)], images=8, batch_size=8),
        created="2026-12-01T00:00:00+00:00")
    data = json.loads(json.dumps(results_json(report)))
    assert "runs" not in data
    table = bench_readme.speed_table(data)
    assert "| A4 scan, 200 dpi PNG (`a4-scan-200dpi`) | OCR + layout | 1 | 1.20 | 0.88 | 1.36 |" \
        in table
    assert "| 0.100 per formula | encoder 0.025, decoder 0.062 | 1.14 |" in table


def test_the_peers_table_comes_from_the_peers_results():
    assert peers_report.peers_table(PEERS) == PEERS_TABLE
    block = peers_report.readme_markdown(PEERS)
    assert PEERS_TABLE in block
    assert "load average 0.3 at the start and 0.4 at the end. 3 dev-set items" in block
    assert "Run of 2026-12-01." in block
    assert "Paperlens 1.00 s, Tesseract 0.30 s" in block
    assert "RapidOCR was skipped: not installed" in block
    assert "inflated" not in block
    busy = {**PEERS, "machine": {**MACHINE, "load_average_1m_at_end": 2.0}}
    assert "the seconds are inflated" in peers_report.readme_markdown(busy)


def test_the_peers_table_from_json_is_the_table_of_the_run():
    results = [ItemResult("paperlens", "a", "scan", 1.0, 2.0, 1),
               ItemResult("paperlens", "b", "digital", 0.9, 0.2, 1),
               ItemResult("tesseract", "a", "scan", 0.5, 1.0, 1),
               ItemResult("pymupdf4llm", "b", "digital", 0.6, 0.1, 1)]
    peers = ["tesseract", "pymupdf4llm"]
    rows = compare(results, "paperlens", peers)
    labels = {tool.value: label for tool, label in LABELS.items()}
    report = {"config": {"peers": peers}, "categories": json.loads(json.dumps(rows_json(rows))),
              "tools": {name: {"load_s": 1.0, "versions": {}, "skipped": "", "failed": ""}
                        for name in ["paperlens", *peers]}}
    assert peers_report.peers_table(report) == markdown_table(rows, peers, labels,
                                                              LABELS[Tool.PAPERLENS])


def _readme(tmp_path, bench_body="stale\n"):
    results = tmp_path / "results"
    results.mkdir(exist_ok=True)
    (results / "bench.json").write_text(json.dumps(BENCH))
    (results / "peers.json").write_text(json.dumps(PEERS))
    readme = tmp_path / "README.md"
    readme.write_text("# Title\n\nprose before\n\n<!-- results: bench -->\n" + bench_body
                      + "<!-- /results: bench -->\n\nprose between\n\n<!-- results: peers -->\n"
                      "<!-- /results: peers -->\nprose after\n")
    return readme, results


def test_regenerate_rewrites_only_the_marked_blocks(tmp_path):
    readme, results = _readme(tmp_path)
    text, changed = readme_tables.regenerate(readme.read_text(), results)
    assert changed == ["bench", "peers"]
    assert "stale" not in text
    assert BENCH_TABLE in text and PEERS_TABLE in text
    assert text.startswith("# Title\n\nprose before\n\n<!-- results: bench -->\nMeasured on")
    assert "<!-- /results: bench -->\n\nprose between\n" in text
    assert text.endswith("<!-- /results: peers -->\nprose after\n")
    assert readme_tables.regenerate(text, results) == (text, [])


def test_the_command_rewrites_and_checks(tmp_path, capsys):
    readme, results = _readme(tmp_path)
    args = ["--readme", str(readme), "--results", str(results)]
    assert readme_tables.main([*args, "--check"]) == 1
    assert "stale" in readme.read_text()  # --check changes nothing
    assert "block 'bench' differs" in capsys.readouterr().err
    assert readme_tables.main(args) == 0
    assert BENCH_TABLE in readme.read_text()
    assert readme_tables.main([*args, "--check"]) == 0


def test_an_unknown_block_or_a_missing_file_is_an_error(tmp_path):
    readme, results = _readme(tmp_path)
    with pytest.raises(readme_tables.BlockError, match="unknown results block 'speed'"):
        readme_tables.regenerate("<!-- results: speed -->\n<!-- /results: speed -->\n", results)
    (results / "peers.json").unlink()
    with pytest.raises(readme_tables.BlockError, match="peers.json"):
        readme_tables.regenerate(readme.read_text(), results)
    assert readme_tables.main(["--readme", str(readme), "--results", str(results)]) == 2


def test_the_readme_is_what_the_committed_results_give():
    """README.md's speed and peers blocks match docs/results/bench.json and peers.json: after a
    run, `python -m tools.readme_tables` (make bench does it) brings them in line."""
    text = readme_tables.DEFAULT_README.read_text(encoding="utf-8")
    for name in readme_tables.BLOCKS:
        assert f"<!-- results: {name} -->" in text
    assert readme_tables.regenerate(text, readme_tables.DEFAULT_RESULTS)[1] == []


def test_only_complete_runs_replace_the_committed_results(tmp_path):
    bench = bench_runner.parse_args
    assert bench_runner.results_path(bench([])) == bench_runner.DEFAULT_RESULTS
    assert bench_runner.results_path(bench(["--quick"])) == bench_runner.DEFAULT_RESULTS
    assert bench_runner.results_path(bench(["--formula-only"])) is None
    assert bench_runner.results_path(bench(["--docs", "a.pdf"])) is None
    assert bench_runner.results_path(bench(["--formula-every", "0"])) is None
    assert bench_runner.results_path(bench(["--docs", "a.pdf", "--results",
                                            str(tmp_path / "b.json")])) == tmp_path / "b.json"
    assert bench_runner.results_path(bench(["--no-results"])) is None
    peers = peers_runner._parser().parse_args
    assert peers_runner.results_path(peers([])) == peers_runner.DEFAULT_RESULTS
    assert peers_runner.results_path(peers(["--quick"])) == peers_runner.DEFAULT_RESULTS
    assert peers_runner.results_path(peers(["--only", "table"])) is None
    assert peers_runner.results_path(peers(["--ids", "x"])) is None
    assert peers_runner.results_path(peers(["--peers", "tesseract"])) is None
    assert peers_runner.results_path(peers(["--no-results"])) is None


def test_one_sets_run_rewrites_its_own_block_and_keeps_the_others(tmp_path):
    from tools import readme_blocks

    (tmp_path / "mine.json").write_text(json.dumps({"n": 2}), encoding="utf-8")
    readme = tmp_path / "README.md"
    readme.write_text("<!-- results: mine -->\nold\n<!-- /results: mine -->\n"
                      "<!-- results: theirs -->\nkept\n<!-- /results: theirs -->\n",
                      encoding="utf-8")
    assert readme_blocks.rewrite({"mine": ("mine.json", lambda r: f"n = {r['n']}")},
                                 readme=readme, results=tmp_path) == 0
    assert readme.read_text(encoding="utf-8") == (
        "<!-- results: mine -->\nn = 2\n<!-- /results: mine -->\n"
        "<!-- results: theirs -->\nkept\n<!-- /results: theirs -->\n")
