"""What finding scripts costs, in one run: `python -m tools.scripts.bench [--repeat 5]`.

English and Chinese pages (the dev set's OCR pages, and the generated German and Traditional
Chinese ones) are read by the page reader with and without script reading, interleaved; pages
in other scripts are read by the page reader (with it) and by Tesseract's own full-page run
told the language. Medians of `--repeat` runs; writes docs/results/scripts_bench.json."""

from __future__ import annotations

import argparse
import json
import statistics
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.scripts.bench", description=__doc__)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--results", type=Path,
                        default=REPO / "docs" / "results" / "scripts_bench.json")
    args = parser.parse_args(argv)
    from engine.input.document import open_document
    from engine.models.roles import ModelSet
    from engine.models.store import default_model_dir
    from tools.scripts.__main__ import tesseract_page

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
        plain, found = [], []
        for _ in range(args.repeat):
            reader.scripts = None
            plain.append(timed(lambda: reader.read(image)))
            reader.scripts = scripts
            found.append(timed(lambda: reader.read(image)))
        base, withs = statistics.median(plain), statistics.median(found)
        rows.append({"page": name, "without_s": round(base, 4), "with_s": round(withs, 4),
                     "ratio": round(withs / base, 3)})
        print(rows[-1], flush=True)
    others = []
    folder = REPO / "build" / "scripts-bench"
    folder.mkdir(parents=True, exist_ok=True)
    for key in OTHER_SCRIPTS:
        image = render(page_pdf(samples[key]))
        path = folder / f"{key}.png"
        cv2.imwrite(str(path), cv2.cvtColor(image, cv2.COLOR_RGB2BGR))
        reader.read(image)
        ours = statistics.median(timed(lambda: reader.read(image)) for _ in range(args.repeat))
        theirs = statistics.median(tesseract_page(path, samples[key].language)[1]
                                   for _ in range(args.repeat))
        others.append({"page": key, "paperlens_ocr_s": round(ours, 4),
                       "tesseract_page_s": round(theirs, 4), "ratio": round(ours / theirs, 3)})
        print(others[-1], flush=True)
    results = {"repeat": args.repeat, "same_script_pages": rows, "other_script_pages": others,
               "median_ratio_same_script": round(statistics.median(r["ratio"] for r in rows), 3)}
    args.results.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    print(json.dumps({k: v for k, v in results.items() if k.startswith("median")}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
