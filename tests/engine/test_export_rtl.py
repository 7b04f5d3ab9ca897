"""Every script in the exports, on typed results (no models): the searchable PDF's words in
Hebrew, Arabic, Persian, Devanagari, Thai, Tamil and Hangul are found by PyMuPDF's search where
their ink is and copied back (PyMuPDF, pdftotext) in the order they are read; a right-to-left
paragraph is a right-to-left Word paragraph; Excel cells and sheets read right to left; hOCR
says `dir="rtl"`, which OCRmyPDF's hOCR reader takes, and ALTO BASEDIRECTION "rtl"."""

from __future__ import annotations

import io
import shutil
import subprocess
import zipfile

import cv2
import numpy as np
import pymupdf
import pytest
from lxml import etree

from engine.export.alto import ALTO_NS, build_alto
from engine.export.docx import build_docx
from engine.export.hocr import XHTML_NS, build_hocr
from engine.export.invisible_font import build_invisible_font
from engine.export.searchable_pdf import build_searchable_pdf
from engine.export.text_placement import RLM
from engine.export.xlsx import RIGHT_TO_LEFT_READING, TABLE_FIRST_ROW, build_xlsx
from engine.types import Block, BlockKind, Box, DocumentResult, Line, PageResult, TextSource
from tests.engine.test_export_alto_hocr import assert_valid
from table_samples import table_of

# One sentence a script, as Tesseract gives them back: logical order, no presentation forms.
SENTENCES = {
    "Hebrew": "שלום עולם יפה ושקט",
    "Arabic": "مرحبا بالعالم الجميل",
    "Persian": "می‌خواهم به خانه بروم",  # with a zero-width non-joiner
    "Devanagari": "नमस्ते दुनिया सुंदर है",
    "Thai": "สวัสดีชาวโลก สวยงาม",
    "Tamil": "வணக்கம் உலகம் அழகானது",
    "Hangul": "안녕하세요 세계 여러분",
}
PAGE_W, PAGE_H = 1200, 1600
W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
# The embedding marks pdftotext puts around right-to-left text (LRE, RLE, PDF).
EMBEDDING = str.maketrans("", "", "\u202a\u202b\u202c")


def text_page(texts: list[str], kind: BlockKind = BlockKind.TEXT) -> PageResult:
    """A page read by OCR with one block a text, one line a block, 60 px lines 120 px apart,
    as Tesseract-read lines come (no word boxes)."""
    blocks = []
    for i, text in enumerate(texts):
        box = Box(100, 100 + 120 * i, 1000, 160 + 120 * i)
        blocks.append(Block(kind, box, (Line(text, box, 0.9),), text))
    return PageResult(1, PAGE_W, PAGE_H, 72.0, TextSource.OCR, "test", blocks=tuple(blocks))


def blank_scan(folder) -> str:
    path = folder / "scan.png"
    assert cv2.imwrite(str(path), np.full((PAGE_H, PAGE_W, 3), 255, np.uint8))
    return str(path)


@pytest.fixture(scope="module")
def searchable(tmp_path_factory):
    """The searchable PDF of a page holding every sentence, and its path."""
    folder = tmp_path_factory.mktemp("rtl_pdf")
    page = text_page(list(SENTENCES.values()))
    data = build_searchable_pdf(DocumentResult(blank_scan(folder), "png", 1, (page,)))
    path = folder / "scan.pdf"
    path.write_bytes(data)
    return path, page


def test_every_script_is_copied_in_the_order_it_is_read(searchable):
    path, _page = searchable
    with pymupdf.open(path) as document:
        lines = [ln.strip() for ln in document[0].get_text().splitlines() if ln.strip()]
    assert lines == list(SENTENCES.values())


@pytest.mark.parametrize("script", list(SENTENCES))
def test_every_word_is_found_where_its_line_is(searchable, script):
    path, page = searchable
    index = list(SENTENCES).index(script)
    with pymupdf.open(path) as document:
        pdf_page = document[0]
        scale = pdf_page.rect.width / PAGE_W
        box = page.blocks[index].box
        line = pymupdf.Rect(box.x0, box.y0, box.x1, box.y1) * scale
        for word in SENTENCES[script].split():
            hits = pdf_page.search_for(word)
            assert hits, f"{script} word {word!r} not found"
            assert all(line.contains((hit.tl + hit.br) / 2) for hit in hits), (word, hits, line)


def test_pdftotext_copies_right_to_left_lines_in_reading_order(searchable):
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext is not installed (tools/system_deps.sh installs poppler-utils)")
    path, _page = searchable
    done = subprocess.run(["pdftotext", "-enc", "UTF-8", str(path), "-"], capture_output=True,
                          text=True, check=True)
    lines = [ln.translate(EMBEDDING).strip() for ln in done.stdout.splitlines() if ln.strip()]
    assert lines == list(SENTENCES.values())


