"""The hostile corpus, generated at test time: markup built to exhaust memory (an SVG `<use>`
bomb in EPUB and XPS, XML entity expansion), decompression bombs in CBZ and EPUB, and a file
MuPDF takes seconds to lay out. Each is refused in words, with its type, exit 1, nothing
written, and a run whose peak memory (measured in its own process) stays near the CLI's own;
identification runs in a bounded child that a stop request ends at once."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.errors import Cancelled, UnsupportedInput
from engine.input.document import open_document
from engine.input.probe import CHILD_MODULE, ProbeLimits, probe_document

from engine_samples import encoded_image, folder_files
from fault_samples import (REPO_ROOT, chapter_showing, cli_environ, entity_bomb, run_cli_child,
                           svg_use_bomb, table_chapter, third_party_lines,
                           write_epub, write_xps, zip_with_bomb)

# The CLI's own imports take ~0.2 GiB; a bomb that got through would take gigabytes.
PEAK_MIB = 700


def svg_epub(folder: Path) -> Path:
    return write_epub(folder / "book.epub", chapter_showing("b.svg"), {"b.svg": svg_use_bomb()})


def svg_xps(folder: Path) -> Path:
    return write_xps(folder / "print.xps", svg_use_bomb())


def entity_epub(folder: Path) -> Path:
    return write_epub(folder / "laughs.epub", entity_bomb())


def zip_bomb_cbz(folder: Path) -> Path:
    return zip_with_bomb(folder / "comic.cbz", {"001.png": encoded_image(".png")}, "002.png",
                         300 << 20)


def zip_bomb_epub(folder: Path) -> Path:
    members = {"mimetype": b"application/epub+zip", "META-INF/container.xml": b"<container/>"}
    return zip_with_bomb(folder / "novel.epub", members, "c.xhtml", 300 << 20)


CORPUS = {
    "svg_use_epub": (svg_epub, "SVG <use> elements copy groups of copies"),
    "svg_use_xps": (svg_xps, "SVG <use> elements copy groups of copies"),
    "entity_epub": (entity_epub, "XML entities expand without bound"),
    "zip_bomb_cbz": (zip_bomb_cbz, "decompression bomb"),
    "zip_bomb_epub": (zip_bomb_epub, "decompression bomb"),
}


@pytest.mark.parametrize("case", sorted(CORPUS))
def test_hostile_input_is_refused_in_words_by_its_type(tmp_path, case):
    build, words = CORPUS[case]
    source = build(tmp_path)
    with pytest.raises(UnsupportedInput) as caught:
        open_document(source)
    assert words in str(caught.value) and source.name in str(caught.value)
    out = tmp_path / "out"
    run = run_cli_child(["convert", source.name, "-o", str(out)], cli_environ(tmp_path),
                        cwd=tmp_path, timeout_s=120)
    assert run.code == 1, run.stderr
    assert words in run.stderr
    assert not third_party_lines(run.stderr), run.stderr
    assert not out.exists() or folder_files(out) == []
    assert run.peak_mib < PEAK_MIB, f"peak {run.peak_mib:.0f} MiB"


def slow_epub(folder: Path, rows: int = 3000) -> Path:
    """One table of 3,000 rows: nothing hostile in its markup, but MuPDF lays it out for
    seconds only to count its pages."""
    return write_epub(folder / "ledger.epub", table_chapter(rows))


def test_identification_ends_at_once_when_asked_to_stop(tmp_path):
    source = slow_epub(tmp_path)
    asked = []

    def stop_after_a_moment() -> None:
        asked.append(time.monotonic())
        if len(asked) > 5:
            raise Cancelled()

    with pytest.raises(Cancelled):
        probe_document(source, check_cancel=stop_after_a_moment)


def test_identification_is_bounded_in_time_and_memory(tmp_path):
    source = slow_epub(tmp_path)
    with pytest.raises(UnsupportedInput) as late:
        probe_document(source, limits=ProbeLimits(time_s=0.2))
    assert "ledger.epub was still being laid out" in str(late.value)
    with pytest.raises(UnsupportedInput) as short:
        probe_document(source, limits=ProbeLimits(memory_mib=64))
    assert "needs more than 64 MiB" in str(short.value)


@pytest.mark.slow
def test_sigterm_while_mupdf_lays_out_a_document_stops_the_cli(tmp_path):
    source = slow_epub(tmp_path, rows=6000)
    # How long MuPDF takes to lay the file out here, now: the stop must not wait for it.
    import pymupdf
    started = time.monotonic()
    assert pymupdf.open(source).page_count > 1
    layout_s = time.monotonic() - started
    out = tmp_path / "out"
    child = subprocess.Popen([sys.executable, "-m", "engine.cli.main", "convert", str(source),
                              "-o", str(out)], cwd=REPO_ROOT, env=cli_environ(tmp_path),
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    # The stop is sent once identification is under way: its child has just begun the layout.
    assert wait_for_child(child.pid, CHILD_MODULE, within_s=60), "identification never began"
    child.send_signal(signal.SIGTERM)
    sent = time.monotonic()
    _out, err = child.communicate(timeout=60)
    waited = time.monotonic() - sent
    assert child.returncode == 128 + signal.SIGTERM, err
    assert "cancelled; nothing more was written." in err
    assert "Traceback" not in err
    assert not out.exists() or folder_files(out) == []
    # Laying the file out takes seconds; the stop did not wait for MuPDF to finish (measured
    # against the layout on this machine at this moment, not a wall-clock limit).
    assert waited < layout_s, f"the stop took {waited:.1f} s, the layout {layout_s:.1f} s"


def wait_for_child(parent: int, module: str, within_s: float) -> bool:
    """Whether a child of `parent` running `python -m module` appeared within the time."""
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
                argv = (entry / "cmdline").read_bytes().split(b"\0")
            except (OSError, IndexError, ValueError):
                continue
            if ppid == parent and module.encode() in argv:
                return True
        time.sleep(0.05)
    return False
