"""Statistics and report formatting of tools/bench on fake timing data (no models, no engine)."""

from __future__ import annotations

import json

import pytest

from tools.bench.documents import DocumentKind, given_document
from tools.bench.machine import parse_cpuinfo
from tools.bench.measure import ColdStart
from tools.bench.report import (BenchReport, acceptance_lines, format_table, machine_lines,
                                render_report, report_json)
from tools.bench.stats import (PageSample, RunSample, acceptance_figures, median, ratio,
                               split_page_walls, split_timings, summarise_document)


def ocr_run(wall_s: float, det_s: float = 1.0, rec_s: float = 0.2) -> RunSample:
    page = PageSample(page_number=1, text_source="ocr", wall_s=wall_s,
                      stages_s={"render": 0.1, "text_layer": 0.0,
                                "ocr": det_s + rec_s + 0.05, "blocks": 0.0},
                      onnx_s={"det": det_s, "rec": rec_s})
    return RunSample(convert_s=wall_s, export_s=0.01, pages=(page,))


def text_run(*walls: float) -> RunSample:
    pages = tuple(PageSample(page_number=i + 1, text_source="txt", wall_s=w,
                             stages_s={"render": w / 2, "text_layer": w / 4, "ocr": 0.0,
                                       "blocks": 0.0}, onnx_s={})
                  for i, w in enumerate(walls))
    return RunSample(convert_s=sum(walls), export_s=0.0, pages=pages)


def test_median_odd_even_and_empty() -> None:
    assert median([3.0, 1.0, 2.0]) == 2.0
    assert median([4.0, 1.0, 2.0, 3.0]) == 2.5
    with pytest.raises(ValueError):
        median([])


def test_ratio_guards_zero_denominator() -> None:
    assert ratio(3.0, 2.0) == 1.5
    assert ratio(1.0, 0.0) is None


def test_page_walls_share_the_overhead_and_sum_to_the_convert() -> None:
    walls = split_page_walls(convert_s=1.0, started_at=10.0, done_at=[10.3, 10.8])
    assert walls == pytest.approx([0.3 + 0.1, 0.5 + 0.1])
    assert sum(walls) == pytest.approx(1.0)
    assert split_page_walls(1.0, 0.0, []) == []


def test_split_timings_separates_stages_from_roles() -> None:
    stages, onnx = split_timings({"render": 0.1, "ocr": 1.0, "onnx_det": 0.7, "onnx_rec": 0.2,
                                  "step_det": 0.75, "step_script_reading.rec": 0.05})
    assert stages == {"render": 0.1, "ocr": 1.0}  # the steps inside "ocr" are not stages
    assert onnx == {"det": 0.7, "rec": 0.2}


def test_summary_takes_medians_over_runs() -> None:
    runs = [ocr_run(1.5), ocr_run(1.2), ocr_run(3.0)]
    summary = summarise_document("scan", "scanned", runs)
    assert summary.page_s == pytest.approx(1.5)
    assert summary.convert_min_s == 1.2 and summary.convert_max_s == 3.0
    assert summary.ocr_ratio == pytest.approx(1.5 / 1.2)
    assert summary.onnx_s == {"det": 1.0, "rec": 0.2}
    assert summary.stage_ratios["ocr"] == pytest.approx(1.25 / 1.2)
    assert summary.stages_s["export"] == pytest.approx(0.01)


def test_text_layer_document_has_no_ratio() -> None:
    summary = summarise_document("digital", "digital", [text_run(0.1), text_run(0.2)])
    assert summary.ocr_ratio is None
    assert summary.stage_ratios == {}
    assert summary.text_sources == ("txt",)


def test_acceptance_uses_reference_scan_and_every_text_page() -> None:
    documents = {
        "scan": [ocr_run(1.3), ocr_run(1.2), ocr_run(1.4)],
        "other-scan": [ocr_run(6.0)],
        "digital": [text_run(0.1, 0.5), text_run(0.3, 0.5)],
    }
    figures = acceptance_figures(documents, ["scan"])
    assert figures.scanned_label == "scan"
    assert figures.scanned_ratio == pytest.approx(1.3 / 1.2)
    # Page 1 median 0.2 s, page 2 median 0.5 s -> median over pages 0.35 s.
    assert figures.digital_pages == 2
    assert figures.digital_page_s == pytest.approx(0.35)
    assert figures.digital_slowest_s == pytest.approx(0.5)
    assert figures.digital_slowest_label == "digital p2"
    assert figures.scanned_breakdown_s["inference"] == pytest.approx(1.2)
    assert figures.scanned_breakdown_s["ocr outside inference"] == pytest.approx(0.05)


