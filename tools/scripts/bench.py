"""What reading every script costs, in one run: `python -m tools.scripts.bench [--repeat 5]`
(`make bench` runs it).

- English, Chinese and Japanese pages (the dev set's OCR pages, and the generated German,
  Traditional Chinese and Japanese ones) are read by the page reader with and without script
  reading (two readers of the same models: `ModelSet.page_reader(read_scripts=False)`),
  interleaved: what finding scripts adds to a page PP-OCR reads itself.
- Pages in other scripts (clean 200 dpi scans of tools/scripts) are converted by the warm
  engine with its default settings (no language named, no outputs written), and read by
  Tesseract told the page's language, the two ways a user runs it: the `tesseract` command
  (`tesseract page.png - -l rus`, its start and the language data's loading included) and a
  warm tesserocr instance's full-page run (image in, text out). Each repeat runs the three in
  turn, so a busy machine slows them alike.

On a machine that other work keeps busy the two medians of the first part differ by more
than finding scripts costs, so its own time is measured as well, inside the same runs, by
the engine's step clock (engine/runtime/steps.py): the script reader's own steps (the probe,
the doubts, any detection or reading again; the page's PP-OCR reading not counted) against
the page reader's time. For the pages in other scripts, each step's share of the engine's
time (text detector, layout model, PP-OCR recogniser, Tesseract's line reading and script
detection), from the page's timings, says where the time goes.
Medians of `--repeat` runs; the machine's load average is kept with them. Writes
docs/results/scripts_bench.json, from which the README's `scripts-bench` block is written
(python -m tools.readme_tables)."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import time
from pathlib import Path

import cv2

from engine.runtime.steps import CHAIN, STEP_PREFIX, advance, chain_end
from tools.scripts.pages import page_pdf, render
from tools.scripts.texts import SAMPLES

REPO = Path(__file__).resolve().parents[2]
DEV = REPO.parent / "shared" / "eval" / "dev" / "items"
DEV_PAGES = ("tesseract-phototest/input.png", "docling-ocr_test/input.pdf",
             "rapidocr-text_rec/input.jpg", "rapidocr-en_rec/input.jpg",
             "olmocr-lincoln_letter/input.pdf")
SAME_SCRIPT = ("german", "chinese_traditional", "japanese")
OTHER_SCRIPTS = ("russian", "arabic", "hindi", "thai", "hebrew")


def timed(call) -> float:
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


def tesseract_command(path: Path, language: str) -> float:
    """Seconds the `tesseract` command takes to print the page's text, as a user runs it."""
    binary = shutil.which("tesseract")
    if binary is None:
        raise FileNotFoundError("the tesseract command is not installed (apt-get install "
                                "tesseract-ocr)")
    start = time.perf_counter()
    subprocess.run([binary, str(path), "-", "-l", language], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def load_average() -> float | None:
    try:
        return round(os.getloadavg()[0], 2)
    except OSError:
        return None


STEP_SHARES = {"text_detector": "det", "layout_model": "layout", "pp_ocr_recogniser": "rec",
               "tesseract_lines": "tesseract_lines",
               "tesseract_script_detection": "tesseract_osd"}
"""The shares written for a page in another script, each the seconds of an engine step
(engine/runtime/steps.py) wherever it ran (the PP-OCR recogniser inside the script reader's
probe included): the steps are counted once each, so the shares add up to at most 1."""


def script_reading_seconds(steps: dict[str, float]) -> float:
    """The script reader's own steps (the probe, the doubts, any detection or reading again,
    with the recogniser and Tesseract run inside them; not the page's PP-OCR reading), from
    a page's step seconds by chain."""
    return sum(seconds for chain, seconds in steps.items()
               if chain.split(CHAIN)[0] == "script_reading")


def step_seconds(steps: dict[str, float], step: str) -> float:
    """Seconds of one step, in every chain it ran in."""
    return sum(seconds for chain, seconds in steps.items() if chain_end(chain) == step)


def same_script_rows(repeat: int) -> list[dict]:
    from engine.input.document import open_document
    from engine.model_set import ModelSet
    from engine.models.store import default_model_dir

    models = ModelSet(default_model_dir(), None)
    reader, plain_reader = models.page_reader(), models.page_reader(read_scripts=False)
    pages = {}
    for name in DEV_PAGES:
        if (DEV / name).is_file():
            with open_document(DEV / name) as document:
                pages[name.split("/")[0]] = document.render(1, 200, 4000).image
    samples = {s.key: s for s in SAMPLES}
    for key in SAME_SCRIPT:
        pages[key] = render(page_pdf(samples[key]))
    rows = []
    for name, image in pages.items():
        reader.read(image)  # warm
        plain, found, shares = [], [], []
        for _ in range(repeat):
            plain.append(timed(lambda: plain_reader.read(image)))
            before = models.step_snapshot()
            found.append(timed(lambda: reader.read(image)))
            steps = advance(before, models.step_snapshot())
            shares.append(script_reading_seconds(steps) / found[-1])
        base, withs = statistics.median(plain), statistics.median(found)
        rows.append({"page": name, "without_s": round(base, 4), "with_s": round(withs, 4),
                     "ratio": round(withs / base, 3),
                     "scripts_share": round(statistics.median(shares), 4)})
        print(rows[-1], flush=True)
    return rows


def other_script_rows(repeat: int, folder: Path) -> list[dict]:
    from engine.api import Engine
    from engine.options import ConvertOptions
    from settings import SettingsStore
    from tools.scripts.__main__ import tesseract_page

    engine = Engine(SettingsStore().load())
    samples = {s.key: s for s in SAMPLES}
    folder.mkdir(parents=True, exist_ok=True)
    rows = []
    for key in OTHER_SCRIPTS:
        sample = samples[key]
        path = folder / f"{key}.png"
        cv2.imwrite(str(path), cv2.cvtColor(render(page_pdf(sample)), cv2.COLOR_RGB2BGR))
        engine.convert(path, ConvertOptions())  # warm
        tesseract_command(path, sample.language)
        ours, command, api = [], [], []
        shares: dict[str, list[float]] = {share: [] for share in STEP_SHARES}
        for _ in range(repeat):
            start = time.perf_counter()
            result = engine.convert(path, ConvertOptions())
            ours.append(time.perf_counter() - start)
            steps = {name[len(STEP_PREFIX):]: seconds for page in result.pages
                     for name, seconds in page.timings_s.items() if name.startswith(STEP_PREFIX)}
            for share, step in STEP_SHARES.items():
                shares[share].append(step_seconds(steps, step) / ours[-1])
            command.append(tesseract_command(path, sample.language))
            api.append(tesseract_page(path, sample.language)[1])
        row = {"page": key, "language": sample.language,
               "paperlens_s": round(statistics.median(ours), 4),
               "tesseract_command_s": round(statistics.median(command), 4),
               "tesseract_warm_s": round(statistics.median(api), 4)}
        row["ratio_command"] = round(row["paperlens_s"] / row["tesseract_command_s"], 3)
        row["ratio_warm"] = round(row["paperlens_s"] / row["tesseract_warm_s"], 3)
        row["shares"] = {share: round(statistics.median(values), 4)
                         for share, values in shares.items()}
        rows.append(row)
        print(row, flush=True)
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.scripts.bench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--results", type=Path,
                        default=REPO / "docs" / "results" / "scripts_bench.json")
    args = parser.parse_args(argv)
    load_before = load_average()
    rows = same_script_rows(args.repeat)
    others = other_script_rows(args.repeat, REPO / "build" / "scripts-bench")
    results = {"repeat": args.repeat, "cpu_count": os.cpu_count(),
               "load_average_1m": {"start": load_before, "end": load_average()},
               "same_script_pages": rows, "other_script_pages": others,
               "median_ratio_same_script": round(statistics.median(r["ratio"] for r in rows), 3),
               "max_ratio_same_script": max(r["ratio"] for r in rows),
               "median_scripts_share": round(statistics.median(
                   r["scripts_share"] for r in rows), 4),
               "max_scripts_share": max(r["scripts_share"] for r in rows),
               "median_step_shares": {key: round(statistics.median(
                   r["shares"][key] for r in others), 4) for key in others[0]["shares"]},
               "median_ratio_command": round(statistics.median(
                   r["ratio_command"] for r in others), 3),
               "median_ratio_warm": round(statistics.median(r["ratio_warm"] for r in others), 3)}
    args.results.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    print(json.dumps({k: v for k, v in results.items() if k.startswith(("median", "max"))}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
