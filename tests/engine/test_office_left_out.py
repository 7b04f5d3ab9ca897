"""What an Office reader leaves out is never silent: a chart in a Word document, a picture inside
a Word table's cell, formula cells of a workbook saved without their values, each makes its
page partial with a warning that names it (engine/office/left_out.py)."""

from __future__ import annotations

import random

import pytest

from engine.input.document import open_document
from engine.office.left_out import odt_left_out, uncached_formulas, word_left_out
from engine.options import ConvertOptions
from engine.types import BlockKind, Status

from office_samples import SCAN_LINES, scan_png, write_docx
from tools.officeset.left_out import (write_cell_picture_docx, write_chart_docx,
                                      write_uncached_xlsx)

WORDS = ["river", "stone", "market", "engine", "window", "harbour"]


def test_a_chart_in_a_word_document_is_named_and_the_page_partial(engine, tmp_path):
    item = write_chart_docx(tmp_path / "chart.docx", random.Random(1), WORDS)
    assert word_left_out(tmp_path / item.file) == ("a chart ('Chart 1') in the text is not read",)
    result = engine.convert(tmp_path / item.file, ConvertOptions())
    page = result.pages[0]
    assert page.status is Status.PARTIAL and result.status is Status.PARTIAL
    assert any("chart" in w and "not read" in w for w in page.warnings), page.warnings
    assert item.text in " ".join(b.text for b in page.blocks)  # the text around it is read


def test_a_plain_word_document_leaves_nothing_out(tmp_path):
    assert word_left_out(write_docx(tmp_path / "plain.docx")) == ()


def test_a_picture_in_a_table_cell_is_read_after_the_table_and_named(engine, tmp_path):
    item = write_cell_picture_docx(tmp_path / "form.docx", random.Random(2), WORDS, scan_png())
    result = engine.convert(tmp_path / item.file, ConvertOptions())
    page = result.pages[0]
    kinds = [b.kind for b in page.blocks]
    assert kinds.index(BlockKind.TABLE) < kinds.index(BlockKind.FIGURE)
    assert " ".join(SCAN_LINES).lower() in result.markdown.lower()  # the picture's text read
    assert page.status is Status.PARTIAL
    assert any("picture inside a table" in w for w in page.warnings), page.warnings


def test_formulas_saved_without_values_make_their_sheet_partial(tmp_path):
    item = write_uncached_xlsx(tmp_path / "sums.xlsx", random.Random(3), WORDS)
    with open_document(tmp_path / item.file) as document:
        (sheet,) = document.office.pages
    assert uncached_formulas(tmp_path / item.file) == {sheet.title: 1}
    # A page's unread lines make it partial (engine/office/pages.py, as for a slide's chart).
    assert "saved without their values" in sheet.unread[0] and "(1;" in sheet.unread[0]


@pytest.mark.parametrize("cell, cached", [
    ('<c r="A1"><f>SUM(B1:B2)</f><v></v></c>', False),        # openpyxl: never calculated
    ('<c r="A1"><f>SUM(B1:B2)</f></c>', False),
    ('<c r="A1" t="n"><f>SUM(B1:B2)</f><v>3</v></c>', True),
    ('<c r="A1" t="str"><f>""</f><v></v></c>', True),         # a formula giving ""
    ('<c r="A1" t="n"><v>3</v></c>', True),                   # no formula at all
])
def test_a_formula_cell_is_cached_when_it_holds_a_value(tmp_path, cell, cached):
    import zipfile

    import openpyxl

    path = tmp_path / "one.xlsx"
    openpyxl.Workbook().save(path)

    with zipfile.ZipFile(path) as source:
        members = {i.filename: source.read(i) for i in source.infolist()}
    sheet = members["xl/worksheets/sheet1.xml"].decode()
    start, end = sheet.index("<sheetData"), sheet.index("</sheetData>") + len("</sheetData>")
    members["xl/worksheets/sheet1.xml"] = (sheet[:start] + f'<sheetData><row r="1">{cell}</row>'
                                           "</sheetData>" + sheet[end:]).encode()
    with zipfile.ZipFile(path, "w") as out:
        for name, data in members.items():
            out.writestr(name, data)
    assert uncached_formulas(path) == ({} if cached else {"Sheet": 1})


def test_a_chart_in_an_opendocument_text_is_named(tmp_path):
    from office_samples import write_odf

    body = ('<office:text><text:p>Before</text:p><text:p><draw:frame draw:name="Sales">'
            '<draw:object xmlns:xlink="http://www.w3.org/1999/xlink" xlink:href="./Object 1"/>'
            '</draw:frame></text:p></office:text>')
    chart = (b'<?xml version="1.0"?><office:document-content xmlns:office="urn:oasis:names:tc:'
             b'opendocument:xmlns:office:1.0"><office:body><office:chart/></office:body>'
             b'</office:document-content>')
    path = write_odf(tmp_path / "chart.odt", "application/vnd.oasis.opendocument.text", body,
                     {"Object 1/content.xml": chart})
    assert odt_left_out(path) == ("a chart ('Sales') in the text is not read",)
