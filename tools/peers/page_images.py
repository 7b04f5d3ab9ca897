"""Page images for the OCR peers: each PDF page rendered to PNG the way Paperlens renders it."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from engine.options import DEFAULT_DPI, DEFAULT_MAX_SIDE_PX

WARM_TEXT = "Paperlens warm-up page 2024"


@dataclass(frozen=True)
class PageImages:
    """The PNG files of one input's pages and the seconds it took to render them."""

    paths: tuple[Path, ...]
    render_s: float
    dpi: float


def render_scale(width_pt: float, height_pt: float, dpi: int = DEFAULT_DPI,
                 max_side_px: int = DEFAULT_MAX_SIDE_PX) -> float:
    """Pixels per PDF point: `dpi`, lowered so the long side stays within `max_side_px`, as the
    engine does (a 65 x 80 cm poster page is read at 127 dpi, not 200)."""
    scale = dpi / 72.0
    long_side_pt = max(width_pt, height_pt, 1.0)
    if long_side_pt * scale > max_side_px:
        scale = max_side_px / long_side_pt
    return scale


def render_pdf(pdf: Path, folder: Path, dpi: int = DEFAULT_DPI,
               max_side_px: int = DEFAULT_MAX_SIDE_PX) -> PageImages:
    """Write `folder/page-001.png`... (RGB, no alpha, the resolution stored in the file)."""
    import pymupdf

    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    lowest_dpi = float(dpi)
    started = time.perf_counter()
    with pymupdf.open(pdf) as document:
        for index, page in enumerate(document):
            scale = render_scale(page.rect.width, page.rect.height, dpi, max_side_px)
            pixmap = page.get_pixmap(matrix=pymupdf.Matrix(scale, scale),
                                     colorspace=pymupdf.csRGB, alpha=False)
            page_dpi = round(scale * 72)
            pixmap.set_dpi(page_dpi, page_dpi)
            path = folder / f"page-{index + 1:03d}.png"
            pixmap.save(path)
            paths.append(path)
            lowest_dpi = min(lowest_dpi, scale * 72)
    return PageImages(tuple(paths), time.perf_counter() - started, lowest_dpi)


def write_warm_inputs(folder: Path) -> tuple[Path, Path]:
    """A one-line PDF page and its PNG: each tool converts one at load, so that what it
    creates lazily (model sessions) is ready before any item is timed."""
    import pymupdf

    folder.mkdir(parents=True, exist_ok=True)
    pdf_path, png_path = folder / "warm.pdf", folder / "warm.png"
    with pymupdf.open() as document:
        page = document.new_page(width=300, height=60)
        page.insert_text((12, 36), WARM_TEXT, fontsize=14)
        document.save(pdf_path)
    render_pdf(pdf_path, folder / "warm-pages")
    (folder / "warm-pages" / "page-001.png").replace(png_path)
    return pdf_path, png_path
