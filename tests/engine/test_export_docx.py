"""The Word export: display formulas as native equations (m:oMath), tables as Word tables with
the right rows, columns and merged cells, figures with their captions; LibreOffice opens it."""

from __future__ import annotations

import io
import shutil
import subprocess
from pathlib import Path

import cv2
import docx
import numpy as np
import pymupdf
import pytest

from engine.content.crops import Crop
from engine.content.formulas import Formula
from engine.export.docx import build_docx, docx_markdown
from engine.formats import OutputFormat
from engine.content.tables import filled_rows
from engine.options import ConvertOptions
from engine.output.markdown import render_markdown
from engine.types import Block, BlockKind, Box, DocumentResult, PageResult, TextSource
from table_samples import table_of

EVAL_DEV_DIR = Path(__file__).resolve().parents[3] / "shared" / "eval" / "dev"
MATH_NS = "{http://schemas.openxmlformats.org/officeDocument/2006/math}"
WORD_NS = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
MERGED = ('<table><thead><tr><td rowspan="2">Crop</td><td colspan="2">Yield</td></tr>'
          '<tr><td>2023</td><td>2024</td></tr></thead><tbody><tr><td>Wheat</td><td>7.1</td>'
          '<td>6.8</td></tr></tbody></table>')


def result_of(*blocks: Block, path: str = "/data/report.pdf") -> DocumentResult:
    page = PageResult(1, 1000, 1400, 200, TextSource.OCR, "test", blocks=blocks)
    return DocumentResult(path, "pdf", 1, (page,), markdown=render_markdown([page]))


def block(kind: BlockKind, text: str = "", **fields) -> Block:
    return Block(kind, Box(100, 100, 500, 200), text=text, **fields)


def equations(document) -> list:
    return document.element.body.findall(f".//{MATH_NS}oMath")


def test_figure_and_table_captions_join_their_objects():
    result = result_of(block(BlockKind.FIGURE, crop=Crop("images/r-p1-figure1.png")),
                       block(BlockKind.CAPTION, "Figure 1. Fields [north]"),
                       block(BlockKind.CAPTION, "Table 1. Yields"),
                       block(BlockKind.TABLE, table=table_of(MERGED)),
                       block(BlockKind.FORMULA, formula=Formula("E = mc^2", 0.4),
                             crop=Crop("images/r-p1-formula1.png")))
    markdown, notes = docx_markdown(result)
    assert notes == []
    assert "![Figure 1. Fields \\[north\\]](images/r-p1-figure1.png)" in markdown
    assert "<table><caption>Table 1. Yields</caption><thead>" in markdown
    assert "![](images/r-p1-formula1.png)" in markdown  # no caption "formula" invented
    assert markdown.count("Figure 1.") == 1 and markdown.count("Table 1.") == 1


def test_word_document_has_equations_merged_tables_and_captioned_figures(tmp_path):
    image = np.full((60, 120, 3), 255, np.uint8)
    cv2.rectangle(image, (10, 10), (110, 50), (0, 0, 0), 2)
    (tmp_path / "images").mkdir()
    cv2.imwrite(str(tmp_path / "images" / "r-p1-figure1.png"), image)
    result = result_of(block(BlockKind.TITLE, "Field report", level=1),
                       block(BlockKind.TEXT, "Yields rose in every field."),
                       block(BlockKind.FORMULA, formula=Formula(r"\frac{a}{b} = \sum_{i=1}^{n} x_i")),
                       block(BlockKind.TABLE, table=table_of(MERGED)),
                       block(BlockKind.FIGURE, crop=Crop("images/r-p1-figure1.png")),
                       block(BlockKind.CAPTION, "Figure 1. The plots."))
    data, notes = build_docx(result, tmp_path)
    assert notes == ()
    document = docx.Document(io.BytesIO(data))
    assert len(equations(document)) == 1
    assert [p.text for p in document.paragraphs if p.style.name.startswith("Heading")] == \
        ["Field report"]
    (table,) = document.tables
    grid = table_of(MERGED)
    assert (len(table.rows), len(table.columns)) == (grid.rows, grid.cols) == (3, 3)
    xml = table._tbl.xml
    assert 'w:gridSpan w:val="2"' in xml and 'w:vMerge w:val="restart"' in xml
    assert len(document.inline_shapes) == 1
    assert any(p.text == "Figure 1. The plots." for p in document.paragraphs)
    # Same document, same bytes.
    assert build_docx(result, tmp_path)[0] == data


@pytest.fixture(scope="module")
def academic(engine, tmp_path_factory):
    if not EVAL_DEV_DIR.is_dir():
        pytest.skip(f"evaluation documents not found at {EVAL_DEV_DIR}")
    folder = tmp_path_factory.mktemp("docx")
    converted = {}
    for name, relative in (("math", "olmocr-mathfuncs/input.pdf"),
                           ("table", "docling-2305.03393v1-pg9/input.pdf")):
        options = ConvertOptions(output_dir=str(folder), output_name=name,
                                 exports=(OutputFormat.DOCX,))
        converted[name] = (engine.convert(EVAL_DEV_DIR / "items" / relative, options),
                           folder / f"{name}.docx")
    return converted


@pytest.mark.model
def test_every_display_formula_of_an_academic_page_is_a_word_equation(academic):
    result, path = academic["math"]
    formulas = [b for p in result.pages for b in p.blocks
                if b.kind is BlockKind.FORMULA and b.formula]
    assert len(formulas) >= 5
    assert not [w for w in result.warnings if ".docx" in w]
    document = docx.Document(str(path))
    assert len(equations(document)) == result.markdown.count("$$\n") // 2 == len(formulas)
    body = document.element.body
    assert "\\frac" not in "".join(t.text or "" for t in body.iter(f"{WORD_NS}t"))


@pytest.mark.model
def test_every_table_is_a_word_table_of_its_size(academic):
    result, path = academic["table"]
    tables = [b for p in result.pages for b in p.blocks if b.kind is BlockKind.TABLE and b.table]
    assert tables
    document = docx.Document(str(path))
    assert len(document.tables) == len(tables)
    for table, word in zip(tables, document.tables):
        grid = filled_rows(table.table)
        assert (len(word.rows), len(word.columns)) == (grid.rows, grid.cols)
        merged_across = sum(c.colspan > 1 for c in grid.cells)
        assert word._tbl.xml.count("<w:gridSpan") >= merged_across


@pytest.mark.model
@pytest.mark.slow
def test_libreoffice_converts_the_word_document(academic, tmp_path):
    soffice = shutil.which("soffice") or shutil.which("libreoffice")
    if soffice is None:
        pytest.skip("LibreOffice is not installed (tools/system_deps.sh installs "
                    "libreoffice-writer-nogui and libreoffice-math-nogui)")
    result, path = academic["math"]
    done = subprocess.run([soffice, f"-env:UserInstallation=file://{tmp_path}/profile",
                           "--headless", "--convert-to", "pdf", "--outdir", str(tmp_path),
                           str(path)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    with pymupdf.open(tmp_path / "math.pdf") as pdf:
        assert pdf.page_count >= 1
        text = " ".join(page.get_text() for page in pdf)
    first_heading = next(line.lstrip("# ") for line in result.markdown.splitlines()
                         if line.startswith("#"))
    assert " ".join(first_heading.split()) in " ".join(text.split())
