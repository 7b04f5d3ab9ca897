"""Damaged files are reported page by page: a page whose content, image or frame cannot be
decoded is failed (or partial) with a CorruptDocument error naming it, the CLI exits 3 (1 when
no page has content), and no line of the decoding libraries reaches the terminal.

Each case runs the CLI in a child process, so that its exit code, its standard error (where C
libraries write) and its peak memory are its own."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine_samples import folder_files, numbered_pages, write_text_pdf
from fault_samples import (ChildRun, cli_environ, cut_in_half,
                           jpeg_with_garbled_data, packbits_tiff, png_with_bad_filter,
                           printed_page, run_cli_child, third_party_lines, truncate_first_image, write_scan_pdf)

pytestmark = pytest.mark.model
# A generous ceiling for a run on small pages: the models loaded, a page or three read. A file
# whose damage makes a decoder run away would pass it by far.
PEAK_MIB = 1500


def convert(tmp_path: Path, source: Path, *flags: str) -> tuple[ChildRun, Path]:
    out = tmp_path / "out"
    run = run_cli_child(["convert", source.name, "-o", str(out), *flags],
                        cli_environ(tmp_path), cwd=source.parent)
    assert "Traceback" not in run.stderr, run.stderr
    leaked = third_party_lines(run.stderr)
    assert not leaked, f"library lines reached the terminal: {leaked}"
    assert run.peak_mib < PEAK_MIB, f"peak {run.peak_mib:.0f} MiB"
    return run, out


def pages_of(out: Path, stem: str) -> dict[int, dict]:
    data = json.loads((out / f"{stem}.json").read_text(encoding="utf-8"))
    return {page["page_number"]: page for page in data["pages"]}


def assert_corrupt(page: dict, number: int) -> None:
    assert page["status"] in ("failed", "partial"), page["status"]
    errors = [e for e in page["errors"] if e["kind"] == "CorruptDocument"]
    assert errors, page["errors"]
    assert f"page {number}" in errors[0]["message"], errors[0]["message"]


def test_digital_pdf_cut_in_half(tmp_path):
    full = write_text_pdf(tmp_path / "full.pdf", numbered_pages(3), garbage=3, deflate=True)
    source = cut_in_half(full, tmp_path / "report.pdf")
    run, out = convert(tmp_path, source, "--layout", "none", "--method", "txt")
    assert run.code == 3, run.stderr
    pages = pages_of(out, "report")
    assert pages[1]["status"] == "ok"
    for number in (2, 3):
        assert_corrupt(pages[number], number)
    assert pages[3]["status"] == "failed"
    assert "page(s) 2, 3 not fully read" in run.stderr
    markdown = (out / "report.md").read_text(encoding="utf-8")
    assert "Page 1 line 19 of the harvest report" in markdown


def test_scan_pdf_cut_in_half_has_no_page_with_content(tmp_path):
    full = write_scan_pdf(tmp_path / "full.pdf", ["Invoice 12 paid", "Invoice 13 due"])
    source = cut_in_half(full, tmp_path / "scan.pdf")
    run, out = convert(tmp_path, source, "--layout", "none")
    assert run.code == 1, run.stderr
    assert "nothing was written" in run.stderr
    assert "page 1" in run.stderr  # the first page's broken stream is named, not only page 2's
    assert not out.exists() or folder_files(out) == []


def test_broken_xref_is_repaired_and_every_page_read(tmp_path):
    full = write_text_pdf(tmp_path / "full.pdf", numbered_pages(2), garbage=3, deflate=True)
    data = bytearray(full.read_bytes())
    at = data.rfind(b"xref\n")
    data[at:at + 4] = b"xxxx"  # the table's keyword gone: MuPDF rebuilds it from the objects
    source = tmp_path / "xref.pdf"
    source.write_bytes(bytes(data))
    run, out = convert(tmp_path, source, "--layout", "none", "--method", "txt")
    assert run.code == 0, run.stderr
    assert all(page["status"] == "ok" for page in pages_of(out, "xref").values())
    markdown = (out / "xref.md").read_text(encoding="utf-8")
    assert "Page 2 line 19 of the harvest report" in markdown


def test_truncated_image_stream_makes_its_page_partial(tmp_path):
    full = write_scan_pdf(tmp_path / "full.pdf", ["Invoice 12 paid", "Invoice 13 due"])
    source = truncate_first_image(full, tmp_path / "scan.pdf")
    run, out = convert(tmp_path, source, "--layout", "none")
    assert run.code == 3, run.stderr
    pages = pages_of(out, "scan")
    assert_corrupt(pages[1], 1)
    assert pages[2]["status"] == "ok"


def test_garbled_jpeg_is_a_partial_page(tmp_path):
    source = tmp_path / "photo.jpg"
    source.write_bytes(jpeg_with_garbled_data("Receipt 42"))
    run, out = convert(tmp_path, source, "--layout", "none")
    assert run.code == 3, run.stderr
    page = pages_of(out, "photo")[1]
    assert page["status"] == "partial"
    assert page["errors"][0]["kind"] == "CorruptDocument"
    assert "photo.jpg" in page["errors"][0]["message"]


def test_png_with_broken_data_is_refused_in_words(tmp_path):
    source = tmp_path / "chart.png"
    source.write_bytes(png_with_bad_filter("Chart"))
    run, out = convert(tmp_path, source, "--layout", "none")
    assert run.code == 1, run.stderr
    assert "chart.png is a damaged or truncated PNG image" in run.stderr
    assert not out.exists() or folder_files(out) == []


def test_tiff_frame_that_does_not_decode_fails_that_page(tmp_path):
    frames = [printed_page(f"Fax page {n}") for n in (1, 2, 3)]
    source = tmp_path / "fax.tif"
    source.write_bytes(packbits_tiff(frames, broken=2))
    run, out = convert(tmp_path, source, "--layout", "none")
    assert run.code == 3, run.stderr
    pages = pages_of(out, "fax")
    assert pages[1]["status"] == "ok" and pages[3]["status"] == "ok"
    assert pages[2]["status"] == "failed"
    assert_corrupt(pages[2], 2)
