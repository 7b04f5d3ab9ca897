"""No silent loss across the generated sets: a page of each set that the engine reads as `ok`
holds at least 90% of its text (tools/eval/scoring.text_kept, characters in any order), and one
that holds less says so (partial, with the reason among its warnings).

One hard page per set: a degraded Thai page at 150 dpi, a scanned two-column paper, a scanned
two-column math page, a chat screenshot. The photo set's own test (test_photo_set.py) holds the
same on curled English and Chinese photos read as given, and on the dev set's scans."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from engine.options import ConvertOptions
from engine.types import Status
from tools.eval.scoring import text_kept

pytestmark = [pytest.mark.model, pytest.mark.slow]

# A page read as `ok` keeps at least this share of its text (the photos and screenshots issue's
# bar; the scripts issue's, half, is below it).
KEPT_WHEN_OK = 0.9


def _script(folder: Path) -> tuple[Path, str, ConvertOptions]:
    from tools.scripts.pages import degrade, page_pdf, render, truth
    from tools.scripts.texts import SAMPLES

    sample = next(s for s in SAMPLES if s.key == "thai")
    path = folder / "thai.jpg"
    path.write_bytes(degrade(render(page_pdf(sample), 150), 1))
    return path, truth(sample), ConvertOptions()


def _structure(folder: Path) -> tuple[Path, str, ConvertOptions]:
    from tools.structure.layouts import draw_page
    from tools.structure.scans import scan
    from tools.structure.text_source import load_prose

    pdf, truth = draw_page("paper", load_prose(), 4)
    path = folder / "paper.jpg"
    path.write_bytes(scan(pdf, random.Random(4)))
    return path, truth, ConvertOptions()


def _math(folder: Path) -> tuple[Path, str, ConvertOptions]:
    from tools.mathset.generate import generate
    from tools.mathset.measure import SCAN_SUFFIX

    pdf = generate(folder, seed=4, count=1)[-1]  # Palatino, two columns
    truth = pdf.with_suffix(".md").read_text(encoding="utf-8")
    return pdf.with_name(pdf.stem + SCAN_SUFFIX), truth, ConvertOptions()


def _screenshot(folder: Path) -> tuple[Path, str, ConvertOptions]:
    from tools.uishots.generate import generate

    shot = generate(folder, 1, 4, ("chat",))[0]
    truth = (folder / f"{shot['truth']}.md").read_text(encoding="utf-8")
    return folder / f"{shot['id']}.png", truth, ConvertOptions()


SETS = {"scripts": _script, "structure": _structure, "mathset": _math,
        "uishots": _screenshot}


@pytest.mark.parametrize("name", list(SETS))
def test_a_page_read_as_ok_holds_its_text(engine, tmp_path, name):
    if name == "mathset" and shutil.which("pdflatex") is None:
        pytest.skip("pdflatex is not installed (TeX Live: make formula-sysdeps)")
    if name == "uishots" and shutil.which("chromium") is None:
        pytest.skip("Chromium is not installed (it draws the screenshot set: tools/uishots)")
    path, truth, options = SETS[name](tmp_path)
    result = engine.convert(path, options)
    page = result.pages[0]
    kept = text_kept(result.markdown, truth)
    if page.status is Status.OK:
        assert kept >= KEPT_WHEN_OK, (name, kept, page.warnings)
    else:
        assert page.status is Status.PARTIAL and page.warnings, (name, page.status)


def test_the_kept_share_counts_characters_in_any_order():
    assert text_kept("world hello", "hello world") == 1.0
    assert text_kept("# hello", "hello world") == 0.5
    assert text_kept("anything", "") == 1.0
    assert text_kept("", "abcd") == 0.0
