"""ALTO and hOCR of real conversions: a generated scanned page (its words must lie on their
ink, as the searchable PDF's test asks of its text layer) and a generated digital page (its
text layer's words, placed by MuPDF's word boxes); both files validate (ALTO 4.3) and are read
back by OCRmyPDF's hOCR parser."""

from __future__ import annotations

import re

import pymupdf
import pytest
from lxml import etree

from engine.export.alto import ALTO_NS
from engine.formats import OutputFormat
from engine.options import ConvertOptions
from tests.engine.test_export_alto_hocr import assert_valid
from tools.chinese_scan import CHINESE_PAGES, ink_box, iou, write_chinese_scan

pytestmark = pytest.mark.model

A = f"{{{ALTO_NS}}}"
MIN_IOU = 0.5
_IDEOGRAPHS = re.compile(r"[\u4e00-\u9fff]{2}")
EXPORTS = (OutputFormat.ALTO, OutputFormat.HOCR)
DIGITAL_LINES = ("Field trials of winter wheat near the river",
                 "Yields rose by a tenth on the sandy plots",
                 "while the clay plots stayed level with last year.")


def alto_lines(root: etree._Element) -> list[list[tuple[str, tuple[float, ...], float]]]:
    """Each TextLine's words: (content, box x0 y0 x1 y1 in pixels, WC)."""
    lines = []
    for line in root.iter(f"{A}TextLine"):
        words = []
        for string in line.iter(f"{A}String"):
            x, y = float(string.get("HPOS")), float(string.get("VPOS"))
            box = (x, y, x + float(string.get("WIDTH")), y + float(string.get("HEIGHT")))
            words.append((string.get("CONTENT"), box, float(string.get("WC"))))
        lines.append(words)
    return lines


def hocr_lines(path) -> list[list[tuple[str, tuple[float, ...], float]]]:
    """The same, as OCRmyPDF's hOCR parser reads them."""
    parser = pytest.importorskip("ocrmypdf.hocrtransform")
    page = parser.HocrParser(path).parse()
    return [[(w.text, (w.bbox.left, w.bbox.top, w.bbox.right, w.bbox.bottom), w.confidence)
             for w in line.children]
            for paragraph in page.paragraphs for line in paragraph.lines]


def find_word(lines, text: str) -> tuple[float, ...] | None:
    """The union box of the consecutive words of one line that spell `text`, when exactly
    one place in the document spells it."""
    hits = []
    for words in lines:
        for start in range(len(words)):
            spelled, end = "", start
            while end < len(words) and len(spelled) < len(text):
                spelled += words[end][0]
                end += 1
            if spelled == text:
                boxes = [w[1] for w in words[start:end]]
                hits.append((min(b[0] for b in boxes), min(b[1] for b in boxes),
                             max(b[2] for b in boxes), max(b[3] for b in boxes)))
    return hits[0] if len(hits) == 1 else None


@pytest.fixture(scope="module")
def scan(engine, tmp_path_factory):
    folder = tmp_path_factory.mktemp("alto-scan")
    source = folder / "report.pdf"
    truth = write_chinese_scan(source, pages=CHINESE_PAGES[:1])
    result = engine.convert(source, ConvertOptions(output_dir=str(folder / "out"),
                                                   exports=EXPORTS))
    return truth[0], result, folder / "out" / "report.alto.xml", folder / "out" / "report.hocr"


def test_scanned_page_alto_validates_with_word_confidences(scan):
    _truth, result, alto, _hocr = scan
    root = assert_valid(alto.read_bytes())
    page = root.find(f"{A}Layout/{A}Page")
    dpi = result.pages[0].dpi
    assert (int(page.get("WIDTH")), int(page.get("HEIGHT"))) == (round(595 * dpi / 72),
                                                                 round(842 * dpi / 72))
    lines = alto_lines(root)
    confidences = [wc for words in lines for _, _, wc in words]
    assert confidences and all(0 < wc <= 1 for wc in confidences)
    # Each word its own confidence, not its line's for all of them.
    assert any(len({wc for _, _, wc in words}) > 1 for words in lines)


@pytest.mark.parametrize("reader", ["alto", "hocr"])
def test_scanned_page_words_lie_on_their_ink(scan, reader):
    truth, result, alto, hocr = scan
    lines = alto_lines(etree.parse(str(alto)).getroot()) if reader == "alto" \
        else hocr_lines(hocr)
    to_points = 72 / result.pages[0].dpi
    checked = []
    for line in truth.lines:
        chars = "".join(c.char for c in line)
        # Character pairs from a quarter, half and three quarters along the line, and its
        # first Latin word, as the searchable PDF's test samples them.
        samples = [(len(chars) * k // 4, len(chars) * k // 4 + 2) for k in (1, 2, 3)]
        samples = [(a, b) for a, b in samples if _IDEOGRAPHS.fullmatch(chars[a:b])]
        samples += [m.span() for m in re.finditer(r"[A-Za-z]{3,}", chars)][:1]
        for start, end in samples:
            found = find_word(lines, chars[start:end])
            if found is None:
                continue  # misread by OCR, or not unique: nothing to find exactly
            true_box = line[start].box
            for c in line[start + 1:end]:
                true_box = (min(true_box[0], c.box[0]), min(true_box[1], c.box[1]),
                            max(true_box[2], c.box[2]), max(true_box[3], c.box[3]))
            box = tuple(v * to_points for v in found)
            checked.append((chars[start:end], iou(box, ink_box(truth, true_box))))
    assert len(checked) >= 12, checked
    poor = [(w, round(v, 2)) for w, v in checked if v < MIN_IOU]
    assert not poor, poor


@pytest.fixture(scope="module")
def digital(engine, tmp_path_factory):
    folder = tmp_path_factory.mktemp("alto-digital")
    source = folder / "trials.pdf"
    with pymupdf.open() as made:
        page = made.new_page(width=595, height=842)
        page.insert_text((72, 90), "Winter wheat trials", fontsize=20, fontname="hebo")
        for row, text in enumerate(DIGITAL_LINES):
            page.insert_text((72, 140 + 18 * row), text, fontsize=12, fontname="helv")
        made.save(str(source))
        truth = [(w[4], w[:4]) for w in page.get_text("words")]
    result = engine.convert(source, ConvertOptions(output_dir=str(folder / "out"),
                                                   exports=EXPORTS))
    return truth, result, folder / "out" / "trials.alto.xml", folder / "out" / "trials.hocr"


@pytest.mark.parametrize("reader", ["alto", "hocr"])
def test_digital_page_words_are_its_text_layers_words(digital, reader):
    truth, result, alto, hocr = digital
    if reader == "alto":
        lines = alto_lines(assert_valid(alto.read_bytes()))
    else:
        lines = hocr_lines(hocr)
    words = [w for line in lines for w in line]
    assert [text for text, _, _ in words] == [text for text, _ in truth]
    scale = result.pages[0].dpi / 72
    for (text, box, confidence), (_, true_box) in zip(words, truth):
        assert iou(box, tuple(v * scale for v in true_box)) >= 0.9, text
        assert confidence == 1.0
