"""What reading every script costs, in one run: `python -m tools.scripts.bench [--repeat 5]`
(`make bench` runs it).

- English, Chinese and Japanese pages (the dev set's OCR pages, and the generated German,
  Traditional Chinese and Japanese ones) are read by the page reader with and without script
  reading, interleaved: what finding scripts adds to a page PP-OCR reads itself.
- Pages in other scripts (clean 200 dpi scans of tools/scripts) are converted by the warm
  engine with its default settings (no language named, no outputs written), and read by
  Tesseract told the page's language, the two ways a user runs it: the `tesseract` command
  (`tesseract page.png - -l rus`, its start and the language data's loading included) and a
  warm tesserocr instance's full-page run (image in, text out). Each repeat runs the three in
  turn, so a busy machine slows them alike.

On a machine that other work keeps busy the two medians of the first part differ by more
than finding scripts costs, so its own time is measured as well, inside the same runs: the
script reader's own steps (the probe, the doubts, any detection or reading again; the
page's PP-OCR reading not counted) against the page reader's time. For the pages in other
scripts, each step's share of the engine's time (text detector, layout model, PP-OCR
recogniser, Tesseract's line reading and script detection) says where the time goes.
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


class Stopwatch:
    """Seconds spent in chosen methods, while installed: each (owner, name) wraps the method
    of that object or class, and calls nested in a timed call are not counted twice."""

    def __init__(self, targets: dict[str, list[tuple[object, str]]]) -> None:
        self.targets = targets
        self.seconds = {key: 0.0 for key in targets}
        self._saved: list[tuple[object, str, object, bool]] = []
        self._depth = 0

    def _wrap(self, key: str, method):
        def timed_call(*args, **kwargs):
            self._depth += 1
            start = time.perf_counter()
            try:
                return method(*args, **kwargs)
            finally:
                self._depth -= 1
                if self._depth == 0:
                    self.seconds[key] += time.perf_counter() - start
        return timed_call

    def __enter__(self) -> "Stopwatch":
        for key, methods in self.targets.items():
            for owner, name in methods:
                own = name in vars(owner)
                method = getattr(owner, name)
                self._saved.append((owner, name, vars(owner).get(name), own))
                if isinstance(owner, type):
                    original = vars(owner)[name]
                    setattr(owner, name, lambda self_, *a, _m=self._wrap(key, original), **k:
                            _m(self_, *a, **k))
                else:
                    setattr(owner, name, self._wrap(key, method))
        return self

    def __exit__(self, *exc) -> None:
        for owner, name, original, own in reversed(self._saved):
            if own:
                setattr(owner, name, original)
            else:
                delattr(owner, name)
        self._saved.clear()


def script_steps(scripts) -> Stopwatch:
    """The script reader's own steps on a page PP-OCR reads: everything read_page does but the
    page's PP-OCR reading (read_again's input), timed apart."""
    return Stopwatch({"scripts": [(scripts, "probe"), (scripts, "read_in_script"),
                                  (scripts, "read_again")]})


def same_script_rows(repeat: int) -> list[dict]:
    from engine.input.document import open_document
    from engine.model_set import ModelSet
    from engine.models.store import default_model_dir

    reader = ModelSet(default_model_dir(), None).page_reader()
    scripts = reader.scripts
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
        reader.scripts = scripts
        reader.read(image)  # warm
        plain, found, shares = [], [], []
        for _ in range(repeat):
            reader.scripts = None
            plain.append(timed(lambda: reader.read(image)))
            reader.scripts = scripts
            with script_steps(scripts) as watch:
                found.append(timed(lambda: reader.read(image)))
            shares.append(watch.seconds["scripts"] / found[-1])
        base, withs = statistics.median(plain), statistics.median(found)
        rows.append({"page": name, "without_s": round(base, 4), "with_s": round(withs, 4),
                     "ratio": round(withs / base, 3),
                     "scripts_share": round(statistics.median(shares), 4)})
        print(rows[-1], flush=True)
    reader.scripts = scripts
    return rows


def other_script_rows(repeat: int, folder: Path) -> list[dict]:
    from engine.api import Engine
    from engine.options import ConvertOptions
    from settings import SettingsStore
    from tools.scripts.__main__ import tesseract_page

    from engine.layout.detector import LayoutDetector
    from engine.ocr.detection import TextDetector
    from engine.ocr.recognition import TextRecognizer
    from engine.ocr.tesseract import TesseractLines

    engine = Engine(SettingsStore().load())
    samples = {s.key: s for s in SAMPLES}
    folder.mkdir(parents=True, exist_ok=True)
    steps = {"text_detector": [(TextDetector, "detect_with_map")],
             "layout_model": [(LayoutDetector, "detect")],
             "pp_ocr_recogniser": [(TextRecognizer, "recognize")],
             "tesseract_lines": [(TesseractLines, "read")],
             "tesseract_script_detection": [(TesseractLines, "detect_script")]}
    rows = []
    for key in OTHER_SCRIPTS:
        sample = samples[key]
        path = folder / f"{key}.png"
        cv2.imwrite(str(path), cv2.cvtColor(render(page_pdf(sample)), cv2.COLOR_RGB2BGR))
        engine.convert(path, ConvertOptions())  # warm
        tesseract_command(path, sample.language)
        ours, command, api = [], [], []
        shares: dict[str, list[float]] = {key: [] for key in steps}
        for _ in range(repeat):
            with Stopwatch(steps) as watch:
                ours.append(timed(lambda: engine.convert(path, ConvertOptions())))
            for step, seconds in watch.seconds.items():
                shares[step].append(seconds / ours[-1])
            command.append(tesseract_command(path, sample.language))
            api.append(tesseract_page(path, sample.language)[1])
        row = {"page": key, "language": sample.language,
               "paperlens_s": round(statistics.median(ours), 4),
               "tesseract_command_s": round(statistics.median(command), 4),
               "tesseract_warm_s": round(statistics.median(api), 4)}
        row["ratio_command"] = round(row["paperlens_s"] / row["tesseract_command_s"], 3)
        row["ratio_warm"] = round(row["paperlens_s"] / row["tesseract_warm_s"], 3)
        row["shares"] = {step: round(statistics.median(values), 4)
                         for step, values in shares.items()}
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
