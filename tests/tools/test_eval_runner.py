"""The evaluation runner end to end with fake converters on a two-item manifest."""

import json
import shlex
import sys
from pathlib import Path

import pytest

from tools.eval.conversion import Conversion, ConversionError, cli_converter
from tools.eval.manifest import ManifestError, load_manifest
from tools.eval.report import compare_to_baseline
from tools.eval.runner import main

TRUTHS = {
    "line": ("scanned_image", "text", "truth.txt", "hello world"),
    "page": (
        "table",
        "olmocr_tests",
        "truth.jsonl",
        '{"pdf": "p.pdf", "page": 1, "id": "f1", "type": "present", "text": "Total"}\n'
        '{"pdf": "p.pdf", "page": 1, "id": "f2", "type": "absent", "text": "Page 3"}\n',
    ),
}


@pytest.fixture
def manifest(tmp_path: Path) -> Path:
    entries = []
    for item_id, (category, truth_format, truth_name, truth) in TRUTHS.items():
        folder = tmp_path / "items" / item_id
        folder.mkdir(parents=True)
        (folder / "input.png").write_bytes(b"not really an image")
        (folder / truth_name).write_text(truth, encoding="utf-8")
        entries.append(
            {
                "id": item_id,
                "category": category,
                "tags": [],
                "input": f"items/{item_id}/input.png",
                "truth": f"items/{item_id}/{truth_name}",
                "truth_format": truth_format,
            }
        )
    path = tmp_path / "manifest.json"
    path.write_text(json.dumps(entries), encoding="utf-8")
    return path


def fake_converter(outputs: dict[str, str]):
    def convert(input_path: Path) -> str:
        return outputs[input_path.parent.name]

    return convert


GOOD = {"line": "hello world", "page": "| Total | 3 |\n|---|---|\n"}
WORSE = {"line": "hello", "page": "Total\n\nPage 3"}


def test_run_writes_results_and_prints_tables(manifest, tmp_path, capsys):
    out = tmp_path / "results.json"
    code = main(["--manifest", str(manifest), "--out", str(out)], converter=fake_converter(GOOD))
    assert code == 0
    results = json.loads(out.read_text())
    by_id = {item["id"]: item for item in results["items"]}
    assert by_id["line"]["score"] == 1.0
    assert by_id["line"]["metrics"]["exact_match"] == 1.0
    assert by_id["page"]["score"] == 1.0
    assert (by_id["page"]["facts_passed"], by_id["page"]["facts_total"]) == (2, 2)
    assert by_id["page"]["seconds"] >= 0
    assert results["categories"]["all"]["n"] == 2
    printed = capsys.readouterr().out
    assert "scanned_image" in printed and "facts_pass_rate" in printed


def test_baseline_comparison_reports_regressions(manifest, tmp_path, capsys):
    baseline = tmp_path / "baseline.json"
    main(["--manifest", str(manifest), "--out", str(baseline)], converter=fake_converter(GOOD))
    capsys.readouterr()
    argv = ["--manifest", str(manifest), "--out", str(tmp_path / "now.json")]
    code = main([*argv, "--baseline", str(baseline)], converter=fake_converter(WORSE))
    printed = capsys.readouterr().out
    assert code == 1
    assert "REGRESSION item line: 1.000 -> 0.455 (-0.545)" in printed
    assert "REGRESSION item page: 1.000 -> 0.500 (-0.500)" in printed
    assert "4 regressions" in printed  # two items and their two categories


def test_baseline_without_change_says_no_regressions(manifest, tmp_path, capsys):
    baseline = tmp_path / "baseline.json"
    main(["--manifest", str(manifest), "--out", str(baseline)], converter=fake_converter(GOOD))
    argv = ["--manifest", str(manifest), "--out", str(tmp_path / "again.json")]
    argv += ["--baseline", str(baseline), "--ids", "line"]
    code = main(argv, converter=fake_converter(GOOD))
    assert code == 0
    assert "no regressions (1 items compared" in capsys.readouterr().out


def test_only_filters_by_category(manifest, tmp_path):
    out = tmp_path / "r.json"
    argv = ["--manifest", str(manifest), "--out", str(out), "--only", "table"]
    main(argv, converter=fake_converter(GOOD))
    assert [item["id"] for item in json.loads(out.read_text())["items"]] == ["page"]


def test_failed_conversion_scores_zero_with_its_error(manifest, tmp_path, capsys):
    def failing(input_path: Path) -> str:
        raise ConversionError("exit status 3: model missing")

    out = tmp_path / "r.json"
    assert main(["--manifest", str(manifest), "--out", str(out)], converter=failing) == 0
    items = json.loads(out.read_text())["items"]
    assert all(item["score"] == 0.0 and "model missing" in item["error"] for item in items)
    assert "ERROR: exit status 3" in capsys.readouterr().out


