"""Hostile inputs: every page of every container is measured before it is decoded, archive
members are read with a size cap, and a page that cannot be read says so in words."""

from __future__ import annotations

import base64
import resource
import time
import tracemalloc
import zipfile
from pathlib import Path

import pytest

from engine import errors
from engine.cli import main as cli
from engine.errors import DocumentFailed, UnsupportedInput
from engine.input.document import identify, open_document
from engine.options import ConvertOptions
from engine.types import PageError

from engine_samples import blank_bilevel_png, encoded_image, folder_files, write_zip
from fault_samples import jpeg_with_late_frame_header, multipage_tiff, zip_with_bomb

HUGE = (30000, 30000)  # 900 Mpx: 2.7 GB as RGB, refused by the 200 Mpx cap


class PeakMemory:
    """Growth of the process's peak resident memory and the time taken inside the block."""

    def __enter__(self) -> "PeakMemory":
        self._rss_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        self._start = time.perf_counter()
        return self

    def __exit__(self, *exc: object) -> None:
        self.seconds = time.perf_counter() - self._start
        self.growth_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - self._rss_kb) / 1024


def test_multipage_tiff_every_page_is_checked(cheap_engine, tmp_path, out_dir):
    path = tmp_path / "scans.tif"
    path.write_bytes(multipage_tiff([(200, 100), HUGE]))
    assert path.stat().st_size < 2_000_000
    with PeakMemory() as peak:
        with pytest.raises(UnsupportedInput) as caught:
            open_document(path)
        with pytest.raises(UnsupportedInput):
            cheap_engine.convert(path, ConvertOptions(output_dir=str(out_dir)))
    assert "page 2 of scans.tif" in str(caught.value) and "30000x30000" in str(caught.value)
    assert folder_files(out_dir) == []
    assert peak.seconds < 2.0 and peak.growth_mb < 200, "the huge page was decoded"
    small = tmp_path / "two.tif"  # every page within the cap: opened and read as before
    small.write_bytes(multipage_tiff([(200, 100), (300, 120)]))
    with open_document(small) as document:
        assert document.page_count == 2
        assert document.render(2, 200, 4000).image.shape == (120, 300, 3)


def test_jpeg_frame_header_after_64_kib_of_metadata(tmp_path):
    path = tmp_path / "photo.jpg"
    path.write_bytes(jpeg_with_late_frame_header(*HUGE, metadata_bytes=100_000))
    with PeakMemory() as peak:
        with pytest.raises(UnsupportedInput) as caught:
            open_document(path)
    assert "30000x30000" in str(caught.value)
    assert peak.growth_mb < 200


def test_cbz_page_over_the_pixel_cap_fails_alone_before_decoding(cheap_engine, tmp_path,
                                                                   out_dir):
    path = write_zip(tmp_path / "comic.cbz", {"001.png": encoded_image(".png"),
                                              "002.png": blank_bilevel_png(*HUGE)})
    with PeakMemory() as peak:
        with open_document(path) as document:
            assert document.render(1, 200, 4000).image.size > 0
            with pytest.raises(errors.PageTooLarge) as caught:
                document.render(2, 200, 4000)
        with pytest.raises(DocumentFailed) as failed:
            cheap_engine.convert(path, ConvertOptions(output_dir=str(out_dir), pages=(2,)))
    assert "page 2" in str(caught.value) and "30000x30000" in str(caught.value)
    error = failed.value.result.pages[0].errors[0]
    assert (error.stage, error.kind) == ("render", "PageTooLarge")
    assert folder_files(out_dir) == []
    assert peak.seconds < 5.0 and peak.growth_mb < 200, "the huge page was decoded"


def test_epub_image_inside_the_text_is_checked(tmp_path):
    picture = base64.b64encode(blank_bilevel_png(*HUGE)).decode()
    chapter = ('<html xmlns="http://www.w3.org/1999/xhtml"><body><p>Field notes</p>'
               f'<img src="data:image/png;base64,{picture}"/></body></html>').encode()
    path = write_zip(tmp_path / "notes.epub", epub_members(chapter), stored_first="mimetype")
    with PeakMemory() as peak:
        with open_document(path) as document:
            with pytest.raises(errors.PageTooLarge):
                document.render(1, 200, 4000)
    assert peak.growth_mb < 200


