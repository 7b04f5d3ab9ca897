"""Inputs for the service tests, generated at test time: small scanned pages (image-only PDFs,
so every page goes through OCR), a text PDF, a zip bomb with a PDF's name, noise images."""

from __future__ import annotations

import zipfile
from pathlib import Path

import cv2
import numpy as np
import pymupdf

SCAN_DPI = 150


def page_pixels(lines: list[str], width: int = 300, height: int = 300) -> np.ndarray:
    """A small printed page: dark lines of text on white, as a scanner would give it."""
    page = np.full((height, width, 3), 255, dtype=np.uint8)
    for row, text in enumerate(lines):
        cv2.putText(page, text, (12, 44 + 40 * row), cv2.FONT_HERSHEY_SIMPLEX, 0.7,
                    (25, 25, 25), 2, cv2.LINE_AA)
    return page


def figure_pixels(title: str) -> np.ndarray:
    """A page with a picture and its caption: the layout model finds a figure, whose crop is
    written beside the Markdown."""
    page = np.full((500, 400, 3), 255, dtype=np.uint8)
    cv2.putText(page, title, (20, 40), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (20, 20, 20), 2,
                cv2.LINE_AA)
    rows, cols = np.mgrid[0:220, 0:300]
    picture = np.stack([(cols * 0.8) % 255, (rows * 1.1) % 255, ((cols + rows) * 0.5) % 255],
                       -1).astype(np.uint8)
    cv2.circle(picture, (150, 110), 60, (30, 90, 200), -1)
    page[70:290, 50:350] = picture
    cv2.putText(page, "Figure 1: the north field", (50, 320), cv2.FONT_HERSHEY_SIMPLEX, 0.6,
                (20, 20, 20), 1, cv2.LINE_AA)
    cv2.putText(page, "Yields rose in spring", (20, 380), cv2.FONT_HERSHEY_SIMPLEX, 0.7,
                (20, 20, 20), 2, cv2.LINE_AA)
    return page


def write_scan(path: Path, pages: list[list[str] | np.ndarray]) -> Path:
    """An image-only PDF, one small page per entry (lines of text, or the page's pixels); no
    text layer, so OCR reads every page."""
    doc = pymupdf.open()
    for lines in pages:
        pixels = lines if isinstance(lines, np.ndarray) else page_pixels(lines)
        ok, png = cv2.imencode(".png", pixels)
        assert ok
        height, width = pixels.shape[:2]
        page = doc.new_page(width=width * 72 / SCAN_DPI, height=height * 72 / SCAN_DPI)
        page.insert_image(page.rect, stream=png.tobytes())
    doc.save(str(path))
    doc.close()
    return path


def invoice_pages(number: int, count: int) -> list[list[str]]:
    return [[f"Invoice {number}-{page}", f"Total due {number * 7 + page} pounds",
             "Paid in full"] for page in range(1, count + 1)]


def write_png(path: Path, lines: list[str]) -> Path:
    ok, data = cv2.imencode(".png", page_pixels(lines)[:, :, ::-1])
    assert ok
    path.write_bytes(data.tobytes())
    return path


def write_text_pdf(path: Path, page_count: int) -> Path:
    doc = pymupdf.open()
    for number in range(1, page_count + 1):
        doc.new_page().insert_text((72, 90), f"Page {number} of the ledger", fontsize=12)
    doc.save(str(path))
    doc.close()
    return path


def write_zip_bomb(path: Path, unpacked_mib: int = 200) -> Path:
    """A few hundred KB that unpack to `unpacked_mib` MiB of zeros, under a PDF's name."""
    block = bytes(1024 * 1024)
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as zf:
        with zf.open("payload.bin", "w", force_zip64=True) as member:
            for _ in range(unpacked_mib):
                member.write(block)
    return path


def write_noise_png(path: Path, side: int) -> Path:
    """Random pixels compress badly: a PNG of about 3 * side * side bytes."""
    pixels = np.random.default_rng(7).integers(0, 256, (side, side, 3), dtype=np.uint8)
    ok, data = cv2.imencode(".png", pixels)
    assert ok
    path.write_bytes(data.tobytes())
    return path