def test_converter_warnings_are_kept(manifest, tmp_path):
    out = tmp_path / "r.json"
    main(
        ["--manifest", str(manifest), "--out", str(out), "--ids", "line"],
        converter=lambda path: Conversion("hello world", ("warning: page 1 skipped",)),
    )
    assert json.loads(out.read_text())["items"][0]["warnings"] == ["warning: page 1 skipped"]


def test_cli_converter_runs_a_command_and_reads_stem_md(tmp_path):
    script = (
        "import pathlib, sys; src, out = map(pathlib.Path, sys.argv[1:3]); "
        "(out / (src.stem + '.md')).write_text('# converted ' + src.name); "
        "print('warning: slow page', file=sys.stderr)"
    )
    source = tmp_path / "doc.pdf"
    source.write_bytes(b"%PDF")
    convert = cli_converter([sys.executable, "-c", script, "{input}", "{outdir}"], tmp_path, 30)
    assert convert(source) == Conversion("# converted doc.pdf", ("warning: slow page",))


def test_cli_converter_reports_failures(tmp_path):
    source = tmp_path / "doc.pdf"
    source.write_bytes(b"%PDF")
    failing = cli_converter(
        [sys.executable, "-c", "import sys; sys.exit('cannot read {input}')"], tmp_path, 30
    )
    with pytest.raises(ConversionError, match="exit status 1: cannot read"):
        failing(source)
    silent = cli_converter([sys.executable, "-c", "pass", "{input}"], tmp_path, 30)
    with pytest.raises(ConversionError, match="expected doc.md"):
        silent(source)
    with pytest.raises(ValueError, match="placeholder"):
        cli_converter(shlex.split("echo nothing"), tmp_path, 30)


def test_cli_converter_checks_the_json_it_wrote_against_its_schema(tmp_path):
    """Paperlens's document JSON and content list are checked on every evaluated document; a
    JSON of another shape (another converter's) is left alone."""
    script = (
        "import json, pathlib, sys; src, out = map(pathlib.Path, sys.argv[1:3]); "
        "(out / (src.stem + '.md')).write_text('text'); "
        "(out / 'other.json').write_text(json.dumps({'anything': 1})); "
        "(out / (src.stem + '.json')).write_text(json.dumps("
        "{'path': str(src), 'kind': 'pdf', 'page_count': 1, 'pages': [], 'outputs': [], "
        "'warnings': [], 'status': 'ok'}))"
    )
    source = tmp_path / "doc.pdf"
    source.write_bytes(b"%PDF")
    convert = cli_converter([sys.executable, "-c", script, "{input}", "{outdir}"], tmp_path, 30)
    with pytest.raises(ConversionError, match="departs from its schema.*schema_version"):
        convert(source)


def test_manifest_errors_are_reported(tmp_path, manifest, capsys):
    broken = json.loads(manifest.read_text())
    broken[1]["truth_format"] = "pdf"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(broken))
    with pytest.raises(ManifestError, match="unknown truth_format"):
        load_manifest(bad)
    assert main(["--manifest", str(bad), "--out", str(tmp_path / "x.json")], converter=str) == 2
    assert "unknown truth_format" in capsys.readouterr().err


def test_compare_to_baseline_tolerates_small_drops():
    base = [{"id": "a", "category": "c", "score": 0.90}]
    lines, verdict = compare_to_baseline([{"id": "a", "category": "c", "score": 0.89}], base)
    assert lines == [] and verdict.startswith("no regressions")


def test_display_math_faults_of_the_written_json_are_kept_and_counted(manifest, tmp_path,
                                                                      capsys):
    page = {"page_number": 1, "blocks": [
        {"kind": "formula", "text": "", "latex": "x = 1 \\tag{2}"},
        {"kind": "formula", "text": "", "latex": "x=1"},
        {"kind": "text", "text": "(2)", "latex": ""}]}
    out = tmp_path / "r.json"
    main(["--manifest", str(manifest), "--out", str(out), "--ids", "line"],
         converter=lambda path: Conversion("hello world", (), {"pages": [page]}))
    report = json.loads(out.read_text())
    assert [f["kind"] for f in report["items"][0]["math_faults"]] == [
        "duplicate_display", "number_alone"]
    assert report["math_faults"]["faults"] == 2
    assert "math faults: 2 on 1 pages of 1 documents" in capsys.readouterr().out
    main(["--manifest", str(manifest), "--out", str(out), "--ids", "line"],
         converter=lambda path: Conversion("hello world"))
    assert json.loads(out.read_text())["math_faults"] is None
    assert "math faults: not checked" in capsys.readouterr().out
