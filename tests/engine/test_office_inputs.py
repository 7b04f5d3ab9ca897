"""Office documents as inputs: told apart by their content whatever their names, read from
their markup into the same result as a PDF (headings with their levels, lists, tables with
merged cells, equations as LaTeX, footnotes, slide titles and notes, a table per sheet), every
output made from them, and a pasted scan read by OCR through the page recipe."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from engine.formats import OutputFormat
from engine.input.document import open_document
from engine.input.kinds import InputKind, identify
from engine.options import ConvertOptions
from engine.types import BlockKind, TextSource

from office_samples import (HEADING, SCAN_LINES, scan_png, write_docx, write_front_matter_docx,
                            write_footer_pptx, write_math_docx, write_odp, write_ods,
                            write_outline_docx, write_pptx, write_xlsx)

TABLE = ('<table><thead><tr><td colspan="2">Region and year</td><td>r0c2</td></tr></thead>'
         '<tbody><tr><td>r1c0</td><td>r1c1</td><td rowspan="2">Both</td></tr><tr><td>r2c0</td>'
         '<td>r2c1</td></tr></tbody></table>')


@pytest.fixture(scope="module")
def samples(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("office")
    write_docx(folder / "report.docx")
    write_math_docx(folder / "math.docx")
    write_xlsx(folder / "book.xlsx")
    write_pptx(folder / "deck.pptx")
    write_ods(folder / "sheet.ods")
    write_odp(folder / "slides.odp")
    return folder


def test_office_documents_are_told_apart_by_content_not_name(samples, tmp_path):
    for source, kind in (("report.docx", InputKind.DOCX), ("book.xlsx", InputKind.XLSX),
                         ("deck.pptx", InputKind.PPTX), ("sheet.ods", InputKind.ODS),
                         ("slides.odp", InputKind.ODP)):
        renamed = tmp_path / f"{kind.value}-named.pdf"
        shutil.copy(samples / source, renamed)
        assert identify(renamed) is kind
        assert kind.is_office and not kind.is_paged


def test_a_text_document_keeps_headings_lists_and_merged_cells(samples):
    with open_document(samples / "report.docx") as document:  # read in the bounded child
        parts = document.office.pages[0].parts
    assert [(p.kind, p.text, p.level) for p in parts[:3]] == [
        ("section_header", HEADING, 1), ("text", "Revenue grew in every region this year.", 0),
        ("section_header", "Regions", 2)]
    assert [p.text for p in parts if p.kind == "list_item"] == [
        "North held its lead", "South caught up", "1. Count the stores"]
    assert [p.html for p in parts if p.kind == "table"] == [TABLE]


def test_outline_levels_make_headings(tmp_path):
    with open_document(write_outline_docx(tmp_path / "outline.docx")) as document:
        parts = document.office.pages[0].parts
    assert [(p.kind, p.text, p.level) for p in parts] == [
        ("section_header", "Chapter by its style", 1),
        ("section_header", "Section by its paragraph", 2), ("text", "Body text.", 0)]


def test_the_title_page_styles_stay_in_the_text(tmp_path):
    with open_document(write_front_matter_docx(tmp_path / "front.docx")) as document:
        parts = document.office.pages[0].parts
    assert [(p.kind, p.text) for p in parts] == [
        ("title", "On Reading"), ("text", "A Short Study"), ("text", "Ada Lovelace"),
        ("text", "1 March 2026"), ("text", "We read documents."), ("text", "Body text.")]


def test_conversion_writes_markdown_json_and_every_export(engine, samples, tmp_path):
    out = tmp_path / "out"
    result = engine.convert(samples / "report.docx", ConvertOptions(
        output_dir=str(out), exports=(OutputFormat.DOCX, OutputFormat.XLSX, OutputFormat.PDF)))
    assert result.kind == "docx" and result.pages[0].text_source is TextSource.NATIVE
    assert result.markdown.startswith(f"# {HEADING}\n\n")
    assert "## Regions" in result.markdown and "- North held its lead" in result.markdown
    assert TABLE in result.markdown
    data = json.loads((out / "report.json").read_text())
    assert data["kind"] == "docx" and data["pages"][0]["text_source"] == "native"
    assert not result.warnings
    for name in ("report.md", "report.docx", "report.xlsx", "report.searchable.pdf"):
        assert (out / name).stat().st_size > 0, name
    import openpyxl
    import pymupdf

    sheet = openpyxl.load_workbook(out / "report.xlsx").active
    spans = {(r.max_row - r.min_row, r.max_col - r.min_col) for r in sheet.merged_cells.ranges}
    assert spans == {(0, 1), (1, 0)}  # the cell over two columns, the one over two rows
    with pymupdf.open(out / "report.searchable.pdf") as pdf:
        assert "Revenue grew in every region" in " ".join(p.get_text() for p in pdf)


def test_word_equations_become_latex_and_footnotes_follow(engine, samples):
    result = engine.convert(samples / "math.docx", ConvertOptions())
    blocks = result.pages[0].blocks
    formula = next(b for b in blocks if b.kind is BlockKind.FORMULA)
    assert formula.formula.latex.replace(" ", "") == "\\frac{a}{b}+\\sqrt{x}"
    assert "Energy is $E = mc^{2}$ here.[1]" in result.markdown
    assert "$$\n\\frac{a}{b} + \\sqrt{x}\n$$" in result.markdown
    assert blocks[-1].kind is BlockKind.FOOTNOTE and blocks[-1].text == "[1] Einstein, 1905."


def test_a_workbook_is_a_table_per_sheet(engine, samples):
    result = engine.convert(samples / "book.xlsx", ConvertOptions())
    assert result.page_count == 2
    first, second = (page.blocks for page in result.pages)
    assert (first[0].kind, first[0].text) == (BlockKind.SECTION_HEADER, "Sales")
    assert first[1].html == ('<table><tbody><tr><td>Region</td><td>Q1</td><td>Q2</td></tr><tr>'
                             '<td>North</td><td>10</td><td>12.5</td></tr><tr><td></td><td></td>'
                             '<td></td></tr><tr><td colspan="3">Totals follow</td></tr></tbody>'
                             '</table>')
    assert second[0].text == "Notes" and "Second sheet" in second[1].html


def test_a_sheet_keeps_the_pictures_drawn_on_it(tmp_path):
    with open_document(write_xlsx(tmp_path / "shots.xlsx", picture=scan_png())) as document:
        first, second = document.office.pages
    assert [p.kind for p in first.parts] == ["section_header", "table"]
    assert [(p.kind, p.picture) for p in second.parts[2:]] == [("picture", "xl/media/image1.png")]


def test_a_presentation_is_a_page_per_slide_with_titles_and_notes(engine, samples):
    result = engine.convert(samples / "deck.pptx", ConvertOptions())
    assert result.page_count == 3
    assert result.markdown.split("\n\n")[:5] == ["# Deck Title", "A subtitle", "## Agenda",
                                                 "- First point", "Say this slowly."]
    assert result.pages[1].blocks[-1].kind is BlockKind.FOOTNOTE
    assert ('<thead><tr><td colspan="2">Wide</td><td>Narrow</td></tr></thead>'
            in result.pages[2].blocks[-1].html)


def test_a_slide_footer_is_furniture(engine, tmp_path):
    result = engine.convert(write_footer_pptx(tmp_path / "footer.pptx"), ConvertOptions())
    footers = [b.text for b in result.pages[0].blocks if b.kind is BlockKind.FOOTER]
    assert "Example Company" in footers
    assert result.markdown == "## Results\n\n- Sales rose\n"


def test_a_chart_on_a_slide_is_named_and_the_slide_partial(engine, tmp_path):
    """A chart is content this reader does not take: never a slide read `ok` without it."""
    from pptx import Presentation
    from pptx.chart.data import CategoryChartData
    from pptx.enum.chart import XL_CHART_TYPE
    from pptx.util import Inches

    from engine.types import Status

    deck = Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[5])
    slide.shapes.title.text = "Sales"
    data = CategoryChartData()
    data.categories = ["East", "West"]
    data.add_series("2026", (3.0, 4.5))
    slide.shapes.add_chart(XL_CHART_TYPE.COLUMN_CLUSTERED, Inches(1), Inches(2), Inches(6),
                           Inches(4), data)
    line = deck.slides.add_slide(deck.slide_layouts[5])
    line.shapes.title.text = "Plain"
    line.shapes.add_connector(1, Inches(1), Inches(2), Inches(5), Inches(2))  # nothing to read
    deck.save(str(tmp_path / "chart.pptx"))

    result = engine.convert(tmp_path / "chart.pptx", ConvertOptions())
    charted, plain = result.pages
    assert charted.status is Status.PARTIAL and result.status is Status.PARTIAL
    assert any("chart" in w and "not read" in w for w in charted.warnings), charted.warnings
    assert plain.status is Status.OK and not plain.warnings


def test_opendocument_sheets_and_slides(engine, samples):
    sheet = engine.convert(samples / "sheet.ods", ConvertOptions())
    assert sheet.pages[0].blocks[1].html == (
        '<table><tbody><tr><td colspan="2">Two wide</td><td>Third</td></tr><tr><td>1</td>'
        '<td>2</td><td>3</td></tr></tbody></table>')
    slides = engine.convert(samples / "slides.odp", ConvertOptions())
    assert slides.markdown == "# Opening\n\n- Point one\n\nRemember this\n"


def test_a_pasted_scan_is_cropped_and_read_by_ocr(engine, tmp_path):
    source = write_docx(tmp_path / "scanned.docx", picture=scan_png())
    result = engine.convert(source, ConvertOptions(output_dir=str(tmp_path / "out")))
    blocks = result.pages[0].blocks
    figure = next(i for i, b in enumerate(blocks) if b.kind is BlockKind.FIGURE)
    assert (tmp_path / "out" / blocks[figure].crop.path).is_file()
    read = " ".join(b.text for b in blocks[figure + 1:])
    assert " ".join(SCAN_LINES).lower() in read.lower()
    assert result.markdown.index("![figure]") < result.markdown.lower().index("pasted scans")


def test_the_service_identifies_an_upload_in_the_bounded_child(samples):
    from service.uploads import identified

    identity = identified(samples / "deck.pptx")
    assert (identity.kind, identity.page_count) == ("pptx", 3)


def test_every_picture_of_a_document_is_cropped(engine, tmp_path):
    import cv2
    import numpy as np

    source = write_pptx(tmp_path / "pictures.pptx", picture=bytes(cv2.imencode(
        ".png", np.full((40, 60, 3), 90, dtype=np.uint8))[1]), pictures=2)
    out = tmp_path / "out"
    result = engine.convert(source, ConvertOptions(output_dir=str(out)))
    figures = [b.crop.path for b in result.pages[2].blocks if b.kind is BlockKind.FIGURE]
    assert len(figures) == 2 and all((out / f).is_file() for f in figures)


def test_the_same_document_gives_the_same_bytes(engine, samples, tmp_path):
    written = []
    for run in ("a", "b"):
        engine.convert(samples / "deck.pptx", ConvertOptions(output_dir=str(tmp_path / run)))
        written.append({p.name: p.read_bytes() for p in (tmp_path / run).iterdir()})
    assert written[0] == written[1] and set(written[0]) == {
        "deck.md", "deck.json", "deck_content_list.json"}
