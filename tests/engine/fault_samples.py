"""Builders of hostile inputs for the fault-injection tests, generated at test time (images
whose later pages are huge, decompression bombs), and what running the CLI on them needs."""

from __future__ import annotations

import os
import shutil
import struct
import subprocess
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]


def _bilevel_strip(width: int, height: int) -> bytes:
    """`height` rows of `width` white 1-bit pixels (0 = white below), deflated."""
    row = bytes((width + 7) // 8)
    compressor = zlib.compressobj(1)
    parts = []
    done = 0
    while done < height:
        count = min(1000, height - done)
        parts.append(compressor.compress(row * count))
        done += count
    parts.append(compressor.flush())
    return b"".join(parts)


def multipage_tiff(sizes: list[tuple[int, int]]) -> bytes:
    """A little-endian TIFF with one deflated 1-bit page per (width, height).

    A 30000 x 30000 page takes ~0.5 MB here and 2.7 GB once decoded to RGB."""
    out = bytearray(b"II*\x00\x00\x00\x00\x00")
    link = 4  # where the offset of the next page's directory goes
    for width, height in sizes:
        strip = _bilevel_strip(width, height)
        strip_at = len(out)
        out += strip
        if len(out) % 2:
            out += b"\x00"
        entries = [(256, 4, width), (257, 4, height), (258, 3, 1), (259, 3, 8),
                   (262, 3, 0), (273, 4, strip_at), (277, 3, 1), (278, 4, height),
                   (279, 4, len(strip))]
        ifd_at = len(out)
        struct.pack_into("<I", out, link, ifd_at)
        out += struct.pack("<H", len(entries))
        for tag, kind, value in entries:
            packed = (struct.pack("<H", value) + b"\x00\x00" if kind == 3
                      else struct.pack("<I", value))
            out += struct.pack("<HHI", tag, kind, 1) + packed
        link = len(out)
        out += b"\x00\x00\x00\x00"
    return bytes(out)


def jpeg_with_late_frame_header(width: int, height: int, metadata_bytes: int) -> bytes:
    """A JPEG whose frame header says width x height and comes after `metadata_bytes` of
    APP segments (as large EXIF, ICC or XMP blocks put it)."""
    ok, data = cv2.imencode(".jpg", np.full((16, 16, 3), 255, np.uint8))
    assert ok
    raw = bytearray(data.tobytes())
    sof = next(i for i in range(2, len(raw) - 1)
               if raw[i] == 0xFF and raw[i + 1] in (0xC0, 0xC1, 0xC2))
    struct.pack_into(">HH", raw, sof + 5, height, width)
    segments = bytearray()
    while len(segments) < metadata_bytes:
        payload = b"\x00" * min(60000, metadata_bytes - len(segments))
        segments += b"\xff\xe2" + struct.pack(">H", len(payload) + 2) + payload
    return bytes(raw[:2] + segments + raw[2:])


def zip_with_bomb(path: Path, members: dict[str, bytes], bomb_name: str, bomb_bytes: int) -> Path:
    """A ZIP with `members` and one member of `bomb_bytes` zeros, which deflates to ~1/1000."""
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=1) as archive:
        for name, data in members.items():
            archive.writestr(name, data, compress_type=zipfile.ZIP_STORED
                             if name == "mimetype" else zipfile.ZIP_DEFLATED)
        with archive.open(bomb_name, "w", force_zip64=True) as fh:
            chunk = bytes(1 << 20)
            for _ in range(bomb_bytes >> 20):
                fh.write(chunk)
    return path


def staging_folders(folder: Path) -> list[str]:
    """Names of the staging folders anywhere under `folder`."""
    return sorted(p.name for p in folder.rglob("*") if ".paperlens-" in p.name)


def cli_environ(tmp_path: Path) -> dict[str, str]:
    keep = ("PATH", "HOME", "USERPROFILE", "XDG_CACHE_HOME", "XDG_DATA_HOME", "PAPERLENS_MODEL_DIR")
    env = {name: os.environ[name] for name in keep if name in os.environ}
    env["PAPERLENS_CONFIG"] = str(tmp_path / "settings.json")
    env["PYTHONPATH"] = str(REPO_ROOT)
    return env


