"""How much white margin a small image input needs before layout analysis (engine/layout/stage.py,
SMALL_IMAGE_PX and SMALL_IMAGE_MARGIN_FACTOR), chosen on generated crops instead of the dev set's
ten table crops alone.

    python -m tools.small_images generate --seed 1 --count 120   # build/small_images/seed-1
    python -m tools.small_images measure build/small_images/seed-1
    python -m tools.small_images measure --dev                   # the dev set's image inputs

The layout models were trained on whole pages; a crop with no page margin around it is often
not found at all. `generate` draws crops of both kinds with PyMuPDF's Story API (HTML laid out
by MuPDF): tables (a full grid, rules only above and below the header and at the end as in
journals, or no lines at all), and text that is not a table (a paragraph, a few list items,
one line). Text is CPython's docstrings (tools/structure/text_source.py). Each crop is rendered
at a resolution that gives its long side a size drawn between 200 and 2,800 px, and cut to its
ink with a margin of 0-24 px; some get a JPEG pass.

`measure` runs the default layout model on every crop once per margin factor (the image
centred on a white canvas that many times its size, as the stage does) and records whether a
table region covers the crop's ink (a table crop found) and whether any table region appears
(on a text crop, a false table). A rule "pad when the long side is under T" is then scored for
every T and factor from those records: table recall, false tables on text crops, and their
difference. Nothing here is committed as data; results go to docs/results/small_images.json."""

from __future__ import annotations

import argparse
import io
import json
import random
import sys
from pathlib import Path

import numpy as np

REPO_ROOT = Path(__file__).resolve().parents[1]
DEV_ITEMS = REPO_ROOT.parent / "shared" / "eval" / "dev" / "items"
FACTORS = (1.0, 1.25, 1.5, 2.0, 2.5)
THRESHOLDS = (0, 400, 600, 800, 1000, 1200, 1600, 2000, 2400, 3200)
TABLE_STYLES = ("grid", "rules", "plain")
TEXT_KINDS = ("paragraph", "list", "line")
MIN_TABLE_COVER = 0.5
"""A table region covering this share of the crop's ink box counts as the table found."""


# -- generation -------------------------------------------------------------------------------

def _cell(rng: random.Random, words: list[str], numeric: bool) -> str:
    if numeric:
        value = rng.choice([f"{rng.uniform(0, 100):.1f}", f"{rng.randint(1, 9999)}",
                            f"{rng.uniform(0, 1):.3f}", f"{rng.randint(1, 99)}%",
                            f"{rng.uniform(-5, 5):.2f}"])
        return value
    return " ".join(rng.sample(words, rng.randint(1, 3)))


def table_html(rng: random.Random, words: list[str], style: str) -> tuple[str, str]:
    rows, cols = rng.randint(3, 14), rng.randint(2, 7)
    numeric = [c > 0 and rng.random() < 0.7 for c in range(cols)]
    head = "".join(f"<th>{_cell(rng, words, False).title()}</th>" for _ in range(cols))
    body = "".join("<tr>" + "".join(f"<td>{_cell(rng, words, numeric[c])}</td>"
                                    for c in range(cols)) + "</tr>" for _ in range(rows))
    size = rng.choice([8, 9, 10, 11, 12, 14])
    font = rng.choice(["serif", "sans-serif"])
    pad = rng.choice([2, 3, 5, 8])
    css = f"table {{border-collapse: collapse;}} * {{font-family: {font}; font-size: {size}pt;}} " \
          f"td, th {{padding: {pad}px {pad * 2}px;}} th {{font-weight: bold;}}"
    if style == "grid":
        css += " td, th {border: 1px solid black;}"
    elif style == "rules":
        css += " th {border-top: 1.5px solid black; border-bottom: 1px solid black;} " \
               "tr:last-child td {border-bottom: 1.5px solid black;}"
    return f"<table><tr>{head}</tr>{body}</table>", css


def text_html(rng: random.Random, prose, kind: str) -> tuple[str, str]:
    size = rng.choice([9, 10, 11, 12, 14, 18, 24])
    font = rng.choice(["serif", "sans-serif"])
    css = f"* {{font-family: {font}; font-size: {size}pt;}}"
    if kind == "paragraph":
        return "".join(f"<p>{' '.join(prose.sample(rng, rng.randint(2, 5)))}</p>"
                       for _ in range(rng.randint(1, 3))), css
    if kind == "list":
        return "<ul>" + "".join(f"<li>{s}</li>" for s in prose.sample(rng, rng.randint(3, 6))) \
            + "</ul>", css
    sentence = prose.sample(rng, 1)[0]
    return f"<p>{' '.join(sentence.split()[:rng.randint(3, 12)])}</p>", css


