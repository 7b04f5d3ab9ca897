"""`python -m tools.photos --bench`: what the photo steps cost. A flat scan (the dev set's
docling-ocr_test page, which has no background around its page) and the generated photos
(lying flat on a desk, curled, everything at once) are converted with the steps on and off,
alternately, several times in one run; medians of the wall time and of the photo stage's own
time, and their ratio."""

from __future__ import annotations

import statistics
import time
from pathlib import Path

from tools.photos import camera, pages

REPO_ROOT = Path(__file__).resolve().parents[2]
FLAT_SCAN = REPO_ROOT.parent / "shared" / "eval" / "dev" / "items" / "docling-ocr_test" / "input.pdf"
PHOTOS = (camera.Shot("flat", 1), camera.Shot("curl", 2), camera.Shot("all", 2))


def _inputs(folder: Path, seed: int) -> dict[str, Path]:
    folder.mkdir(parents=True, exist_ok=True)
    inputs = {"flat scan": FLAT_SCAN} if FLAT_SCAN.is_file() else {}
    pixels = pages.pixels(pages.draw("en_prose", seed)[0])
    for shot in PHOTOS:
        path = folder / f"bench-en_prose-{shot.name}.jpg"
        path.write_bytes(camera.photograph(pixels, shot, seed))
        inputs[f"photo {shot.name}"] = path
    return inputs


def bench(folder: Path, runs: int = 3, seed: int = 1) -> dict:
    from engine.api import Engine
    from engine.options import ConvertOptions
    from settings import SettingsStore

    engine = Engine(SettingsStore().load())
    settings = {"on": ConvertOptions(), "off": ConvertOptions(dewarp=False)}
    rows = {}
    for label, path in _inputs(folder, seed).items():
        walls: dict[str, list[float]] = {"on": [], "off": []}
        stage: list[float] = []
        for name, options in settings.items():  # warm-up: sessions made, caches filled
            engine.convert(path, options)
        for _ in range(runs):
            for name, options in settings.items():
                start = time.perf_counter()
                result = engine.convert(path, options)
                walls[name].append(time.perf_counter() - start)
                if name == "on":
                    stage.append(sum(p.timings_s.get("photo", 0.0) for p in result.pages))
        on, off = statistics.median(walls["on"]), statistics.median(walls["off"])
        rows[label] = {"runs": runs, "median_on_s": round(on, 3), "median_off_s": round(off, 3),
                       "ratio": round(on / off, 3),
                       "median_photo_stage_s": round(statistics.median(stage), 3)}
    return {"pages": rows}
