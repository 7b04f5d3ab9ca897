"""Pages of the multi-script set: each sample's paragraphs set with PyMuPDF's HTML layout (its
HarfBuzz shaping joins Arabic letters and orders Indic clusters), in one column or two, as a
born-digital PDF, clean scans at 150, 200 and 300 dpi and degraded ones (a slight turn, blur,
sensor noise, JPEG)."""

from __future__ import annotations

import functools
import html
import io
import random
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pymupdf

from tools.scripts.texts import Sample

NOTO_DIR = Path("/usr/share/fonts/truetype/noto")
CJK_COLLECTION = Path("/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc")
CJK_FACES = {"KR": "Noto Serif CJK KR", "JP": "Noto Serif CJK JP", "TC": "Noto Serif CJK TC"}
FONT_CACHE = Path(__file__).resolve().parents[2] / "build" / "scripts-fonts"
PAGE_WIDTH_PT, PAGE_HEIGHT_PT, MARGIN_PT = 595, 842, 64
FONT_SIZE_PT = 13
DPI = 200


class FontMissing(RuntimeError):
    """A Noto font the set needs is not installed."""


@functools.lru_cache(maxsize=None)
def font_folder(font: str) -> tuple[Path, str]:
    """(folder, file name) of a sample's font; a CJK face is cut out of its collection once."""
    if not font.startswith("cjk:"):
        if not (NOTO_DIR / font).is_file():
            raise FontMissing(f"{NOTO_DIR / font} is missing: apt-get install fonts-noto-core")
        return NOTO_DIR, font
    from fontTools.ttLib import TTCollection

    name = CJK_FACES[font[4:]]
    target = FONT_CACHE / f"{name.replace(' ', '')}.otf"
    if not target.is_file():
        if not CJK_COLLECTION.is_file():
            raise FontMissing(f"{CJK_COLLECTION} is missing: apt-get install fonts-noto-cjk")
        for face in TTCollection(str(CJK_COLLECTION), lazy=True).fonts:
            if face["name"].getDebugName(1) == name:
                FONT_CACHE.mkdir(parents=True, exist_ok=True)
                out = io.BytesIO()
                face.save(out)
                target.write_bytes(out.getvalue())
                break
        else:
            raise FontMissing(f"{CJK_COLLECTION} holds no face {name!r}")
    return FONT_CACHE, target.name


def page_pdf(sample: Sample, columns: int = 1) -> bytes:
    """The sample set on an A4 page, paragraph by paragraph, in one or two columns (right to
    left for a right-to-left script): the first half of the paragraphs in the first column,
    so the paragraphs' order is the reading order."""
    folder, file_name = font_folder(sample.font)
    css = (f"@font-face {{font-family: body; src: url({file_name});}} "
           f"p {{font-family: body; font-size: {FONT_SIZE_PT}px; line-height: 1.6; "
           "margin: 0 0 10px 0;}")
    direction = ' dir="rtl"' if sample.right_to_left else ""
    body = "".join(f"<p{direction}>{html.escape(p)}</p>" for p in sample.paragraphs)
    doc = pymupdf.open()
    page = doc.new_page(width=PAGE_WIDTH_PT, height=PAGE_HEIGHT_PT)
    archive = pymupdf.Archive(str(folder))
    width = (PAGE_WIDTH_PT - 2 * MARGIN_PT - (columns - 1) * 24) / columns
    per_column = -(-len(sample.paragraphs) // columns)
    for column in range(columns):
        order = columns - 1 - column if sample.right_to_left else column
        x0 = MARGIN_PT + order * (width + 24)
        text = body if columns == 1 else "".join(
            f"<p{direction}>{html.escape(p)}</p>"
            for p in sample.paragraphs[column * per_column:(column + 1) * per_column])
        page.insert_htmlbox(pymupdf.Rect(x0, MARGIN_PT, x0 + width, PAGE_HEIGHT_PT - MARGIN_PT),
                            text, css=css, archive=archive)
    data = doc.tobytes(garbage=3, deflate=True)
    doc.close()
    return data


# Where a paragraph may be cut in two for a two-column page: after a sentence's end.
SENTENCE_ENDS = (". ", "。", "। ", "? ", "! ")


def two_column_sample(sample: Sample) -> Sample:
    """The sample with a paragraph for each column: a one-paragraph sample cut at the
    sentence end nearest its middle (at the space nearest it, for Thai, which has none)."""
    if len(sample.paragraphs) > 1:
        return sample
    [text] = sample.paragraphs
    middle = len(text) / 2
    cuts = [i + len(end) for end in SENTENCE_ENDS for i in range(len(text))
            if text.startswith(end, i) and i + len(end) < len(text)]
    if not cuts:
        cuts = [i + 1 for i, char in enumerate(text) if char == " "]
    cut = min(cuts, key=lambda i: abs(i - middle))
    return replace(sample, paragraphs=(text[:cut].strip(), text[cut:].strip()))


def render(pdf: bytes, dpi: int = DPI) -> np.ndarray:
    """The PDF's first page as an RGB array."""
    with pymupdf.open(stream=pdf) as doc:
        pix = doc[0].get_pixmap(dpi=dpi, colorspace=pymupdf.csRGB, alpha=False)
        return np.frombuffer(pix.samples, np.uint8).reshape(pix.height, pix.width, 3).copy()


def degrade(image: np.ndarray, seed: int) -> bytes:
    """A JPEG of the page as an office scanner might give it: turned by under a degree,
    blurred, noisy, greyish paper, JPEG quality 50-70."""
    rng = random.Random(seed)
    grey = cv2.cvtColor(image, cv2.COLOR_RGB2GRAY)
    height, width = grey.shape
    turn = cv2.getRotationMatrix2D((width / 2, height / 2), rng.uniform(-0.8, 0.8), 1.0)
    grey = cv2.warpAffine(grey, turn, (width, height), flags=cv2.INTER_LINEAR, borderValue=255)
    grey = cv2.GaussianBlur(grey, (0, 0), rng.uniform(0.6, 0.9))
    noise = np.random.default_rng(seed).normal(0, rng.uniform(4, 8), grey.shape)
    grey = np.clip(grey.astype(np.float32) * rng.uniform(0.88, 0.96) + noise, 0, 255)
    ok, data = cv2.imencode(".jpg", grey.astype(np.uint8),
                            [cv2.IMWRITE_JPEG_QUALITY, rng.randint(50, 70)])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    return data.tobytes()


def truth(sample: Sample) -> str:
    """The sample's text as the Markdown should hold it: paragraphs in reading order."""
    return "\n\n".join(sample.paragraphs) + "\n"
