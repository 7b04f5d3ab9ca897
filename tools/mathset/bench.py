"""`python -m tools.mathset --bench`: what inline math costs. Born-digital academic pages (the
dev set's arXiv and mathematics-textbook pages where they are, and a generated math page of one
and of two columns) and the scans of the generated pages are converted with inline math on and
off, alternately, several times in one run; medians of the wall time, their ratio, and the
median time of the inline-math stage itself."""

from __future__ import annotations

import shutil
from pathlib import Path

from tools.onoff_bench import time_on_off
from tools.mathset.generate import generate
from tools.mathset.measure import SCAN_SUFFIX

REPO_ROOT = Path(__file__).resolve().parents[2]
DEV_ITEMS = REPO_ROOT.parent / "shared" / "eval" / "dev" / "items"
DEV_PAGES = {"arXiv 2503.04086 (dev)": DEV_ITEMS / "olmocr-math_2503_04086" / "input.pdf",
             "mathfuncs textbook (dev)": DEV_ITEMS / "olmocr-mathfuncs" / "input.pdf"}
LIMITS = {"born-digital": 1.15, "scanned": 1.25}
"""The most inline math may add to a page's time: 15% born-digital, 25% scanned."""


def _inputs(folder: Path, seed: int) -> dict[str, tuple[str, Path]]:
    inputs = {label: ("born-digital", path) for label, path in DEV_PAGES.items()
              if path.is_file()}
    if shutil.which("pdflatex") is None:  # the dev pages alone, said
        print("pdflatex not found (make formula-sysdeps): generated pages left out")
        return inputs
    generate(folder, seed, 1)
    for pdf in sorted(folder.glob("math-cm-*.pdf")):
        columns = pdf.stem.split("-")[2]
        inputs[f"generated cm {columns}"] = ("born-digital", pdf)
        inputs[f"generated cm {columns} scan"] = ("scanned", pdf.with_name(pdf.stem + SCAN_SUFFIX))
    return inputs


def bench(folder: Path, runs: int = 3, seed: int = 1) -> dict:
    from engine.api import Engine
    from engine.options import ConvertOptions
    from settings import SettingsStore

    engine = Engine(SettingsStore().load())
    rows = {}
    for label, (variant, path) in _inputs(folder, seed).items():
        timed = time_on_off(engine, path, ConvertOptions(inline_math=True),
                            ConvertOptions(inline_math=False), "inline_math", runs)
        rows[label] = {"variant": variant, "runs": runs, "median_on_s": timed["median_on_s"],
                       "median_off_s": timed["median_off_s"], "ratio": timed["ratio"],
                       "median_inline_stage_s": timed["median_stage_s"],
                       "limit": LIMITS[variant]}
    return {"pages": rows, "within_limits": all(r["ratio"] <= r["limit"] for r in rows.values())}
