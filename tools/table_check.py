"""`python -m tools.table_check`: OCR + table recognition of the PubTabNet crops, scored by TEDS."""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from engine.model_set import ModelSet
from engine.tables.recognizer import TableRecognizer, TableResult
from engine.ocr.page_reader import PageReader
from engine.types import Line
from settings import load_settings
from tools.eval.scoring import teds, teds_structure

REPO_ROOT = Path(__file__).resolve().parents[1]
DEFAULT_ITEMS = REPO_ROOT.parent / "shared" / "eval" / "dev" / "items"


@dataclass(frozen=True)
class ItemCheck:
    name: str
    teds: float
    teds_structure: float
    rows: tuple[int, int]
    """(predicted, truth)"""
    cols: tuple[int, int]
    onnx_s: float
    """Pure table-model inference time."""
    wall_s: float
    """recognize() wall time, preprocessing and cell filling included."""
    ok: bool
    reason: str


def read_rgb(path: Path) -> np.ndarray:
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        raise SystemExit(f"cannot read {path}")
    return cv2.cvtColor(image, cv2.COLOR_BGR2RGB)


def upscale(image: np.ndarray, factor: float) -> np.ndarray:
    if factor == 1.0:
        return image
    height, width = image.shape[:2]
    return cv2.resize(image, (round(width * factor), round(height * factor)),
                      interpolation=cv2.INTER_CUBIC)


def scale_lines(lines: list[Line], factor: float) -> list[Line]:
    return [Line(l.text, l.box.scaled(factor), l.score, l.font_size, l.bold, l.vertical)
            for l in lines]


def truth_grid(truth_html: str) -> tuple[int, int]:
    """(rows, columns) of the first table of a truth file."""
    from tools.eval.tables import html_tables

    rows = html_tables(truth_html)[0].rows
    widths = {}
    for r, row in enumerate(rows):
        col = 0
        for cell in row:
            while widths.get((r, col)):
                col += 1
            for dr in range(cell.rowspan):
                for dc in range(cell.colspan):
                    widths[(r + dr, col + dc)] = True
            col += cell.colspan
    return len(rows), max(c for _, c in widths) + 1


def check_item(folder: Path, reader: PageReader, models: ModelSet, recognizer: TableRecognizer,
               ocr_scale: float, table_scale: float) -> tuple[ItemCheck, TableResult]:
    crop = read_rgb(folder / "input.png")
    truth = (folder / "truth.html").read_text(encoding="utf-8")
    lines = reader.read(upscale(crop, ocr_scale)).lines
    table_crop = upscale(crop, table_scale)
    lines = scale_lines(lines, table_scale / ocr_scale)
    before = models.clock_snapshot().get("table", 0.0)
    start = time.perf_counter()
    result = recognizer.recognize(table_crop, lines)
    wall = time.perf_counter() - start
    onnx = models.clock_snapshot().get("table", 0.0) - before
    rows, cols = truth_grid(truth)
    check = ItemCheck(folder.name, teds(result.html, truth), teds_structure(result.html, truth),
                      (result.n_rows, rows), (result.n_cols, cols), onnx, wall, result.ok,
                      result.reason)
    return check, result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.table_check", description=__doc__)
    parser.add_argument("--items", type=Path, default=DEFAULT_ITEMS,
                        help="folder of dev items; those named pubtabnet-* are checked")
    parser.add_argument("--ocr-scale", type=float, default=2.0,
                        help="upscale each crop by this before OCR (default 2)")
    parser.add_argument("--table-scale", type=float, default=1.0,
                        help="upscale each crop by this before the table model (default 1)")
    parser.add_argument("--no-direction", action="store_true",
                        help="OCR without the 0/180 line direction classifier")
    parser.add_argument("--show", action="store_true", help="print each predicted table")
    parser.add_argument("--json", type=Path, help="write the per-item figures here")
    args = parser.parse_args(argv)

    folders = sorted(p for p in args.items.glob("pubtabnet-*") if (p / "truth.html").is_file())
    if not folders:
        print(f"no pubtabnet-* items under {args.items}", file=sys.stderr)
        return 2
    settings = load_settings()
    models = ModelSet(Path(settings.model.base_dir), settings.model.index_url)
    recognizer = models.table_recognizer()
    reader = models.page_reader()
    if args.no_direction:
        reader = PageReader(reader.detector, None, reader.recognizer)
    checks = []
    for folder in folders:
        check, result = check_item(folder, reader, models, recognizer, args.ocr_scale,
                                   args.table_scale)
        checks.append(check)
        print(f"{check.name:32s} teds {check.teds:.3f} struct {check.teds_structure:.3f} "
              f"rows {check.rows[0]}/{check.rows[1]} cols {check.cols[0]}/{check.cols[1]} "
              f"onnx {check.onnx_s * 1000:.0f} ms wall {check.wall_s * 1000:.0f} ms"
              + ("" if check.ok else f"  FAILED: {check.reason}"))
        if args.show:
            print(result.html)
    mean_teds = statistics.mean(c.teds for c in checks)
    mean_struct = statistics.mean(c.teds_structure for c in checks)
    onnx, wall = sum(c.onnx_s for c in checks), sum(c.wall_s for c in checks)
    print(f"mean TEDS {mean_teds:.3f}  structure-only {mean_struct:.3f}  over {len(checks)} "
          f"tables; table model {onnx / len(checks) * 1000:.0f} ms/table, recognize() "
          f"{wall / len(checks) * 1000:.0f} ms/table (wall/onnx {wall / onnx:.2f})")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps([c.__dict__ for c in checks], indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