def test_acceptance_falls_back_to_every_ocr_page_without_the_reference() -> None:
    figures = acceptance_figures({"a": [ocr_run(2.4)]}, ["missing"])
    assert figures.scanned_ratio == pytest.approx(2.0)
    assert figures.digital_page_s is None


def test_acceptance_lines_state_targets_and_verdicts() -> None:
    documents = {"scan": [ocr_run(1.8)], "digital": [text_run(0.05)]}
    lines = acceptance_lines(acceptance_figures(documents, ["scan"]))
    assert lines[0].startswith("digital PDF page: median 0.050 s (target < 0.3 s) PASS")
    assert lines[1] == "  slowest text-layer page: digital 0.050 s (within the target)"
    assert lines[2].startswith("scanned A4 page at 200 dpi: pipeline/pure-ONNX ratio 1.50 "
                               "(target <= 1.2) FAIL")
    assert "inference 1.200" in lines[3]


def test_format_table_aligns_columns() -> None:
    table = format_table(["doc", "s"], [["a", "1.0"], ["longer", "10.25"]])
    rows = table.splitlines()
    assert rows[0] == "doc         s"
    assert rows[2] == "a         1.0"
    assert rows[3] == "longer  10.25"


def test_report_renders_and_serialises() -> None:
    documents = {"scan": [ocr_run(1.4), ocr_run(1.5)], "digital": [text_run(0.04)]}
    summaries = [summarise_document("scan", "scanned", documents["scan"]),
                 summarise_document("digital", "digital", documents["digital"])]
    report = BenchReport(
        machine={"cpu_model": "Test CPU", "logical_cores": 2, "physical_cores": 2,
                 "device": "cpu", "onnxruntime": "1.0", "ort_intra_op_threads": 2,
                 "python": "3.11", "load_average_1m_at_start": 0.1},
        config={"runs": 2, "warmup": 1, "dpi": 200, "method": "auto", "write_outputs": True},
        cold_start=ColdStart(label="scan", import_s=0.4, convert_s=2.5,
                             roles_loaded=("det", "rec")),
        summaries=summaries, figures=acceptance_figures(documents, ["scan"]),
        peak_rss_mib=512.0, runs=documents)
    text = render_report(report)
    assert "Test CPU, 2 logical / 2 physical cores, device cpu" in text
    assert "first convert (scan, sessions created: det, rec) 2.500 s" in text
    assert "onnx det" in text and "ocr/onnx" in text
    assert "peak RSS: 512 MiB" in text
    assert "WARNING" not in text
    data = json.loads(json.dumps(report_json(report)))
    assert data["acceptance"]["ratio_target"] == 1.2
    assert data["documents"][0]["label"] == "scan"
    assert len(data["runs"]["scan"]) == 2


def test_busy_machine_is_flagged() -> None:
    lines = machine_lines({"cpu_model": "Test CPU", "load_average_1m_at_start": 1.8})
    assert lines[1].startswith("WARNING: load average 1.8 at start")


def test_parse_cpuinfo_counts_physical_cores() -> None:
    text = "\n".join([
        "processor\t: 0", "model name\t: Test CPU", "physical id\t: 0", "core id\t: 0", "",
        "processor\t: 1", "model name\t: Test CPU", "physical id\t: 0", "core id\t: 0", "",
        "processor\t: 2", "model name\t: Test CPU", "physical id\t: 0", "core id\t: 1", "",
    ])
    assert parse_cpuinfo(text) == ("Test CPU", 2)
    assert parse_cpuinfo("") == ("", None)


def test_given_document_is_labelled_by_its_item_folder(tmp_path) -> None:
    item = tmp_path / "docling-ocr_test"
    item.mkdir()
    (item / "input.pdf").write_bytes(b"%PDF-1.4")
    document = given_document(str(item), tmp_path)
    assert document.label == "docling-ocr_test"
    # The PDF embeds its scan at 600 dpi; the reference scan is the same page at 200 dpi.
    assert document.kind is DocumentKind.SCANNED and not document.reference_scan
    with pytest.raises(ValueError):
        given_document("nothing-here.pdf", tmp_path)