def test_a_vocalised_line_ending_in_a_mark_keeps_it(tmp_path):
    """The last letter read (the first shown) carries a damma: the mark stays on its word."""
    texts = ["שלום עולם", "كَتَبَ الوَلَدُ"]
    page = text_page(texts)
    data = build_searchable_pdf(DocumentResult(blank_scan(tmp_path), "png", 1, (page,)))
    with pymupdf.open("pdf", data) as document:
        lines = [ln.strip() for ln in document[0].get_text().splitlines() if ln.strip()]
        assert document[0].search_for("الوَلَدُ")
    assert [ln.rstrip(RLM) for ln in lines] == texts


def test_digits_and_latin_inside_an_arabic_line_are_found(tmp_path):
    page = text_page(["العدد 123 و ABC هنا"])
    data = build_searchable_pdf(DocumentResult(blank_scan(tmp_path), "png", 1, (page,)))
    with pymupdf.open("pdf", data) as document:
        assert all(document[0].search_for(w) for w in ("العدد", "123", "ABC", "هنا"))


def test_marks_and_joiners_take_no_room_in_the_invisible_font():
    font = build_invisible_font("नमस्ते" + "\u200c" + "ש")
    assert font.advances["\u094d"] == 0 and font.advances["\u0947"] == 0  # virama, vowel sign
    assert font.advances["\u200c"] == 0 and font.encode("\u200c")
    assert 0.3 < font.advances["न"] < 1 and 0.3 < font.advances["ש"] < 1


def test_a_right_to_left_paragraph_is_a_right_to_left_word_paragraph(tmp_path):
    docx = pytest.importorskip("docx")
    hebrew, english = SENTENCES["Hebrew"], "Harvest report"
    result = DocumentResult(str(tmp_path / "scan.png"), "png", 1, (text_page([english, hebrew]),),
                            markdown=f"{english}\n\n{hebrew}\n")
    data, _notes = build_docx(result, tmp_path)
    paragraphs = {p.text: p for p in docx.Document(io.BytesIO(data)).paragraphs}
    rtl = paragraphs[hebrew]._p
    assert rtl.find(f"{W}pPr/{W}bidi") is not None
    assert all(run.find(f"{W}rPr/{W}rtl") is not None for run in rtl.iter(f"{W}r"))
    ltr = paragraphs[english]._p
    assert ltr.find(f"{W}pPr/{W}bidi") is None and not list(ltr.iter(f"{W}rtl"))


def test_a_document_without_right_to_left_letters_has_no_bidi(tmp_path):
    result = DocumentResult(str(tmp_path / "scan.png"), "png", 1, (text_page(["Harvest"]),),
                            markdown="Harvest\n\nнормальный текст\n")
    data, _notes = build_docx(result, tmp_path)
    with zipfile.ZipFile(io.BytesIO(data)) as package:
        assert b"w:bidi" not in package.read("word/document.xml")


def test_excel_cells_and_a_mostly_right_to_left_sheet_read_right_to_left():
    """The table HTML holds the columns as the page shows them (כמות on the left, שם on the
    right); the right-to-left sheet shows them so, with the column read first in A."""
    from openpyxl import load_workbook

    table = ("<table><tr><td>כמות</td><td>שם</td></tr><tr><td>7</td><td>חיטה</td></tr>"
             "<tr><td>x</td><td>Wheat</td></tr><tr><td colspan=\"2\">סך הכול 7</td></tr>"
             "</table>")
    box = Box(100, 100, 800, 400)
    page = PageResult(1, PAGE_W, PAGE_H, 72.0, TextSource.OCR, "test",
                      blocks=(Block(BlockKind.TABLE, box, table=table_of(table)),))
    data, _notes = build_xlsx(DocumentResult("/in/scan.png", "png", 1, (page,)))
    sheet = load_workbook(io.BytesIO(data)).worksheets[0]
    assert sheet.sheet_view.rightToLeft
    first = TABLE_FIRST_ROW
    assert [[sheet.cell(first + r, c).value for c in (1, 2)] for r in range(4)] == [
        ["שם", "כמות"], ["חיטה", 7], ["Wheat", "x"], ["סך הכול 7", None]]
    assert [str(r) for r in sheet.merged_cells.ranges] == [f"A{first + 3}:B{first + 3}"]
    assert sheet.cell(first, 1).alignment.readingOrder == RIGHT_TO_LEFT_READING
    assert sheet.cell(first + 1, 1).alignment.readingOrder == RIGHT_TO_LEFT_READING
    assert sheet.cell(first + 2, 1).alignment.readingOrder != RIGHT_TO_LEFT_READING  # Wheat


