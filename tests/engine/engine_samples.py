"""Builders of small test inputs, generated in tmp_path at test time (nothing is checked in)."""

from __future__ import annotations

import struct
import zipfile
import zlib
from pathlib import Path

import cv2
import numpy as np
import pymupdf


def write_text_pdf(path: Path, pages: list[list[str]], fontsize: float = 12,
                   **save_options) -> Path:
    """A digital PDF: one page per entry, each line of text set at its own baseline."""
    doc = pymupdf.open()
    for lines in pages:
        page = doc.new_page()
        for i, text in enumerate(lines):
            page.insert_text((72, 90 + i * fontsize * 2.2), text, fontsize=fontsize)
    doc.save(str(path), **save_options)
    doc.close()
    return path


def numbered_pages(count: int, lines_per_page: int = 20) -> list[list[str]]:
    return [[f"Page {p} line {i} of the harvest report" for i in range(lines_per_page)]
            for p in range(1, count + 1)]


def write_encrypted_pdf(path: Path, text: str, user_pw: str, owner_pw: str) -> Path:
    return write_text_pdf(path, [[text]], fontsize=16, encryption=pymupdf.PDF_ENCRYPT_AES_256,
                          owner_pw=owner_pw, user_pw=user_pw)


def encoded_image(ext: str, height: int = 24, width: int = 32) -> bytes:
    """A small image in the format of `ext` ('.png', '.jpg', ...), encoded by OpenCV."""
    image = np.full((height, width, 3), 255, dtype=np.uint8)
    image[4:12, 4:20] = (20, 40, 60)
    ok, data = cv2.imencode(ext, image)
    assert ok, f"OpenCV cannot encode {ext}"
    return data.tobytes()


def _png_chunk(kind: bytes, data: bytes) -> bytes:
    return (struct.pack(">I", len(data)) + kind + data
            + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))


def blank_bilevel_png(width: int, height: int) -> bytes:
    """A valid 1-bit grayscale PNG of zeros, built row block by row block.

    30000 x 30000 compresses to ~110 KB and is built in a fraction of a second, while decoding
    it to RGB would need 2.7 GB."""
    row = b"\x00" + bytes((width + 7) // 8)  # filter byte 0, then the packed pixels
    rows_per_block = 1000
    compressor = zlib.compressobj(9)
    parts = []
    done = 0
    while done < height:
        count = min(rows_per_block, height - done)
        parts.append(compressor.compress(row * count))
        done += count
    parts.append(compressor.flush())
    header = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", header)
            + _png_chunk(b"IDAT", b"".join(parts)) + _png_chunk(b"IEND", b""))


def write_zip(path: Path, members: dict[str, bytes], stored_first: str | None = None) -> Path:
    """A ZIP archive; `stored_first` is written first and uncompressed (as EPUB wants `mimetype`)."""
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        if stored_first is not None:
            archive.writestr(stored_first, members[stored_first], compress_type=zipfile.ZIP_STORED)
        for name, data in members.items():
            if name != stored_first:
                archive.writestr(name, data)
    return path


def folder_files(folder: Path) -> list[str]:
    """Every entry in the folder, hidden ones included."""
    return sorted(p.name for p in folder.iterdir())


def jpeg_with_exif_orientation(image_bgr: np.ndarray, orientation: int) -> bytes:
    """A JPEG whose EXIF Orientation tag says how to turn the stored pixels for display
    (6 = turn 90 degrees clockwise, as a phone held upright writes it)."""
    ok, data = cv2.imencode(".jpg", image_bgr)
    assert ok
    ifd = struct.pack("<H", 1) + struct.pack("<HHIHH", 0x0112, 3, 1, orientation, 0)
    tiff = b"II*\x00" + struct.pack("<I", 8) + ifd + struct.pack("<I", 0)
    payload = b"Exif\x00\x00" + tiff
    app1 = b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload
    raw = data.tobytes()
    return raw[:2] + app1 + raw[2:]  # right after the start-of-image marker
