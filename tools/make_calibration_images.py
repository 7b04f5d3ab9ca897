"""Render the six device-calibration text lines to PNG and write their manifest (developer tool).

The app never runs this: it reads the PNGs shipped in resources/calibration/. The font is an
explicit argument so that the images do not depend on whatever fonts a machine happens to have;
the shipped set was made with WenQuanYi Zen Hei from Debian's fonts-wqy-zenhei:

    apt-get install fonts-wqy-zenhei
    .venv/bin/python -m tools.make_calibration_images --font /usr/share/fonts/truetype/wqy/wqy-zenhei.ttc
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

import pymupdf

OUT_DIR = Path(__file__).resolve().parents[1] / "resources" / "calibration"

# Printed Chinese, English and digit lines of the kinds documents are made of. Short enough that
# the batch stays 48 x ~480 px: a wider batch makes the software Vulkan device in the tests
# needlessly slow without telling real GPUs apart any better.
LINES = (
    "2024年第三季度营业收入1286.45万元",
    "Invoice No. 04417392, due 2025-03-18",
    "深度学习在文档识别中的应用",
    "Total: $4,096.50 incl. VAT 19%",
    "电话 010-62753891 邮编 100871",
    "Chapter 7: Results and Discussion",
)
FONT_SIZE_PT = 40
PAD_PT = 8
SCHEMA_VERSION = 1


def render_line(text: str, font_path: Path) -> bytes:
    """One line of black text on white, as an 8-bit grayscale PNG at 1 px per point."""
    font = pymupdf.Font(fontfile=str(font_path))
    width = font.text_length(text, FONT_SIZE_PT) + 2 * PAD_PT
    height = FONT_SIZE_PT * 1.25 + 2 * PAD_PT
    doc = pymupdf.open()
    page = doc.new_page(width=width, height=height)
    page.insert_font(fontname="calib", fontfile=str(font_path))
    baseline = PAD_PT + FONT_SIZE_PT * 1.0
    page.insert_text((PAD_PT, baseline), text, fontname="calib", fontsize=FONT_SIZE_PT)
    pixmap = page.get_pixmap(colorspace=pymupdf.csGRAY, alpha=False)
    data = pixmap.tobytes("png")
    doc.close()
    return data


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--font", required=True, type=Path, help="TrueType/OpenType font file")
    parser.add_argument("--out", type=Path, default=OUT_DIR, help="output folder")
    args = parser.parse_args(argv)
    if not args.font.is_file():
        print(f"font file not found: {args.font}", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    images = []
    for number, text in enumerate(LINES, start=1):
        name = f"line{number}.png"
        data = render_line(text, args.font)
        (args.out / name).write_bytes(data)
        images.append({"file": name, "text": text, "sha256": hashlib.sha256(data).hexdigest()})
    manifest = {
        "schema_version": SCHEMA_VERSION,
        "font": pymupdf.Font(fontfile=str(args.font)).name,
        "renderer": f"PyMuPDF {pymupdf.VersionBind}",
        "images": images,
    }
    (args.out / "manifest.json").write_text(json.dumps(manifest, ensure_ascii=False, indent=2)
                                            + "\n", encoding="utf-8")
    print(f"wrote {len(images)} images and manifest.json to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