def test_a_left_to_right_sheet_stays_left_to_right():
    from openpyxl import load_workbook

    table = "<table><tr><td>Crop</td><td>חיטה</td></tr><tr><td>Wheat</td><td>Rye</td></tr></table>"
    page = PageResult(1, PAGE_W, PAGE_H, 72.0, TextSource.OCR, "test",
                      blocks=(Block(BlockKind.TABLE, Box(100, 100, 800, 400),
                                    table=table_of(table)),))
    data, _notes = build_xlsx(DocumentResult("/in/scan.png", "png", 1, (page,)))
    sheet = load_workbook(io.BytesIO(data)).worksheets[0]
    assert not sheet.sheet_view.rightToLeft
    assert sheet.cell(TABLE_FIRST_ROW, 2).alignment.readingOrder == RIGHT_TO_LEFT_READING


def test_hocr_marks_right_to_left_paragraphs_and_lines_for_ocrmypdf(tmp_path):
    hebrew, arabic = SENTENCES["Hebrew"], SENTENCES["Arabic"]
    page = text_page(["Harvest report", hebrew, arabic])
    hocr = build_hocr(DocumentResult("/in/scan.png", "png", 1, (page,)))
    root = etree.fromstring(hocr)
    x = f"{{{XHTML_NS}}}"
    directions = [(p.get("dir"), [ln.get("dir") for ln in p.iter(f"{x}span")
                                  if ln.get("class") == "ocr_line"])
                  for p in root.iter(f"{x}p")]
    assert directions == [(None, [None]), ("rtl", ["rtl"]), ("rtl", ["rtl"])]
    parser = pytest.importorskip("ocrmypdf.hocrtransform.hocr_parser")
    path = tmp_path / "scan.hocr"
    path.write_bytes(hocr)
    tree = parser.HocrParser(path).parse()
    paragraphs = [p for p in tree.iter_by_class("ocr_par")]
    assert [p.direction for p in paragraphs] == [None, "rtl", "rtl"]
    assert [p.get_text_recursive().split() for p in paragraphs[1:]] == [hebrew.split(),
                                                                     arabic.split()]


def test_alto_gives_right_to_left_blocks_and_lines_their_base_direction():
    page = text_page(["Harvest report", SENTENCES["Hebrew"], SENTENCES["Arabic"]])
    root = assert_valid(build_alto(DocumentResult("/in/scan.png", "png", 1, (page,))))
    a = f"{{{ALTO_NS}}}"
    directions = [(block.get("BASEDIRECTION"), [line.get("BASEDIRECTION")
                                                for line in block.iter(f"{a}TextLine")])
                  for block in root.iter(f"{a}TextBlock")]
    assert directions == [(None, [None]), ("rtl", ["rtl"]), ("rtl", ["rtl"])]


@pytest.mark.model
def test_a_scanned_hebrew_page_converted_is_searched_and_copied_in_reading_order(engine,
                                                                                 tmp_path):
    """One real conversion: a Hebrew page set in Noto and scanned, read by PP-OCR's detector and
    Tesseract's Hebrew recogniser; the searchable PDF finds its words and copies its lines as
    the Markdown has them."""
    from dataclasses import replace

    from engine.options import ConvertOptions
    from engine.output.markdown import render_markdown
    from tools.eval.edit_distance import similarity
    from tools.scripts.pages import FontMissing, page_pdf, render
    from tools.scripts.texts import SAMPLES

    paragraphs = ("ירושלים היא בירת ישראל והעיר הגדולה ביותר במדינה.",
                  "בעיר יש מוזיאונים רבים, שווקים צבעוניים וגנים יפים.")
    sample = replace(next(s for s in SAMPLES if s.key == "hebrew"), paragraphs=paragraphs)
    try:
        pixels = render(page_pdf(sample))
    except FontMissing as missing:
        pytest.skip(str(missing))
    scan = tmp_path / "hebrew.png"
    assert cv2.imwrite(str(scan), cv2.cvtColor(pixels, cv2.COLOR_RGB2BGR))
    result = engine.convert(scan, ConvertOptions())
    if "Hebrew" not in result.pages[0].scripts:
        pytest.skip("Tesseract's Hebrew data is not installed (tools/system_deps.sh)")
    markdown = " ".join(render_markdown(result.pages).split())
    assert similarity(markdown, " ".join(paragraphs)) >= 0.9, markdown
    with pymupdf.open("pdf", build_searchable_pdf(result)) as document:
        copied = " ".join(document[0].get_text().split())
        found = [w for w in ("ירושלים", "ישראל", "מוזיאונים", "יפים") if w in markdown]
        assert found and all(document[0].search_for(w) for w in found), found
    assert similarity(copied, markdown) >= 0.98, (copied, markdown)
