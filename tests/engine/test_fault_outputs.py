"""Outputs under faults: names that collide, a full disk while staging, staging folders left
by a process that was killed."""

from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import cv2
import numpy as np
import pymupdf
import pytest

from engine.cli.main import main as cli_main
from engine.errors import OutputNotWritable
from engine.output.writer import OutputWriter

from engine_samples import folder_files, write_text_pdf
from fault_samples import (REPO_ROOT, cli_environ, namespace_prefix, require_models,
                           staging_folders)

FAST = ["--layout", "none", "--method", "txt"]


@pytest.fixture
def isolated(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.setenv("PAPERLENS_CONFIG", str(tmp_path / "settings.json"))
    return tmp_path


# -- names: unique per run, never an input ----------------------------------------------------

def test_colliding_stems_each_keep_their_outputs(isolated, capsys):
    # The issue's own command: a.png is a PDF by content, a-2.pdf has the stem a.png would get.
    inputs = [write_text_pdf(isolated / name, [[text]]) for name, text in
              (("a.pdf", "Alpha report on barley"), ("a.png", "Second alpha on oats"),
               ("a-2.pdf", "Third one about rye"))]
    out = isolated / "out"
    code = cli_main(["convert", *map(str, inputs), "-o", str(out), *FAST])
    assert code == 0
    texts = {p.name: p.read_text(encoding="utf-8") for p in out.glob("*.md")}
    assert len(texts) == 3, texts
    for needle in ("Alpha report on barley", "Second alpha on oats", "Third one about rye"):
        assert sum(needle in text for text in texts.values()) == 1, (needle, texts)
    assert "Third one about rye" in texts["a-2.md"], "a-2.pdf keeps its own name"
    assert "3 of 3 document(s) converted" in capsys.readouterr().err


def test_output_names_never_share_a_file_or_hit_an_input(tmp_path):
    from engine.output.run_names import output_names as names

    out = tmp_path / "out"
    assert names([Path("a.pdf"), Path("a.png"), Path("a-2.pdf")], out) == ["a", "a-3", "a-2"]
    # x's content list is x_content_list.json, which is also x_content_list.pdf's JSON.
    assert names([Path("x.pdf"), Path("x_content_list.pdf")], out) == ["x", "x_content_list-2"]
    assert names([Path("x_content_list.pdf"), Path("x.pdf")], out) == ["x_content_list", "x-2"]
    assert names([Path("Report.pdf"), Path("other/report.PDF")], out) == ["Report", "report-2"]
    own = tmp_path / "report.json"  # a PDF named .json, converted into its own folder
    assert names([own, tmp_path / "report.pdf"], tmp_path) == ["report-2", "report-3"]


def test_input_is_never_replaced_by_its_own_markdown(isolated):
    folder = isolated / "inbox"
    folder.mkdir()
    source = write_text_pdf(folder / "..md", [["Harvest notes kept safe"]])
    before = source.read_bytes()
    code = cli_main(["convert", str(source), "-o", str(folder), *FAST])
    assert code == 0
    assert source.read_bytes() == before, "the input was overwritten by its own output"
    written = [p for p in folder.glob("*.md") if p != source]
    assert len(written) == 1 and "Harvest notes kept safe" in written[0].read_text("utf-8")


# -- a full disk while staging ----------------------------------------------------------------

def test_disk_full_while_staging_images_is_typed_and_cleaned(tmp_path, monkeypatch):
    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    writer = OutputWriter(tmp_path, "scan")
    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(OutputNotWritable) as caught:
        writer.add_images({"images/scan-p1-figure1.png": np.zeros((40, 40, 3), np.uint8)})
    assert "No space left on device" in str(caught.value)
    assert folder_files(tmp_path) == [], "the staging folder was left behind"


def test_disk_full_while_saving_a_library_file_is_typed(tmp_path):
    writer = OutputWriter(tmp_path, "scan")

    def save(path: Path) -> None:  # what PyMuPDF raises on a full disk
        raise RuntimeError("code=2: cannot fwrite: No space left on device")

    with pytest.raises(OutputNotWritable) as caught:
        writer.produce("scan_layout.pdf", save)
    assert "No space left on device" in str(caught.value)
    assert folder_files(tmp_path) == []


def figure_pdf(path: Path) -> Path:
    """A page of text around a photo-like picture; its crop is a ~2.5 MB PNG."""
    rng = np.random.default_rng(1)
    yy, xx = np.mgrid[0:900, 0:1200]
    picture = np.stack([(np.sin(xx / 60) + np.cos(yy / 45)) * 60 + 128,
                        np.sin(yy / 30) * 60 + 128, xx / 1200 * 255], -1)
    picture = (picture + rng.normal(0, 25, picture.shape)).clip(0, 255).astype(np.uint8)
    ok, png = cv2.imencode(".png", picture)
    assert ok
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 80), "Figure page of the harvest report", fontsize=14)
    page.insert_image(pymupdf.Rect(72, 120, 522, 457), stream=png.tobytes())
    page.insert_text((72, 490), "Figure 1. Yield by field in the north valley.", fontsize=10)
    for i in range(8):
        page.insert_text((72, 530 + i * 22), f"Body text line {i} about the harvest.", fontsize=11)
    doc.save(str(path))
    doc.close()
    return path


