"""The CLI at its edges: file names that hold control characters, a range written backwards, a
named pipe given as input, and a conversion that writes nothing."""

from __future__ import annotations

import os
from pathlib import Path

import cv2
import numpy as np
import pytest

from engine.cli.main import main as cli_main
from engine.names import shown

from engine_samples import folder_files
from fault_samples import cli_environ, run_cli_child


@pytest.fixture
def isolated(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.setenv("PAPERLENS_CONFIG", str(tmp_path / "settings.json"))
    return tmp_path


def test_control_characters_in_a_name_never_reach_the_terminal_raw(isolated, capsys):
    name = "minutes\nerror: forged line\x1b[2J.pdf"
    source = isolated / name
    source.write_bytes(np.random.default_rng(3).bytes(2048))  # no document: refused in words
    assert cli_main(["convert", str(source), "-o", str(isolated / "out")]) == 1
    err = capsys.readouterr().err
    assert "\x1b" not in err
    assert not any(line.startswith("error: forged") for line in err.splitlines())
    assert "minutes\\nerror: forged line\\x1b[2J.pdf" in err
    assert [line for line in err.splitlines() if line.startswith("error:")] == [
        line for line in err.splitlines() if line.startswith("error: ") and "minutes" in line]


def test_names_are_shown_with_their_controls_escaped():
    assert shown("a\tb\x00c\x7f\x9bd é") == "a\\tb\\x00c\\x7f\\x9bd é"


def test_a_range_written_backwards_says_so(isolated, capsys):
    assert cli_main(["convert", "x.pdf", "-o", str(isolated / "out"), "--pages", "5-2"]) == 2
    err = capsys.readouterr().err
    assert "'5-2' runs backwards; write it as 2-5" in err
    assert "start at 1" not in err


def test_a_named_pipe_is_refused_at_once(tmp_path):
    pipe = tmp_path / "incoming.pdf"
    os.mkfifo(pipe)
    # Opening a pipe would wait for a writer for ever: the run is bounded, and must end itself.
    run = run_cli_child(["convert", pipe.name, "-o", str(tmp_path / "out")],
                        cli_environ(tmp_path), cwd=tmp_path, timeout_s=60)
    assert run.code == 1, run.stderr
    assert "incoming.pdf is a named pipe (FIFO), not a document file" in run.stderr


@pytest.mark.model
def test_nothing_written_is_exit_1_and_says_so(isolated, capsys):
    source = isolated / "blank.png"
    cv2.imwrite(str(source), np.full((300, 400, 3), 255, np.uint8))
    out = isolated / "out"
    code = cli_main(["convert", str(source), "-o", str(out), "--format", "docx,xlsx",
                     "--layout", "none"])
    err = capsys.readouterr().err
    assert code == 1, err
    assert "nothing was written" in err
    assert "the other outputs were\n" not in err
    assert folder_files(out) == []


def test_ctrl_c_inside_a_library_callback_is_not_lost(isolated, capsys, monkeypatch):
    """Ctrl+C that lands while a library runs Python code from C (a callback) raised there as
    KeyboardInterrupt, is swallowed by the library ("Exception ignored ...") and the run went on
    to exit 0. Taken as a request instead, it stops the run before anything is written."""
    import ctypes
    import signal

    from engine.export import registry
    from engine.formats import OutputFormat
    from engine_samples import write_text_pdf

    real = registry.EXPORTERS[OutputFormat.PDF]

    @ctypes.CFUNCTYPE(None)
    def callback() -> None:
        signal.raise_signal(signal.SIGINT)

    def pdf_with_a_callback(result, context):
        callback()  # as MuPDF or a pipe reader would call back while the PDF is made
        return real(result, context)

    monkeypatch.setitem(registry.EXPORTERS, OutputFormat.PDF, pdf_with_a_callback)
    source = write_text_pdf(isolated / "minutes.pdf", [["Minutes of the harvest meeting"]])
    out = isolated / "out"
    code = cli_main(["convert", str(source), "-o", str(out), "--format", "md,pdf",
                     "--layout", "none", "--method", "txt"])
    err = capsys.readouterr().err
    assert code == 130, err
    assert "cancelled; nothing more was written." in err
    assert not out.exists() or folder_files(out) == []