def epub_members(chapter: bytes) -> dict[str, bytes]:
    container = (b'<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:'
                 b'opendocument:xmlns:container"><rootfiles><rootfile full-path="content.opf" '
                 b'media-type="application/oebps-package+xml"/></rootfiles></container>')
    package = (b'<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="2.0"'
               b' unique-identifier="id"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/">'
               b'<dc:title>Notes</dc:title><dc:identifier id="id">n</dc:identifier></metadata>'
               b'<manifest><item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/>'
               b'</manifest><spine><itemref idref="c1"/></spine></package>')
    return {"mimetype": b"application/epub+zip", "META-INF/container.xml": container,
            "content.opf": package, "c1.xhtml": chapter}


def test_zip_bomb_member_refused_before_unpacking(cheap_engine, tmp_path, out_dir):
    path = zip_with_bomb(tmp_path / "bomb.cbz", {"001.png": encoded_image(".png")},
                         "002.png", 300 << 20)
    assert path.stat().st_size < 3_000_000
    tracemalloc.start()
    try:
        with pytest.raises(UnsupportedInput) as caught:
            open_document(path)
        peak_mb = tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()
    assert "002.png" in str(caught.value) and "300 MiB" in str(caught.value)
    assert peak_mb < 32
    with pytest.raises(UnsupportedInput):
        cheap_engine.convert(path, ConvertOptions(output_dir=str(out_dir)))
    assert folder_files(out_dir) == []


def test_epub_mimetype_member_is_read_with_a_cap(tmp_path):
    members = epub_members(b"<html/>")
    del members["mimetype"]
    path = zip_with_bomb(tmp_path / "book.epub", members, "mimetype", 300 << 20)
    tracemalloc.start()
    try:
        with pytest.raises(UnsupportedInput):
            identify(path)
        peak_mb = tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()
    assert peak_mb < 32, f"identifying the file read {peak_mb:.0f} MB of one member"


def test_epub_text_members_are_capped_together(tmp_path):
    path = zip_with_bomb(tmp_path / "long.epub", epub_members(b"<html/>"), "c2.xhtml", 200 << 20)
    with open_document(path) as document:  # one 200 MiB member is within the caps
        assert document.page_count >= 1
    append_zeros(path, "c3.xhtml", 100 << 20)
    with pytest.raises(UnsupportedInput) as caught:
        open_document(path)
    assert "300 MiB of pages, text and fonts" in str(caught.value)


def append_zeros(path: Path, name: str, size: int) -> None:
    with zipfile.ZipFile(path, "a", compression=zipfile.ZIP_DEFLATED, compresslevel=1) as archive:
        with archive.open(name, "w", force_zip64=True) as fh:
            for _ in range(size >> 20):
                fh.write(bytes(1 << 20))


def test_cbz_member_that_is_no_image_is_a_worded_page_error(tmp_path, monkeypatch, capfd):
    monkeypatch.setenv("PAPERLENS_CONFIG", str(tmp_path / "settings.json"))
    path = write_zip(tmp_path / "odd.cbz", {"001.png": encoded_image(".png"),
                                           "002.png": b"not an image at all"})
    code = cli.main(["convert", str(path), "-o", str(tmp_path / "out"), "--pages", "2"])
    err = capfd.readouterr().err
    assert code == 1
    assert "page 2, render: CorruptDocument: page 2 holds no readable image or content" in err
    assert "ZeroDivisionError" not in err and "division by zero" not in err
    assert "MuPDF error" not in err, "MuPDF's own messages reached the terminal"


def test_untyped_page_errors_are_named_as_internal_faults():
    line = cli.describe_page_error(PageError(stage="ocr", kind="ZeroDivisionError",
                                             message="division by zero"))
    assert line.endswith("(an internal error in Paperlens, not a fault of the document; "
                         "please report it)")
    typed = cli.describe_page_error(PageError(stage="render", kind="CorruptDocument",
                                              message="page 3 holds no readable image"))
    assert typed == "CorruptDocument: page 3 holds no readable image"