@pytest.mark.model
@pytest.mark.slow
def test_tiny_tmpfs_fails_one_input_and_the_batch_goes_on(tmp_path, settings):
    require_models(settings, "yolov8n-doclaynet")
    prefix = namespace_prefix()
    big = figure_pdf(tmp_path / "figure.pdf")
    small = write_text_pdf(tmp_path / "small.pdf", [["Small notes about the weather"]])
    out = tmp_path / "tiny"
    out.mkdir()
    script = (f"mount -t tmpfs -o size=1m tmpfs {out} || exit 90; "
              f"{sys.executable} -m engine.cli.main convert {big} {small} -o {out} "
              f"--layout doclaynet; echo \"rc=$?\"; find {out} -mindepth 1 | sort; "
              f"echo ---; cat {out}/small.md")
    run = subprocess.run([*prefix, "sh", "-c", script], cwd=REPO_ROOT, env=cli_environ(tmp_path),
                         capture_output=True, text=True, timeout=120)
    if run.returncode == 90:
        pytest.skip(f"cannot mount a tmpfs here: {run.stderr.strip()}")
    listing, _, markdown = run.stdout.partition("---\n")
    assert "rc=1" in listing, run.stdout + run.stderr
    assert "figure.pdf: Cannot write" in run.stderr and "No space left on device" in run.stderr
    assert "Traceback" not in run.stderr
    assert "Small notes about the weather" in markdown, "the input after the full one was skipped"
    files = [Path(line).relative_to(out).as_posix() for line in listing.splitlines()
             if line.startswith(str(out))]
    assert sorted(files) == ["small.json", "small.md", "small_content_list.json"], files


def test_a_stop_during_the_commit_lands_after_the_last_file(tmp_path, monkeypatch):
    class Stop(Exception):
        pass

    def stop(signum, frame):
        raise Stop()

    real_link = os.link

    def link_then_stop(source, target):  # SIGTERM right after the first file is placed
        real_link(source, target)
        if str(target).endswith(".png"):
            signal.raise_signal(signal.SIGTERM)

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        writer = OutputWriter(tmp_path, "doc")
        writer.add_images({"images/doc-p1-figure1.png": np.zeros((4, 4, 3), np.uint8)})
        monkeypatch.setattr(os, "link", link_then_stop)
        with pytest.raises(Stop):
            writer.commit({"doc.json": b"{}", "doc.md": b"# Doc\n"})
    finally:
        signal.signal(signal.SIGTERM, previous)
    writer.abort()  # as the conversion does when the stop reaches it
    assert folder_files(tmp_path) == ["doc.json", "doc.md", "images"], \
        "the stop cut the commit short"
    assert (tmp_path / "images" / "doc-p1-figure1.png").is_file()


# -- staging folders of processes that are gone -------------------------------------------------

def start_writer(folder: Path, then: str, stem: str = "doc") -> subprocess.Popen:
    """A process that stages one image in `folder`, says so, then `then` (Python code)."""
    code = ("import sys, numpy as np; from pathlib import Path; "
            "from engine.output.writer import OutputWriter; "
            f"w = OutputWriter(Path({str(folder)!r}), {stem!r}); "
            f"w.add_images({{'images/{stem}-p1-figure1.png': np.zeros((8, 8, 3), np.uint8)}}); "
            f"print('staged', flush=True); {then}")
    child = subprocess.Popen([sys.executable, "-c", code], cwd=REPO_ROOT, stdout=subprocess.PIPE,
                             stdin=subprocess.PIPE, text=True)
    assert child.stdout.readline().strip() == "staged"
    return child


def test_staging_of_a_killed_process_is_removed_by_the_next_writer(tmp_path):
    killed = start_writer(tmp_path, "import os, signal; os.kill(os.getpid(), signal.SIGKILL)")
    killed.wait(timeout=30)
    [left_by_killed] = staging_folders(tmp_path)
    alive = start_writer(tmp_path, "sys.stdin.read()", stem="live")
    try:
        [of_alive] = set(staging_folders(tmp_path)) - {left_by_killed}
        OutputWriter(tmp_path, "next").abort()
        assert staging_folders(tmp_path) == [of_alive], \
            "the killed process's folder must go, the running one's must stay"
    finally:
        alive.stdin.close()
        alive.wait(timeout=30)


def test_unowned_staging_is_removed_only_when_old(tmp_path):
    old = tmp_path / ".report.paperlens-abc123"
    young = tmp_path / ".notes.paperlens-def456"
    for folder in (old, young):
        (folder / "images").mkdir(parents=True)
        (folder / "images" / "x.png").write_bytes(b"png")
    two_days_ago = time.time() - 2 * 24 * 3600
    os.utime(old, (two_days_ago, two_days_ago))
    OutputWriter(tmp_path, "other").abort()
    assert staging_folders(tmp_path) == [young.name]


@pytest.mark.parametrize("process, gone", [
    ((True, 1000), False),   # the owner, still running
    ((True, 2000), True),    # its PID now belongs to a newer process
    ((False, None), True),   # no process has that PID
    ((True, None), False),   # a process Windows will not describe to us: kept
])
def test_windows_owner_is_judged_by_pid_and_creation_time(tmp_path, monkeypatch, process, gone):
    """The Windows branch, with the answers of OpenProcess/GetProcessTimes given by the test
    (this machine cannot call them)."""
    from engine.output import staging

    folder = tmp_path / ".report.paperlens-w1"
    folder.mkdir()
    record = dict(staging.owner_record(), pid=4242, start=1000)
    (folder / staging.OWNER_FILE).write_text(json.dumps(record))
    monkeypatch.setattr(staging.sys, "platform", "win32")
    monkeypatch.setattr(staging, "_windows_process", lambda pid: process if pid == 4242 else (True, 1))
    removed = staging.remove_stale_staging(tmp_path)
    assert (removed == [folder]) is gone and folder.exists() is not gone
