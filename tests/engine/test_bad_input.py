"""Bad input: each case gets its typed error, a message naming the file and the fault, no output."""

from __future__ import annotations

import resource
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from engine.api import Engine
from engine.cli.main import main as cli_main
from engine.errors import CorruptDocument, PasswordRequired, UnsupportedInput, WrongPassword
from engine.options import ConvertOptions, TextMethod
from engine.types import Status

from engine_samples import (blank_bilevel_png, folder_files, numbered_pages,
                            write_encrypted_pdf, write_text_pdf, write_zip)


def convert_expecting(engine: Engine, path: Path, out_dir: Path, error: type, **options):
    with pytest.raises(error) as caught:
        engine.convert(path, ConvertOptions(output_dir=str(out_dir), **options))
    assert folder_files(out_dir) == [], "a failed conversion must leave nothing behind"
    message = str(caught.value)
    assert path.name in message, f"the message should name the file: {message!r}"
    assert "\n" not in message, "the message is one line"
    return caught.value


def test_empty_file(cheap_engine, tmp_path, out_dir):
    path = tmp_path / "empty.pdf"
    path.write_bytes(b"")
    exc = convert_expecting(cheap_engine, path, out_dir, UnsupportedInput)
    assert "empty" in str(exc)


def test_random_bytes_named_pdf(cheap_engine, tmp_path, out_dir):
    path = tmp_path / "noise.pdf"
    path.write_bytes(np.random.default_rng(7).bytes(64 * 1024))
    exc = convert_expecting(cheap_engine, path, out_dir, UnsupportedInput)
    assert "not a PDF" in str(exc)


def test_zip_renamed_pdf(cheap_engine, tmp_path, out_dir):
    path = write_zip(tmp_path / "archive.pdf", {"readme.txt": b"hello", "data.csv": b"a,b\n1,2\n"})
    exc = convert_expecting(cheap_engine, path, out_dir, UnsupportedInput)
    assert "not a PDF" in str(exc)


def real_multipage_pdf(eval_dev_dir: Path) -> Path:
    path = eval_dev_dir / "items" / "docling-code_and_formula" / "input.pdf"
    if not path.is_file():
        pytest.skip(f"{path} is missing")
    return path


def test_truncated_real_pdf_is_corrupt(cheap_engine, eval_dev_dir, tmp_path, out_dir):
    # A real two-page PDF cut to 40%: MuPDF cannot rebuild a page tree from what is left.
    data = real_multipage_pdf(eval_dev_dir).read_bytes()
    path = tmp_path / "code_and_formula_cut.pdf"
    path.write_bytes(data[: int(len(data) * 0.4)])
    exc = convert_expecting(cheap_engine, path, out_dir, CorruptDocument)
    assert "truncated" in str(exc) or "damaged" in str(exc)


def test_truncated_generated_pdf_at_40_percent(cheap_engine, tmp_path, out_dir):
    # Whether MuPDF can repair a cut file depends on where the cut falls (inside a stream it
    # usually cannot). Either outcome must be honest: a typed error and no files, or text only
    # from pages that were really read.
    data = write_text_pdf(tmp_path / "full.pdf", numbered_pages(10)).read_bytes()
    path = tmp_path / "report_cut.pdf"
    path.write_bytes(data[: int(len(data) * 0.4)])
    try:
        cheap_engine.convert(path, ConvertOptions(output_dir=str(out_dir), method=TextMethod.TXT))
    except CorruptDocument as exc:
        assert path.name in str(exc)
        assert "truncated" in str(exc) or "damaged" in str(exc)
        assert folder_files(out_dir) == []
        return
    markdown = (out_dir / "report_cut.md").read_text(encoding="utf-8")
    assert "Page 1 line 0 of the harvest report" in markdown
    assert "Page 10 line" not in markdown


def repairable_cut_pdf(tmp_path: Path) -> Path:
    """A 10-page digital PDF cut after the last complete object within its first 40%.

    MuPDF repairs this one: pages 1-4 keep all their text, page 5 keeps part of it, and pages
    6-10 survive as empty shells whose content streams are gone."""
    data = write_text_pdf(tmp_path / "full.pdf", numbered_pages(10)).read_bytes()
    end = data.rfind(b"endobj\n", 0, int(len(data) * 0.4)) + len(b"endobj\n")
    path = tmp_path / "report_cut.pdf"
    path.write_bytes(data[:end])
    return path


def test_repaired_pdf_keeps_only_readable_text(cheap_engine, tmp_path, out_dir):
    path = repairable_cut_pdf(tmp_path)
    result = cheap_engine.convert(path, ConvertOptions(output_dir=str(out_dir),
                                                       method=TextMethod.TXT))
    markdown = (out_dir / "report_cut.md").read_text(encoding="utf-8")
    for page in range(1, 5):
        for line in (0, 19):
            assert f"Page {page} line {line} of the harvest report" in markdown
    for page in range(6, 11):
        assert f"Page {page} line" not in markdown
    assert folder_files(out_dir) == ["report_cut.json", "report_cut.md", "report_cut_content_list.json"]
    assert result.page_count == 10


