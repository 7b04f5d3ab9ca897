"""Outputs never replace what another input, another run or the user wrote: a document whose
name is taken in the output folder is written under the next free one (`doc-2` and its whole
set), two runs into one folder at once keep both results, and --overwrite is the one way to
replace an earlier run's files."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from engine.cli.main import main as cli_main
from engine.errors import OutputNotWritable
from engine.output.writer import OutputWriter

from engine_samples import folder_files, write_text_pdf
from fault_samples import REPO_ROOT, cli_environ

FAST = ["--layout", "none", "--method", "txt"]


@pytest.fixture
def isolated(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.setenv("PAPERLENS_CONFIG", str(tmp_path / "settings.json"))
    return tmp_path


def documents(folder: Path, *texts: str) -> list[Path]:
    """One `doc.pdf` per text, each in a folder of its own (A/doc.pdf, B/doc.pdf, ...)."""
    paths = []
    for letter, text in zip("ABCDEFG", texts):
        (folder / letter).mkdir()
        paths.append(write_text_pdf(folder / letter / "doc.pdf", [[text]]))
    return paths


def test_a_second_input_of_the_same_name_keeps_the_first_result(isolated, capsys):
    first, second = documents(isolated, "Alpha barley yields", "Beta oat prices")
    out = isolated / "out"
    assert cli_main(["convert", str(first), "-o", str(out), *FAST]) == 0
    assert cli_main(["convert", str(second), "-o", str(out), *FAST]) == 0
    assert folder_files(out) == ["doc-2.json", "doc-2.md", "doc-2_content_list.json",
                                 "doc.json", "doc.md", "doc_content_list.json"]
    assert "Alpha barley yields" in (out / "doc.md").read_text(encoding="utf-8")
    assert "Beta oat prices" in (out / "doc-2.md").read_text(encoding="utf-8")
    assert "written as doc-2.*" in capsys.readouterr().err


def test_the_users_own_file_is_never_replaced(isolated):
    out = isolated / "out"
    out.mkdir()
    (out / "report.md").write_text("My own notes, not Paperlens's\n", encoding="utf-8")
    source = write_text_pdf(out / "report.pdf", [["Quarterly report on rye"]])
    assert cli_main(["convert", str(source), "-o", str(out), *FAST]) == 0
    assert (out / "report.md").read_text(encoding="utf-8") == "My own notes, not Paperlens's\n"
    assert "Quarterly report on rye" in (out / "report-2.md").read_text(encoding="utf-8")
    assert not (out / "report.json").exists(), "the set moved to the new name whole"


def test_two_runs_at_once_into_one_folder_keep_both_results(tmp_path):
    texts = ("Alpha barley yields", "Beta oat prices", "Gamma rye stores")
    sources = documents(tmp_path, *texts)
    out = tmp_path / "out"
    env = cli_environ(tmp_path)
    runs = [subprocess.Popen([sys.executable, "-m", "engine.cli.main", "convert", str(source),
                              "-o", str(out), *FAST], cwd=REPO_ROOT, env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            for source in sources]
    for run in runs:
        _out, err = run.communicate(timeout=300)
        assert run.returncode == 0, err
        assert "1 of 1 document(s) converted" in err
    written = {p.name: p.read_text(encoding="utf-8") for p in out.glob("*.md")}
    assert sorted(written) == ["doc-2.md", "doc-3.md", "doc.md"]
    for text in texts:
        assert sum(text in markdown for markdown in written.values()) == 1, (text, written)
    assert not [p for p in out.iterdir() if ".paperlens-" in p.name], "staging left behind"


def test_a_name_another_run_is_writing_is_not_taken(tmp_path):
    busy = OutputWriter(tmp_path, "doc")  # a run in progress holds the name
    other = OutputWriter(tmp_path, "doc")
    try:
        assert (busy.stem, other.stem) == ("doc", "doc-2")
        other.commit({"doc-2.md": b"second\n"})
        busy.commit({"doc.md": b"first\n"})
    finally:
        busy.abort()
        other.abort()
    assert folder_files(tmp_path) == ["doc-2.md", "doc.md"]


def test_a_file_that_appears_meanwhile_is_left_and_nothing_is_written(tmp_path):
    writer = OutputWriter(tmp_path, "doc")
    writer.add_images({"images/doc-p1-figure1.png": np.zeros((4, 4, 3), np.uint8)})
    (tmp_path / "doc.md").write_text("typed by the user meanwhile\n", encoding="utf-8")
    with pytest.raises(OutputNotWritable) as caught:
        writer.commit({"doc.json": b"{}", "doc.md": b"# Doc\n"})
    assert f"doc.md appeared in {tmp_path}" in str(caught.value)
    assert (tmp_path / "doc.md").read_text(encoding="utf-8") == "typed by the user meanwhile\n"
    assert folder_files(tmp_path) == ["doc.md", "images"]
    assert folder_files(tmp_path / "images") == []


def test_overwrite_replaces_an_earlier_run(isolated):
    first, second = documents(isolated, "Alpha barley yields", "Beta oat prices")
    out = isolated / "out"
    assert cli_main(["convert", str(first), "-o", str(out), *FAST]) == 0
    assert cli_main(["convert", str(second), "-o", str(out), "--overwrite", *FAST]) == 0
    assert folder_files(out) == ["doc.json", "doc.md", "doc_content_list.json"]
    assert "Beta oat prices" in (out / "doc.md").read_text(encoding="utf-8")
