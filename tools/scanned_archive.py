"""A long scanned PDF made from the dev set's pages: each page drawn as pixels (no text layer),
JPEG-compressed as a scanner would, the sources taken in turn until the page count is reached.

Used by the cluster tests and tools/cluster_bench.py, so both convert the same kind of archive
page that people send: OCR, layout and tables on every page, headers repeated across pages.

    python -m tools.scanned_archive --pages 40 -o build/cluster/archive.pdf
"""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import numpy as np
import pymupdf

REPO_ROOT = Path(__file__).resolve().parents[1]
DEV_ITEMS = REPO_ROOT.parent / "shared" / "eval" / "dev" / "items"
# Printed pages of different kinds: two columns, running headers and footers, figures, a
# results table, a plain typewritten page. Handwriting and formula crops are left out: they
# say little about throughput and much about one model.
SOURCES = ("olmocr-headers_footers-ff0f0b22", "docling-2305.03393v1-pg9-img",
           "olmocr-multi_column_miss", "tesseract-phototest", "docling-amt_handbook_sample",
           "docling-ocr_test")
SHORT_SOURCES = ("tesseract-phototest", "docling-amt_handbook_sample", "docling-ocr_test")
"""Pages that read in a few seconds on one core (a typewritten page, a handbook page with
figures, a short paragraph): the cluster tests, which must stay short, use these."""
SCAN_DPI = 150
JPEG_QUALITY = 85


def source_pixels(item: Path, dpi: int = SCAN_DPI) -> tuple[np.ndarray, float]:
    """The item's first page as RGB pixels and its width in points (72 per inch)."""
    pdf = item / "input.pdf"
    if pdf.exists():
        with pymupdf.open(pdf) as doc:
            pix = doc[0].get_pixmap(dpi=dpi, colorspace=pymupdf.csRGB, alpha=False)
            width_pt = doc[0].rect.width
        pixels = np.frombuffer(pix.samples, np.uint8).reshape(pix.height, pix.width, 3).copy()
        return pixels, width_pt
    image = cv2.imread(str(item / "input.png"), cv2.IMREAD_COLOR)
    if image is None:
        raise FileNotFoundError(f"no input.pdf or readable input.png in {item}")
    # A PNG scan keeps its own resolution; its page is sized as if scanned at SCAN_DPI.
    return image[:, :, ::-1].copy(), image.shape[1] * 72.0 / dpi


def build_scanned_pdf(target: Path, pages: int, items_dir: Path = DEV_ITEMS,
                      sources: tuple[str, ...] = SOURCES) -> Path:
    """Write an image-only PDF of `pages` pages to `target` (atomically) and return it."""
    if pages < 1:
        raise ValueError("a scanned archive needs at least one page")
    scans = []
    for name in sources:
        pixels, width_pt = source_pixels(items_dir / name)
        ok, jpeg = cv2.imencode(".jpg", pixels[:, :, ::-1], [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
        if not ok:
            raise RuntimeError(f"could not encode {name} as JPEG")
        height_pt = width_pt * pixels.shape[0] / pixels.shape[1]
        scans.append((jpeg.tobytes(), width_pt, height_pt))
    doc = pymupdf.open()
    for index in range(pages):
        jpeg, width_pt, height_pt = scans[index % len(scans)]
        page = doc.new_page(width=width_pt, height=height_pt)
        page.insert_image(page.rect, stream=jpeg)
    doc.set_metadata({})  # no creation time: the same pages give the same bytes
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f".{target.name}.part")
    doc.save(partial, garbage=3, deflate=True, no_new_id=True)
    doc.close()
    partial.replace(target)
    return target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=40)
    parser.add_argument("-o", "--output", type=Path, required=True)
    parser.add_argument("--short", action="store_true",
                        help="only pages that read in a few seconds (the tests' archive)")
    args = parser.parse_args(argv)
    print(build_scanned_pdf(args.output, args.pages,
                            sources=SHORT_SOURCES if args.short else SOURCES))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