def test_repaired_pdf_reports_lost_pages(cheap_engine, tmp_path, out_dir):
    path = repairable_cut_pdf(tmp_path)
    result = cheap_engine.convert(path, ConvertOptions(output_dir=str(out_dir),
                                                       method=TextMethod.TXT))
    assert result.status is Status.PARTIAL
    lost = {p.page_number: p for p in result.pages if p.page_number >= 6}
    assert sorted(lost) == [6, 7, 8, 9, 10]
    for number, page in lost.items():
        assert page.status is Status.FAILED
        assert [e.kind for e in page.errors] == ["CorruptDocument"]
        assert f"page {number}" in page.errors[0].message
        assert "missing" in page.errors[0].message
    assert result.pages[4].status is Status.PARTIAL  # page 5 keeps part of its text
    assert all(p.status is Status.OK for p in result.pages[:4])


def test_encrypted_pdf_without_password(cheap_engine, tmp_path, out_dir):
    path = write_encrypted_pdf(tmp_path / "locked.pdf", "Quarterly harvest figures",
                               user_pw="rye-field", owner_pw="barn-owner")
    exc = convert_expecting(cheap_engine, path, out_dir, PasswordRequired)
    assert type(exc) is PasswordRequired
    assert "encrypted" in str(exc) and "password" in str(exc)


def test_encrypted_pdf_wrong_password(cheap_engine, tmp_path, out_dir):
    path = write_encrypted_pdf(tmp_path / "locked.pdf", "Quarterly harvest figures",
                               user_pw="rye-field", owner_pw="barn-owner")
    exc = convert_expecting(cheap_engine, path, out_dir, WrongPassword, password="oat-field")
    assert "password" in str(exc)


def test_encrypted_pdf_right_password(cheap_engine, tmp_path, out_dir):
    path = write_encrypted_pdf(tmp_path / "locked.pdf", "Quarterly harvest figures",
                               user_pw="rye-field", owner_pw="barn-owner")
    result = cheap_engine.convert(path, ConvertOptions(output_dir=str(out_dir),
                                                       password="rye-field"))
    markdown = (out_dir / "locked.md").read_text(encoding="utf-8")
    assert "Quarterly harvest figures" in markdown
    assert result.pages[0].text_source.value == "txt"


def test_truncated_png(cheap_engine, tmp_path, out_dir):
    full = tmp_path / "full.png"
    noise = (np.random.default_rng(3).random((300, 400)) * 255).astype(np.uint8)
    assert cv2.imwrite(str(full), noise)
    data = full.read_bytes()
    path = tmp_path / "scan_cut.png"
    path.write_bytes(data[: len(data) // 2])
    exc = convert_expecting(cheap_engine, path, out_dir, CorruptDocument)
    assert "damaged" in str(exc) or "truncated" in str(exc)


def test_huge_png_refused_before_decoding(cheap_engine, tmp_path, out_dir):
    path = tmp_path / "poster.png"
    path.write_bytes(blank_bilevel_png(30000, 30000))
    assert path.stat().st_size < 1_000_000
    peak_before_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.perf_counter()
    exc = convert_expecting(cheap_engine, path, out_dir, UnsupportedInput)
    elapsed_s = time.perf_counter() - started
    peak_growth_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - peak_before_kb) / 1024
    assert "30000x30000" in str(exc)
    assert elapsed_s < 2.0, f"refusing took {elapsed_s:.1f} s: the pixels were decoded"
    # Decoding would need 2.7 GB as RGB; refusing from the header needs next to nothing.
    assert peak_growth_mb < 200, f"peak memory grew by {peak_growth_mb:.0f} MB"


def test_folder_with_one_bad_file_via_cli(tmp_path, monkeypatch):
    monkeypatch.setenv("PAPERLENS_CONFIG", str(tmp_path / "settings.json"))
    folder = tmp_path / "inbox"
    folder.mkdir()
    write_text_pdf(folder / "alpha.pdf", [["Alpha minutes of the meeting"]])
    write_text_pdf(folder / "gamma.pdf", [["Gamma budget for next year"]])
    (folder / "beta.pdf").write_bytes(np.random.default_rng(11).bytes(4096))
    out = tmp_path / "out"

    code = cli_main(["convert", str(folder), "-o", str(out)])

    assert code == 1
    names = folder_files(out)
    assert "alpha.md" in names and "gamma.md" in names
    assert not [n for n in names if n.startswith("beta")]
    assert "Alpha minutes" in (out / "alpha.md").read_text(encoding="utf-8")
    assert "Gamma budget" in (out / "gamma.md").read_text(encoding="utf-8")


def test_folder_of_good_files_via_cli_exits_zero(tmp_path, monkeypatch):
    monkeypatch.setenv("PAPERLENS_CONFIG", str(tmp_path / "settings.json"))
    folder = tmp_path / "inbox"
    folder.mkdir()
    write_text_pdf(folder / "alpha.pdf", [["Alpha minutes of the meeting"]])
    out = tmp_path / "out"
    assert cli_main(["convert", str(folder), "-o", str(out)]) == 0
    assert folder_files(out) == ["alpha.json", "alpha.md", "alpha_content_list.json"]