def require_models(settings, *ids: str) -> None:
    from engine.models.store import ModelStore

    store = ModelStore(Path(settings.model.base_dir), settings.model.index_url)
    missing = [i for i in ids if not store.status(i).installed]
    if missing:
        pytest.skip(f"models not in {settings.model.base_dir}: {', '.join(missing)}")


def namespace_prefix() -> list[str]:
    """A private mount namespace to mount a tmpfs in, or a skip."""
    for prefix in (["unshare", "-Urm"], ["unshare", "-m"]):
        if shutil.which(prefix[0]) is None:
            break
        if subprocess.run([*prefix, "true"], capture_output=True).returncode == 0:
            return prefix
    pytest.skip("no private mount namespace here (unshare is missing or not permitted)")


# -- damaged files: each cut or overwritten where a real fault leaves it -----------------------

def _packbits(row: bytes) -> bytes:
    """PackBits as literal runs of up to 128 bytes (a valid encoding, if not the shortest)."""
    return b"".join(bytes([len(row[i:i + 128]) - 1]) + row[i:i + 128]
                    for i in range(0, len(row), 128))


def packbits_tiff(frames: list[np.ndarray], broken: int | None = None) -> bytes:
    """A little-endian multi-page TIFF of 8-bit grey frames, PackBits-compressed; frame
    `broken` (1-based) has its strip overwritten with 0x80 bytes, PackBits' no-op, so it
    decodes to nothing."""
    out = bytearray(b"II*\x00\x00\x00\x00\x00")
    link = 4
    for number, image in enumerate(frames, start=1):
        height, width = image.shape
        strip = b"".join(_packbits(image[row].tobytes()) for row in range(height))
        if number == broken:
            strip = b"\x80" * len(strip)
        strip_at = len(out)
        out += strip + (b"\x00" if len(strip) % 2 else b"")
        entries = [(256, 4, width), (257, 4, height), (258, 3, 8), (259, 3, 32773),
                   (262, 3, 1), (273, 4, strip_at), (277, 3, 1), (278, 4, height),
                   (279, 4, len(strip))]
        struct.pack_into("<I", out, link, len(out))
        out += struct.pack("<H", len(entries))
        for tag, kind, value in entries:
            packed = (struct.pack("<H", value) + b"\x00\x00" if kind == 3
                      else struct.pack("<I", value))
            out += struct.pack("<HHI", tag, kind, 1) + packed
        link = len(out)
        out += b"\x00\x00\x00\x00"
    return bytes(out)