def render_crop(html: str, css: str, width_pt: float, long_side_px: int, margin_px: int,
                rng: random.Random) -> np.ndarray:
    """The HTML laid out in a column `width_pt` wide, rendered so that its ink's long side is
    about `long_side_px`, cut to the ink with `margin_px` of paper around it."""
    import pymupdf

    from engine.imaging import ink_bounds

    story = pymupdf.Story(html=html, user_css=css)
    buffer = io.BytesIO()
    writer = pymupdf.DocumentWriter(buffer)
    mediabox = pymupdf.Rect(0, 0, 2400, 4000)  # room for a table wider than its column
    device = writer.begin_page(mediabox)
    story.place(pymupdf.Rect(36, 36, 36 + width_pt, 3964))
    story.draw(device)
    writer.end_page()
    writer.close()
    with pymupdf.open("pdf", buffer.getvalue()) as doc:
        page = doc[0]
        sketch = page.get_pixmap(matrix=pymupdf.Matrix(0.5, 0.5), alpha=False)
        drawn = ink_bounds(np.frombuffer(sketch.samples, dtype=np.uint8).reshape(
            sketch.height, sketch.width, 3))
        if drawn is None:
            raise ValueError("nothing was drawn")
        clip = pymupdf.Rect(*(2 * v for v in drawn)) + (-6, -6, 6, 6)
        scale = long_side_px / max(clip.width, clip.height, 1)
        pix = page.get_pixmap(matrix=pymupdf.Matrix(scale, scale), clip=clip, alpha=False)
        image = np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.width, 3)
    bounds = ink_bounds(image)
    if bounds is None:
        raise ValueError("nothing was drawn")
    x0, y0, x1, y1 = bounds
    h, w = image.shape[:2]
    return image[max(0, y0 - margin_px):min(h, y1 + margin_px),
                 max(0, x0 - margin_px):min(w, x1 + margin_px)].copy()


