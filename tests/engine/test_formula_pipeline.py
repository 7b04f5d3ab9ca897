"""The formula stages with a fake recogniser: LaTeX, doubtful readings kept beside their image, no
model, and the rule that turns an image input holding one formula into a formula; plus the pure
helpers those stages use."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pymupdf
import pytest

from engine.content.formulas import Formula
from engine.output.content_list import content_list
from engine.input.document import open_document
from engine.formulas.reading import UNAVAILABLE_WARNING, FormulaReading, looks_like_math
from engine.formulas.model import padded_width, width_batches
from engine.imaging import ink_bounds
from engine.output.markdown import render_markdown
from engine.options import ConvertOptions
from dataclasses import replace

from engine.formulas.stage import recognize_formula_image, recognize_formulas
from engine.input.stage import render
from engine.runtime.sessions import GPU_FORMULA_BATCH, FormulaSessions
from engine.page import PageState
from engine.structure.stage import assemble_blocks, crop_figures
from engine.types import BlockKind, Box, Line, PageError, Region, Status
from formula_fakes import FakeModels, FakeRecognizer

INK = (40, 30, 260, 70)  # x0, y0, x1, y1 of the dark bar drawn on every test image


def image_file(tmp_path: Path) -> Path:
    image = np.full((120, 400, 3), 255, np.uint8)
    cv2.rectangle(image, INK[:2], (INK[2] - 1, INK[3] - 1), (0, 0, 0), -1)
    path = tmp_path / "formula.png"
    cv2.imwrite(str(path), image)
    return path


def pdf_file(tmp_path: Path) -> Path:
    doc = pymupdf.open()
    doc.new_page(width=300, height=200).draw_rect(pymupdf.Rect(40, 30, 260, 70), fill=(0, 0, 0))
    path = tmp_path / "page.pdf"
    doc.save(str(path))
    doc.close()
    return path


def run_stages(path: Path, regions: list[Region], recognizer, **options):
    """Render the page, put `regions` on it, run the formula and assembly stages."""
    models = FakeModels(recognizer)
    with open_document(path) as document:
        work = PageState(document=document, page_number=1, options=ConvertOptions(**options),
                         image_prefix="doc-p1")
        work = replace(render(work, models), regions=tuple(regions))
        for stage in (recognize_formula_image, recognize_formulas, crop_figures, assemble_blocks):
            work = stage(work, models)
    page = work.result()
    return work, page, render_markdown([page]), content_list([page])


def formula_region() -> Region:
    return Region(BlockKind.FORMULA, Box(30.0, 20.0, 270.0, 80.0), 0.9)


def test_a_confident_reading_becomes_display_latex_only(tmp_path):
    reading = FormulaReading("x ^ { 2 } + 1", 0.93, 7)
    work, page, markdown, items = run_stages(image_file(tmp_path), [formula_region()],
                                             FakeRecognizer(reading))
    assert markdown == "$$\nx^2+1\n$$\n"
    assert work.crops == () and page.status is Status.OK
    [block] = page.blocks
    assert (block.formula, block.crop) == (Formula("x^2+1", 0.93), None)
    assert items[0]["type"] == "equation" and items[0]["confidence"] == 0.93


def test_a_low_confidence_reading_keeps_the_formula_image_beside_the_latex(tmp_path):
    reading = FormulaReading("x ^ { 2 } + 1", 0.42, 7)
    work, page, markdown, items = run_stages(image_file(tmp_path), [formula_region()],
                                             FakeRecognizer(reading))
    image = "images/doc-p1-formula1.png"
    assert markdown.startswith("$$\nx^2+1\n$$\n\n![formula](images/doc-p1-formula1.png)\n")
    assert "confidence 0.42" in markdown
    assert [path for path, _ in work.crops] == [image]
    assert {k: items[0][k] for k in ("type", "text", "text_format", "img_path", "confidence")} == {
        "type": "equation", "text": "x^2+1", "text_format": "latex", "img_path": image,
        "confidence": 0.42}
    assert page.blocks[0].formula.confidence == 0.42  # and so in <name>.json


def test_a_truncated_reading_counts_as_low_confidence():
    assert FormulaReading("x x x", 0.97, 200, truncated=True).low_confidence
    assert not FormulaReading("x", 0.97, 1).low_confidence


def test_no_reading_keeps_the_image_fallback_without_a_warning(tmp_path):
    work, page, markdown, items = run_stages(image_file(tmp_path), [formula_region()],
                                             FakeRecognizer(None))
    assert markdown == "![formula](images/doc-p1-formula1.png)\n"
    assert items[0]["text_format"] == "ocr" and "confidence" not in items[0]
    assert page.status is Status.OK and page.errors == ()


def test_without_a_formula_model_the_image_is_kept_and_the_page_says_why(tmp_path):
    work, page, markdown, _ = run_stages(image_file(tmp_path), [formula_region()], None)
    assert markdown == "![formula](images/doc-p1-formula1.png)\n"
    assert page.status is Status.PARTIAL
    assert page.errors == (PageError("formula", "ModelUnavailable", UNAVAILABLE_WARNING),)


# ----------------------------------------------------------------- a formula image as input

MATH = FormulaReading("a + ( x + y ) - x", 0.9, 9)


@pytest.mark.parametrize("layout", [[], [Region(BlockKind.SECTION_HEADER, Box(35, 25, 265, 75), 0.4)],
                                    [Region(BlockKind.FIGURE, Box(0, 0, 400, 120), 0.5)]])
def test_an_image_of_one_formula_is_read_as_one_whatever_the_layout_called_it(tmp_path, layout):
    recognizer = FakeRecognizer(MATH)
    work, page, markdown, _ = run_stages(image_file(tmp_path), layout, recognizer)
    assert markdown == "$$\na+(x+y)-x\n$$\n"
    [block] = page.blocks
    assert block.kind is BlockKind.FORMULA and block.box == Box(*map(float, INK))
    assert len(recognizer.crops) == 1  # the formula stage does not read it again


@pytest.mark.parametrize("reading", [
    FormulaReading("\\text { C h a p t e r 3 }", 0.85, 9),  # text, read confidently
    FormulaReading("2 0 2 3", 0.93, 4),
    FormulaReading("a + ( x + y ) - x", 0.5, 9),  # math, but too doubtful
    FormulaReading("\\text { a b } \\frac { 1 } { 2 } c d e f g", 0.7, 16),  # doubtful, spelled
    None,
])
def test_an_image_that_is_not_clearly_one_formula_is_left_alone(tmp_path, reading):
    work, page, markdown, _ = run_stages(image_file(tmp_path), [], FakeRecognizer(reading))
    assert work.regions == () and "$$" not in markdown


@pytest.mark.parametrize("layout", [
    [Region(BlockKind.TABLE, Box(35, 25, 265, 75), 0.9)],
    [Region(BlockKind.TEXT, Box(35 + 60 * i, 25, 85 + 60 * i, 75), 0.9) for i in range(4)],
])
def test_tables_and_pages_of_several_blocks_are_not_tried_as_a_formula(tmp_path, layout):
    recognizer = FakeRecognizer(MATH)
    work, _, _, _ = run_stages(image_file(tmp_path), layout, recognizer)
    assert work.regions == tuple(layout) and recognizer.crops == []


def test_an_image_of_prose_is_not_read_as_a_formula(tmp_path):
    """A scanned page of text is often one layout region: its OCR lines show it is prose, so
    the formula model is never run over it."""
    recognizer = FakeRecognizer(MATH)
    models = FakeModels(recognizer)
    prose = "The quick brown foxes jumped over several lazy sleeping dogs again"
    with open_document(image_file(tmp_path)) as document:
        work = PageState(document=document, page_number=1, options=ConvertOptions(),
                         image_prefix="doc-p1")
        work = replace(render(work, models),
                       regions=(Region(BlockKind.TEXT, Box(35, 25, 265, 75), 0.9),))
        lines = (Line(prose, Box(35, 25, 265, 45)), Line(prose, Box(35, 50, 265, 70)))
        read = recognize_formula_image(replace(work, lines=lines), models)
        assert recognizer.crops == [] and read.regions[0].kind is BlockKind.TEXT
        chinese = (Line("读取文档", Box(35, 25, 265, 45)),)  # one short Chinese line
        recognize_formula_image(replace(work, lines=chinese), models)
        assert recognizer.crops == []
        # The same region with a short formula-like OCR line is tried.
        formula = (Line("E = mc2", Box(35, 25, 265, 45)),)
        recognize_formula_image(replace(work, lines=formula), models)
    assert len(recognizer.crops) == 1


def test_a_pdf_page_is_never_taken_for_a_formula_image(tmp_path):
    recognizer = FakeRecognizer(MATH)
    work, _, _, _ = run_stages(pdf_file(tmp_path), [], recognizer)
    assert work.regions == () and recognizer.crops == []


def test_the_formula_image_option_takes_any_image_input_as_one_formula(tmp_path):
    doubtful = FormulaReading("\\text { C h a p t e r 3 }", 0.5, 9)
    table = [Region(BlockKind.TABLE, Box(35, 25, 265, 75), 0.9)]
    work, page, markdown, _ = run_stages(image_file(tmp_path), table, FakeRecognizer(doubtful),
                                         formula_image=True)
    assert [r.kind for r in work.regions] == [BlockKind.FORMULA]
    assert markdown.startswith("$$\n\\text{Chapter3}\n$$\n\n![formula](images/doc-p1-formula1.png)")


@pytest.mark.parametrize("latex, math", [
    ("x = 5", True), ("x ^ { 2 }", True), ("\\alpha", True), ("a + ( x + y ) - x", True),
    ("\\mathbf { E } = m c ^ { 2 }", True),
    ("\\text { C h a p t e r 3 }", False), ("2 0 2 3", False),
    ("\\text { S e c t i o n } 4 . 2 \\text { M e t h o d s }", False),
    ("\\operatorname { I n v o i c e 2 0 2 4 - 1 1 7 }", False), ("f \\quad g", False),
    ("\\text { a = b }", False),
])
def test_looks_like_math(latex, math):
    assert looks_like_math(latex) is math


# ----------------------------------------------------------------- pure helpers


def test_ink_bounds():
    image = np.full((16, 32), 250, np.uint8)
    assert ink_bounds(image) is None
    image[3:7, 5:20] = 10
    assert ink_bounds(image) == (5, 3, 20, 7)
    rgb = np.repeat(image[..., None], 3, axis=2)
    assert ink_bounds(rgb) == (5, 3, 20, 7)


def test_width_batches_keep_to_one_padded_width():
    widths = [100, 300, 101, 90, 305, 1000, 103]
    batches = width_batches(widths, batch_size=2)
    assert sorted(i for batch in batches for i in batch) == list(range(len(widths)))
    for batch in batches:
        assert 1 <= len(batch) <= 2 and len({padded_width(widths[i]) for i in batch}) == 1
    assert [3, 0] in batches and [1, 4] in batches


class FakeSession:
    def __init__(self, device: str) -> None:
        self.info = type("Info", (), {"device": device})()
        self.input_names = ["image"]
        self.batches: list[int] = []

    def run(self, batch):
        self.batches.append(len(batch))
        return [batch * 2, batch[:, :1]]


class FakeFactory:
    def __init__(self) -> None:
        self.gpu, self.cpu = FakeSession("gpu"), FakeSession("cpu")

    def session(self, role, path, *, cpu_only=False):
        return self.cpu if cpu_only else self.gpu


def test_formula_sessions_run_a_batch_as_planned_and_join_the_outputs():
    factory = FakeFactory()
    sessions = FormulaSessions(factory, Path("encoder.onnx"))
    batch = np.arange(GPU_FORMULA_BATCH + 3, dtype=np.float32).reshape(-1, 1)
    doubled, first = sessions.run(batch)
    assert np.array_equal(doubled, batch * 2) and np.array_equal(first, batch)
    assert (factory.gpu.batches, factory.cpu.batches) == ([GPU_FORMULA_BATCH], [3])
    assert sessions.input_names == ["image"]


def test_a_guarded_reading_says_so_in_the_json_and_keeps_its_image(tmp_path):
    runaway = FormulaReading("x ^ { 2 }", 0.97, 40, guard="repetition")
    work, page, markdown, items = run_stages(image_file(tmp_path), [formula_region()],
                                             FakeRecognizer(runaway))
    [block] = page.blocks
    assert block.formula.guard == "repetition" and block.crop
    assert items[0]["guard"] == "repetition"
    from engine.types import DocumentResult
    data = DocumentResult(path="x", kind="png", page_count=1, pages=(page,)).to_json()
    assert data["pages"][0]["blocks"][0]["latex_guard"] == "repetition"
