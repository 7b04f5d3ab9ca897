"""Every generated-set run counts display-math faults: the math set, the structure set, the photo
set, the multi-script set and the formula-image set each keep a page's faults beside its scores
and the run's total in their results, here with an engine that reads one formula twice."""

from __future__ import annotations

import json

import pymupdf
import pytest

from engine.content.formulas import Formula
from engine.types import Block, BlockKind, Box, DocumentResult, PageResult, TextSource
from tools.eval.math_faults import DUPLICATE, summary_line, summary_of

DOUBLED = (Block(BlockKind.FORMULA, Box(100, 100, 400, 130), formula=Formula("x^2 = 1 \\tag{3}")),
           Block(BlockKind.FORMULA, Box(100, 140, 400, 170), formula=Formula("x ^ { 2 } = 1")))


class DoublingEngine:
    """Stands in for the Engine: every input reads as one page with one formula twice."""

    def __init__(self, settings=None) -> None:
        self.inputs: list[str] = []

    def convert(self, path, options=None, on_event=None) -> DocumentResult:
        self.inputs.append(str(path))
        page = PageResult(1, 1000, 1400, 144.0, TextSource.OCR, "", DOUBLED)
        return DocumentResult(str(path), "pdf", 1, (page,), markdown="$$x^2=1$$")


@pytest.fixture
def doubling(monkeypatch):
    monkeypatch.setattr("engine.api.Engine", DoublingEngine)


def _faults(rows: list[dict]) -> list[list[str]]:
    return [[f["kind"] for f in row["math_faults"]] for row in rows if "math_faults" in row]


def _pdf(path) -> None:
    with pymupdf.open() as document:
        document.new_page().insert_text((72, 72), "A page.")
        document.save(path)


def test_the_math_set_keeps_its_faults(tmp_path):
    from tools.mathset.measure import measure

    _pdf(tmp_path / "math-cm-1col-1-00.pdf")
    (tmp_path / "math-cm-1col-1-00.md").write_text("A page.", encoding="utf-8")
    (tmp_path / "math-cm-1col-1-00.json").write_text('{"family": "cm", "columns": 1}')
    results = measure(tmp_path, DoublingEngine())
    assert _faults(results["pages"]) == [[DUPLICATE]]
    assert results["math_faults"]["faults"] == 1
    assert summary_line(results["math_faults"]) == (
        "math faults: 1 on 1 pages of 1 documents (duplicate_display 1)")


def test_the_structure_set_keeps_its_faults(tmp_path, doubling):
    from tools.structure.evaluate import evaluate

    (tmp_path / "manifest.json").write_text(json.dumps(
        {"count": 1, "seed": 1, "pages": [{"id": "paper-000", "family": "paper"}]}))
    (tmp_path / "paper-000.md").write_text("x", encoding="utf-8")
    results = evaluate(tmp_path, ("paperlens",))
    assert _faults(results["pages"]) == [[DUPLICATE], [DUPLICATE]]  # digital and scanned
    assert results["math_faults"]["faults"] == 2


def test_the_photo_set_keeps_its_faults(tmp_path, doubling):
    from tools.photos.measure import measure

    (tmp_path / "manifest.json").write_text(json.dumps({"seed": 1, "photos": [
        {"id": "p0", "page": "letter", "effect": "curl", "strength": 1, "truth": "p0.md",
         "image": "p0.jpg", "language": "eng"}]}))
    (tmp_path / "p0.md").write_text("x", encoding="utf-8")
    results = measure(tmp_path, tesseract_too=False)
    assert _faults(results["photos"]) == [[DUPLICATE], [DUPLICATE]]  # steps on and off
    assert results["math_faults"]["faults"] == 2


def test_the_script_set_keeps_its_faults(tmp_path, doubling, monkeypatch):
    import tools.scripts.__main__ as scripts
    from tools.scripts.texts import SAMPLES

    monkeypatch.setattr(scripts, "tesseract_page", lambda path, language: ("", 0.0))
    results = scripts.measure([SAMPLES[0]], tmp_path, seed=1)
    # one row per variant: born-digital, clean and degraded scans, two columns; a degraded
    # variant's row keeps the faults of each of its draws
    draws = [scripts.DEGRADED_DRAWS if scripts.VARIANT_SPECS[v][2] else 1
             for v in scripts.VARIANTS]
    assert _faults(results["pages"]) == [[DUPLICATE] * n for n in draws]
    assert results["math_faults"]["faults"] == sum(draws)


def test_the_formula_image_set_keeps_its_faults(tmp_path):
    from tools.formula_images.measure import measure_item

    record = {"id": "f0", "kind": "formula", "family": "katex/white", "detail": "fraction",
              "renderer": "katex", "look": {"margin": "tight"}, "file": "f0.png",
              "content": "x^2=1"}
    row = measure_item(DoublingEngine(), tmp_path, record)
    assert _faults([row]) == [[DUPLICATE]]
    assert summary_of([row["math_faults"], []])["faults"] == 1