def printed_page(text: str, width: int = 400, height: int = 300) -> np.ndarray:
    """A grey page with one line of large dark print."""
    page = np.full((height, width), 255, np.uint8)
    cv2.putText(page, text, (20, height // 2), cv2.FONT_HERSHEY_SIMPLEX, 1.1, 20, 2, cv2.LINE_AA)
    return page


def write_scan_pdf(path: Path, texts: list[str]) -> Path:
    """An image-only PDF, one JPEG page per text (as a scanner writes them)."""
    import pymupdf

    doc = pymupdf.open()
    for text in texts:
        ok, jpeg = cv2.imencode(".jpg", printed_page(text))
        assert ok
        page = doc.new_page(width=288, height=216)
        page.insert_image(page.rect, stream=jpeg.tobytes())
    doc.save(str(path))
    doc.close()
    return path


def cut_in_half(source: Path, target: Path) -> Path:
    data = source.read_bytes()
    target.write_bytes(data[: len(data) // 2])
    return target


def truncate_first_image(source: Path, target: Path) -> Path:
    """The first page's image stream cut to half its bytes; the rest of the file intact."""
    import pymupdf

    doc = pymupdf.open(str(source))
    xref = doc[0].get_images()[0][0]
    raw = doc.xref_stream_raw(xref)
    doc.update_stream(xref, raw[: len(raw) // 2], compress=False)
    doc.save(str(target))
    doc.close()
    return target


def jpeg_with_garbled_data(text: str) -> bytes:
    """A JPEG whose entropy-coded data has 40 bytes overwritten halfway: libjpeg decodes it,
    garbled from there on, and complains on the standard error."""
    ok, data = cv2.imencode(".jpg", printed_page(text))
    assert ok
    raw = bytearray(data.tobytes())
    middle = len(raw) // 2
    for index in range(middle, middle + 40):
        raw[index] = 0xFF if index % 3 == 0 else 0xAB
    return bytes(raw)


def png_with_bad_filter(text: str) -> bytes:
    """A PNG whose image data has 500 bytes overwritten halfway (libpng: a bad filter value or
    a failed checksum)."""
    ok, data = cv2.imencode(".png", np.random.default_rng(5).integers(
        0, 256, (200, 200, 3), dtype=np.uint8))
    assert ok
    raw = bytearray(data.tobytes())
    middle = len(raw) // 2
    raw[middle:middle + 500] = b"\xff" * 500
    return bytes(raw)


@dataclass(frozen=True)
class ChildRun:
    """A CLI run in a child process: its exit code, what it wrote on the standard error, and
    its peak resident memory (from the kernel's accounting of that child alone)."""

    code: int
    stderr: str
    peak_mib: float


# Runs the command given after it and prints its exit code and peak resident memory. A process
# forked from the test session starts with the session's pages counted as its own (the models
# the session loaded), so the CLI is started from this small interpreter instead.
_MEASURE = (
    "import json, os, subprocess, sys\n"
    "child = subprocess.Popen(sys.argv[1:], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)\n"
    "_, status, usage = os.wait4(child.pid, 0)\n"
    "print(json.dumps([os.waitstatus_to_exitcode(status), usage.ru_maxrss]))\n"
)


def run_cli_child(args: list[str], env: dict[str, str], cwd: Path,
                  timeout_s: float = 300.0) -> ChildRun:
    """`paperlens-cli ARGS` in a child reaped with wait4, which gives that child's own peak."""
    import json
    import sys
    import tempfile

    with tempfile.TemporaryFile() as err:
        try:
            done = subprocess.run(
                [sys.executable, "-c", _MEASURE, sys.executable, "-m", "engine.cli.main", *args],
                cwd=cwd, env=env, stdin=subprocess.DEVNULL, capture_output=False,
                stdout=subprocess.PIPE, stderr=err, timeout=timeout_s, check=False)
        except subprocess.TimeoutExpired as exc:
            raise AssertionError(f"paperlens-cli {args} ran past {timeout_s} s") from exc
        err.seek(0)
        text = err.read().decode("utf-8", "replace")
    code, peak_kib = json.loads(done.stdout.decode().strip().splitlines()[-1])
    return ChildRun(code, text, peak_kib / 1024)


# How the raw lines of the libraries we decode with begin (OpenCV's log, libpng, libjpeg,
# MuPDF); none may reach the terminal. Our own lines may quote them after our words.
THIRD_PARTY_LINES = ("[ERROR", "[ WARN", "[WARN", "libpng", "Corrupt JPEG", "Premature end",
                     "format error", "MuPDF", "error: format", "warning: format", "Traceback",
                     "Exception ignored")


def third_party_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.lstrip().startswith(THIRD_PARTY_LINES)]


# -- markup built to exhaust memory ---------------------------------------------------------

def svg_use_bomb(levels: int = 10, fan: int = 10) -> bytes:
    """`<g id="l1">` holds `fan` `<use>` of l0, and so on up to l{levels-1}, which the image
    draws once: fan**(levels-1) rectangles from a kilobyte."""
    groups = ['<g id="l0"><rect width="1" height="1"/></g>']
    for level in range(1, levels):
        uses = f'<use xlink:href="#l{level - 1}"/>' * fan
        groups.append(f'<g id="l{level}">{uses}</g>')
    return ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
            f'width="100" height="100"><defs>{"".join(groups)}</defs>'
            f'<use xlink:href="#l{levels - 1}"/></svg>').encode()


def entity_bomb(levels: int = 10) -> bytes:
    """An XHTML chapter whose DTD defines each entity as ten of the one before."""
    entities = ['<!ENTITY lol0 "lol">'] + [
        f'<!ENTITY lol{i} "{f"&lol{i - 1};" * 10}">' for i in range(1, levels)]
    return ('<?xml version="1.0"?><!DOCTYPE html [' + "".join(entities) + ']>'
            '<html xmlns="http://www.w3.org/1999/xhtml"><head><title>c</title></head>'
            f'<body><p>&lol{levels - 1};</p></body></html>').encode()


EPUB_CONTAINER = (b'<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:'
                  b'opendocument:xmlns:container"><rootfiles><rootfile full-path="content.opf" '
                  b'media-type="application/oebps-package+xml"/></rootfiles></container>')


def write_epub(path: Path, chapter: bytes, extra: dict[str, bytes] | None = None) -> Path:
    """A one-chapter EPUB; `extra` members are listed in its manifest."""
    extra = extra or {}
    items = "".join(f'<item id="x{i}" href="{name}" media-type="image/svg+xml"/>'
                    for i, name in enumerate(extra))
    package = ('<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0" '
               'unique-identifier="id"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/">'
               '<dc:title>B</dc:title><dc:identifier id="id">b</dc:identifier></metadata>'
               '<manifest><item id="c" href="c.xhtml" media-type="application/xhtml+xml"/>'
               f'{items}</manifest><spine><itemref idref="c"/></spine></package>').encode()
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("mimetype", b"application/epub+zip", compress_type=zipfile.ZIP_STORED)
        archive.writestr("META-INF/container.xml", EPUB_CONTAINER)
        archive.writestr("content.opf", package)
        archive.writestr("c.xhtml", chapter)
        for name, data in extra.items():
            archive.writestr(name, data)
    return path


def chapter_showing(image: str) -> bytes:
    return ('<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>c'
            f'</title></head><body><p>Chapter one</p><img src="{image}"/></body></html>').encode()


XPS_TYPES = (b'<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/'
             b'content-types"><Default Extension="fdseq" ContentType="application/vnd.ms-package.'
             b'xps-fixeddocumentsequence+xml"/><Default Extension="fdoc" ContentType="application/'
             b'vnd.ms-package.xps-fixeddocument+xml"/><Default Extension="fpage" ContentType='
             b'"application/vnd.ms-package.xps-fixedpage+xml"/><Default Extension="rels" '
             b'ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default '
             b'Extension="svg" ContentType="image/svg+xml"/></Types>')


def write_xps(path: Path, svg: bytes) -> Path:
    """A one-page XPS whose page fills a square with an image brush of `b.svg`."""
    members = {
        "[Content_Types].xml": XPS_TYPES,
        "_rels/.rels": b'<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats'
                       b'.org/package/2006/relationships"><Relationship Type="http://schemas.'
                       b'microsoft.com/xps/2005/06/fixedrepresentation" Target="/FixedDocument'
                       b'Sequence.fdseq" Id="R0"/></Relationships>',
        "FixedDocumentSequence.fdseq": b'<FixedDocumentSequence xmlns="http://schemas.microsoft'
                                       b'.com/xps/2005/06"><DocumentReference Source="/Documents'
                                       b'/1/FixedDocument.fdoc"/></FixedDocumentSequence>',
        "Documents/1/FixedDocument.fdoc": b'<FixedDocument xmlns="http://schemas.microsoft.com/'
                                          b'xps/2005/06"><PageContent Source="/Documents/1/Pages'
                                          b'/1.fpage"/></FixedDocument>',
        "Documents/1/Pages/1.fpage": b'<FixedPage xmlns="http://schemas.microsoft.com/xps/2005/06"'
                                     b' Width="816" Height="1056" xml:lang="en"><Path Data="M 10,'
                                     b'10 L 400,10 400,400 10,400 Z"><Path.Fill><ImageBrush '
                                     b'ImageSource="/b.svg" Viewbox="0,0,100,100" ViewboxUnits='
                                     b'"Absolute" Viewport="10,10,390,390" ViewportUnits='
                                     b'"Absolute"/></Path.Fill></Path></FixedPage>',
        "b.svg": svg,
    }
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return path


def table_chapter(rows: int, columns: int = 50) -> bytes:
    """A chapter of one long table: a few kilobytes packed, which MuPDF takes seconds to lay
    out into pages (only to count them)."""
    row = "<tr>" + "<td>a</td>" * columns + "</tr>"
    return ('<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>c'
            f'</title></head><body><table>{row * rows}</table></body></html>').encode()
