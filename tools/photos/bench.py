"""`python -m tools.photos --bench`: what the photo steps cost. A flat scan (the dev set's
docling-ocr_test page, which has no background around its page) and the generated photos
(lying flat on a desk, curled, everything at once) are converted with the steps on and off,
alternately, several times in one run; medians of the wall time and of the photo stage's own
time, and their ratio."""

from __future__ import annotations

from pathlib import Path

from tools.onoff_bench import time_on_off
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
    rows = {}
    for label, path in _inputs(folder, seed).items():
        timed = time_on_off(engine, path, ConvertOptions(), ConvertOptions(dewarp=False),
                            "photo", runs)
        rows[label] = {"runs": runs, "median_on_s": timed["median_on_s"],
                       "median_off_s": timed["median_off_s"], "ratio": timed["ratio"],
                       "median_photo_stage_s": timed["median_stage_s"]}
    return {"pages": rows}
