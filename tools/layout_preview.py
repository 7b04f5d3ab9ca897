"""Draw a page's layout regions, coloured by kind, into a PNG (to check a layout model by eye).

    python -m tools.layout_preview PAGE_INPUT OUT.png [--model cdla-picodet] [--page 1] [--dpi 200]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import cv2
import numpy as np

from engine.input.document import open_document
from engine.layout.detector import LayoutModelKind
from engine.types import Region
from engine.output.overlay import KIND_COLOURS
from engine.models.store import default_model_dir
from engine.model_set import ModelSet


def draw_regions(image_rgb: np.ndarray, regions: list[Region]) -> np.ndarray:
    """A copy of the page with each region's box and `label score` drawn in its kind's colour."""
    canvas = image_rgb.copy()
    thickness = max(2, round(max(canvas.shape[:2]) / 700))
    font_scale = max(0.5, max(canvas.shape[:2]) / 2500)
    for region in regions:
        colour = tuple(int(255 * c) for c in KIND_COLOURS[region.kind])
        x0, y0, x1, y1 = (int(round(v)) for v in (region.box.x0, region.box.y0,
                                                  region.box.x1, region.box.y1))
        cv2.rectangle(canvas, (x0, y0), (x1, y1), colour, thickness)
        caption = f"{region.kind.value} {region.score:.2f}"
        (w, h), base = cv2.getTextSize(caption, cv2.FONT_HERSHEY_SIMPLEX, font_scale, 1)
        top = max(0, y0 - h - base)
        cv2.rectangle(canvas, (x0, top), (x0 + w, top + h + base), colour, -1)
        cv2.putText(canvas, caption, (x0, top + h), cv2.FONT_HERSHEY_SIMPLEX, font_scale,
                    (255, 255, 255), 1, cv2.LINE_AA)
    return canvas


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("input", type=Path)
    parser.add_argument("output", type=Path)
    parser.add_argument("--model", default=LayoutModelKind.DOCLAYNET_YOLO.value,
                        choices=[k.value for k in LayoutModelKind])
    parser.add_argument("--page", type=int, default=1)
    parser.add_argument("--dpi", type=int, default=200)
    args = parser.parse_args(argv)

    with open_document(args.input) as document:
        image = document.render(args.page, args.dpi, 4000).image
    models = ModelSet(default_model_dir(), None)
    detector = models.layout_detector(args.model)
    start = time.perf_counter()
    regions = detector.detect(image)
    wall_s = time.perf_counter() - start
    onnx_s = models.clock_snapshot().get("layout", 0.0)
    for region in regions:
        print(f"{region.kind.value:15s} {region.label:15s} {region.score:.2f} "
              f"{region.box.as_list()}")
    print(f"{len(regions)} regions; layout {wall_s:.3f} s wall, {onnx_s:.3f} s ONNX")
    args.output.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(args.output), draw_regions(image, regions)[:, :, ::-1])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