def generate(root: Path, count: int, seed: int) -> list[dict]:
    import cv2

    from tools.structure.text_source import load_prose

    rng = random.Random(seed)
    prose = load_prose()
    words = [w.strip(".,;:()").lower() for s in prose.sample(rng, 400) for w in s.split()
             if w.isalpha() and 3 <= len(w) <= 10]
    root.mkdir(parents=True, exist_ok=True)
    items = []
    for number in range(count):
        table = number % 2 == 0
        kind = TABLE_STYLES[(number // 2) % 3] if table else TEXT_KINDS[(number // 2) % 3]
        html, css = table_html(rng, words, kind) if table else text_html(rng, prose, kind)
        long_side = int(round(np.exp(rng.uniform(np.log(200), np.log(2800)))))
        # Tables take the width their cells need (MuPDF cuts what overflows the column).
        width_pt = 2300.0 if table else rng.uniform(180, 520)
        image = render_crop(html, css, width_pt, long_side, rng.choice([0, 2, 6, 12, 24]), rng)
        name = f"{number:04d}-{'table' if table else 'text'}-{kind}"
        if rng.random() < 0.3:
            ok, data = cv2.imencode(".jpg", image[:, :, ::-1],
                                    [cv2.IMWRITE_JPEG_QUALITY, rng.randint(40, 90)])
            path = root / f"{name}.jpg"
        else:
            ok, data = cv2.imencode(".png", image[:, :, ::-1])
            path = root / f"{name}.png"
        if not ok:
            raise RuntimeError(f"cannot encode {name}")
        path.write_bytes(data.tobytes())
        items.append({"file": path.name, "table": table, "kind": kind,
                      "size": [int(image.shape[1]), int(image.shape[0])]})
    (root / "manifest.json").write_text(json.dumps({"seed": seed, "items": items}, indent=1))
    return items


# -- measuring --------------------------------------------------------------------------------

def dev_items() -> list[dict]:
    """The dev set's image inputs: its PubTabNet crops are tables, the others (formula crops,
    text lines, a photographed page, a figure) are not."""
    items = []
    for folder in sorted(DEV_ITEMS.iterdir()):
        for path in folder.glob("input.*"):
            if path.suffix.lower() in (".png", ".jpg", ".jpeg"):
                items.append({"file": str(path), "table": folder.name.startswith("pubtabnet-"),
                              "kind": folder.name.split("-")[0]})
    return items


def detect_all(items: list[dict], folder: Path | None) -> list[dict]:
    """Each item's table found / any table, per margin factor, with the default layout model."""
    from engine.api import Engine
    from engine.imaging import ink_bounds, pad_on_white
    from engine.input.document import open_document
    from engine.options import ConvertOptions
    from engine.types import BlockKind, Box
    from settings import SettingsStore

    options = ConvertOptions()
    detector = Engine(SettingsStore().load()).models.layout_detector(options.layout_model)
    for item in items:
        path = Path(item["file"]) if folder is None else folder / item["file"]
        with open_document(path) as document:
            image = document.render(1, options.dpi, options.max_side_px).image
        height, width = image.shape[:2]
        item["size"] = [int(width), int(height)]
        ink = Box(*map(float, ink_bounds(image) or (0, 0, width, height)))
        item["by_factor"] = {}
        for factor in FACTORS:
            canvas, ox, oy = pad_on_white(image, factor) if factor > 1 else (image, 0, 0)
            tables = [Box(r.box.x0 - ox, r.box.y0 - oy, r.box.x1 - ox, r.box.y1 - oy)
                      for r in detector.detect(canvas) if r.kind is BlockKind.TABLE]
            found = any(t.intersection_area(ink) >= MIN_TABLE_COVER * ink.area for t in tables)
            item["by_factor"][str(factor)] = {"table_found": found, "any_table": bool(tables)}
    return items


def score(items: list[dict], threshold: int, factor: float) -> dict:
    """The rule "pad by `factor` when the long side is under `threshold`" on recorded items."""
    def outcome(item):
        padded = max(item["size"]) < threshold and factor > 1
        return item["by_factor"][str(factor if padded else 1.0)]

    tables = [outcome(i)["table_found"] for i in items if i["table"]]
    texts = [outcome(i)["any_table"] for i in items if not i["table"]]
    recall = sum(tables) / max(1, len(tables))
    false_rate = sum(texts) / max(1, len(texts))
    return {"threshold": threshold, "factor": factor, "table_recall": round(recall, 3),
            "false_tables": round(false_rate, 3), "score": round(recall - false_rate, 3)}


def measure(items: list[dict], folder: Path | None) -> dict:
    items = detect_all(items, folder)
    rules = [score(items, t, f) for t in THRESHOLDS for f in FACTORS if f > 1 or t == 0]
    return {"items": len(items), "tables": sum(i["table"] for i in items), "rules": rules,
            "records": items}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.small_images")
    sub = parser.add_subparsers(dest="command", required=True)
    gen = sub.add_parser("generate")
    gen.add_argument("--seed", type=int, default=1)
    gen.add_argument("--count", type=int, default=120)
    gen.add_argument("--root", type=Path)
    mea = sub.add_parser("measure")
    mea.add_argument("folder", type=Path, nargs="?")
    mea.add_argument("--dev", action="store_true", help="the dev set's image inputs")
    mea.add_argument("--out", type=Path, default=REPO_ROOT / "docs/results/small_images.json")
    args = parser.parse_args(argv)
    if args.command == "generate":
        root = args.root or REPO_ROOT / "build" / "small_images" / f"seed-{args.seed}"
        items = generate(root, args.count, args.seed)
        print(f"{len(items)} crops in {root}")
        return 0
    if args.dev:
        name, report = "dev", measure(dev_items(), None)
    elif args.folder is not None:
        manifest = json.loads((args.folder / "manifest.json").read_text())
        name, report = f"seed-{manifest['seed']}", measure(manifest["items"], args.folder)
    else:
        parser.error("measure needs a folder or --dev")
    try:
        results = json.loads(args.out.read_text())
    except FileNotFoundError:
        results = {}
    results[name] = {k: v for k, v in report.items() if k != "records"}
    args.out.write_text(json.dumps(results, indent=1) + "\n")
    for rule in sorted(report["rules"], key=lambda r: (-r["score"], r["threshold"]))[:12]:
        print(rule)
    print(f"{name}: {report['items']} crops, {report['tables']} tables", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
