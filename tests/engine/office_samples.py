"""Small Office documents for the tests, written at test time: by python-docx, openpyxl and
python-pptx, by pandoc (equations in Word's OMML, footnotes), OpenDocument written by hand (the
format is its content.xml), and hostile ones built byte by byte."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import numpy as np

HEADING = "Annual Figures"
SCAN_LINES = ("Pasted scans hold words", "that only the OCR reads.")


def scan_png() -> bytes:
    """A scanned line pair: dark print on light grey paper, as a PNG."""
    import cv2

    image = np.full((220, 1000, 3), 236, dtype=np.uint8)
    for row, text in enumerate(SCAN_LINES):
        cv2.putText(image, text, (30, 80 + 90 * row), cv2.FONT_HERSHEY_SIMPLEX, 1.5, (25, 25, 25),
                    3, cv2.LINE_AA)
    ok, data = cv2.imencode(".png", image)
    assert ok
    return data.tobytes()


def write_docx(path: Path, picture: bytes | None = None) -> Path:
    """Headings from styles, a bullet and a numbered list, a table with a cell over two columns
    and one over two rows, and a picture when given."""
    import docx
    from docx.shared import Inches

    document = docx.Document()
    document.add_heading(HEADING, level=1)
    document.add_paragraph("Revenue grew in every region this year.")
    document.add_heading("Regions", level=2)
    document.add_paragraph("North held its lead", style="List Bullet")
    document.add_paragraph("South caught up", style="List Bullet")
    document.add_paragraph("Count the stores", style="List Number")
    table = document.add_table(rows=3, cols=3)
    for r in range(3):
        for c in range(3):
            table.cell(r, c).text = f"r{r}c{c}"
    table.cell(0, 0).merge(table.cell(0, 1)).text = "Region and year"
    table.cell(1, 2).merge(table.cell(2, 2)).text = "Both"
    if picture is not None:
        document.add_picture(io.BytesIO(picture), width=Inches(5))
    document.save(path)
    return path


def write_outline_docx(path: Path) -> Path:
    """Headings known by their outline level alone: a custom style with one, and a paragraph
    given one directly."""
    import docx
    from docx.enum.style import WD_STYLE_TYPE
    from docx.oxml import OxmlElement
    from docx.oxml.ns import qn

    def outline(properties, value: int) -> None:
        level = OxmlElement("w:outlineLvl")
        level.set(qn("w:val"), str(value))
        properties.append(level)

    document = docx.Document()
    chapter = document.styles.add_style("Chapter", WD_STYLE_TYPE.PARAGRAPH)
    outline(chapter.element.get_or_add_pPr(), 0)
    document.add_paragraph("Chapter by its style", style="Chapter")
    outline(document.add_paragraph("Section by its paragraph")._p.get_or_add_pPr(), 1)
    document.add_paragraph("Body text.")
    document.save(path)
    return path


def write_front_matter_docx(path: Path) -> Path:
    """A title page in Word's own styles: Title, Subtitle, Author, Date, Abstract."""
    import docx
    from docx.enum.style import WD_STYLE_TYPE

    document = docx.Document()
    document.add_paragraph("On Reading", style="Title")
    document.add_paragraph("A Short Study", style="Subtitle")
    for name, text in (("Author", "Ada Lovelace"), ("Date", "1 March 2026"),
                       ("Abstract", "We read documents.")):
        document.styles.add_style(name, WD_STYLE_TYPE.PARAGRAPH)
        document.add_paragraph(text, style=name)
    document.add_paragraph("Body text.")
    document.save(path)
    return path


def write_math_docx(path: Path) -> Path:
    """Equations (display and inline) and a footnote, as Word stores them: pandoc writes OMML."""
    import pypandoc

    source = ("Energy is $E=mc^2$ here.[^1]\n\n$$\\frac{a}{b}+\\sqrt{x}$$\n\n"
              "[^1]: Einstein, 1905.\n")
    pypandoc.convert_text(source, "docx", format="markdown", outputfile=str(path))
    return path


def write_xlsx(path: Path, picture: bytes | None = None) -> Path:
    import openpyxl
    from openpyxl.drawing.image import Image

    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Sales"
    sheet.append(["Region", "Q1", "Q2"])
    sheet.append(["North", 10, 12.5])
    sheet["A4"] = "Totals follow"
    sheet.merge_cells("A4:C4")
    notes = book.create_sheet("Notes")
    notes["A1"] = "Second sheet"
    if picture is not None:
        notes.add_image(Image(io.BytesIO(picture)), "C3")
    book.save(path)
    return path


def write_pptx(path: Path, picture: bytes | None = None, pictures: int = 1) -> Path:
    from pptx import Presentation
    from pptx.util import Inches

    deck = Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[0])
    slide.shapes.title.text = "Deck Title"
    slide.placeholders[1].text = "A subtitle"
    slide = deck.slides.add_slide(deck.slide_layouts[1])
    slide.shapes.title.text = "Agenda"
    frame = slide.placeholders[1].text_frame
    frame.text = "First point"
    slide.notes_slide.notes_text_frame.text = "Say this slowly."
    slide = deck.slides.add_slide(deck.slide_layouts[5])
    slide.shapes.title.text = "Numbers"
    table = slide.shapes.add_table(2, 3, Inches(1), Inches(2), Inches(6), Inches(1.5)).table
    for c, text in enumerate(("a", "b", "c")):
        table.cell(1, c).text = text
    table.cell(0, 0).merge(table.cell(0, 1))
    table.cell(0, 0).text = "Wide"
    table.cell(0, 2).text = "Narrow"
    for number in range(pictures if picture is not None else 0):
        slide.shapes.add_picture(io.BytesIO(picture), Inches(1 + 4 * number), Inches(4),
                                 width=Inches(3))
    deck.save(path)
    return path


def write_footer_pptx(path: Path) -> Path:
    """A slide carrying its layout's footer, date and slide-number placeholders."""
    import copy

    from pptx import Presentation
    from pptx.enum.shapes import PP_PLACEHOLDER

    deck = Presentation()
    layout = deck.slide_layouts[1]
    slide = deck.slides.add_slide(layout)
    slide.shapes.title.text = "Results"
    slide.placeholders[1].text = "Sales rose"
    furniture = (PP_PLACEHOLDER.FOOTER, PP_PLACEHOLDER.DATE, PP_PLACEHOLDER.SLIDE_NUMBER)
    for placeholder in layout.placeholders:
        if placeholder.placeholder_format.type in furniture:
            slide.shapes._spTree.append(copy.deepcopy(placeholder._element))
    for placeholder in slide.placeholders:
        if placeholder.placeholder_format.type == PP_PLACEHOLDER.FOOTER:
            placeholder.text = "Example Company"
    deck.save(path)
    return path


ODF_MANIFEST = (b'<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest='
                b'"urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"/>')
_ODF_NS = ('xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
           'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
           'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
           'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" '
           'xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0"')


def write_odf(path: Path, mimetype: str, body: str, extra: dict[str, bytes] | None = None) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("mimetype", mimetype, compress_type=zipfile.ZIP_STORED)
        archive.writestr("META-INF/manifest.xml", ODF_MANIFEST)
        archive.writestr("content.xml", f'<?xml version="1.0" encoding="UTF-8"?>'
                         f'<office:document-content {_ODF_NS}><office:body>{body}'
                         f'</office:body></office:document-content>')
        for name, data in (extra or {}).items():
            archive.writestr(name, data)
    return path


def write_ods(path: Path) -> Path:
    """A sheet whose first cell spans two columns; repeated empty rows to the sheet's end."""
    body = ('<office:spreadsheet><table:table table:name="Budget">'
            '<table:table-row><table:table-cell table:number-columns-spanned="2">'
            '<text:p>Two wide</text:p></table:table-cell><table:covered-table-cell/>'
            '<table:table-cell><text:p>Third</text:p></table:table-cell></table:table-row>'
            '<table:table-row><table:table-cell><text:p>1</text:p></table:table-cell>'
            '<table:table-cell><text:p>2</text:p></table:table-cell>'
            '<table:table-cell><text:p>3</text:p></table:table-cell></table:table-row>'
            '<table:table-row table:number-rows-repeated="1048574">'
            '<table:table-cell table:number-columns-repeated="1024"/></table:table-row>'
            '</table:table></office:spreadsheet>')
    return write_odf(path, "application/vnd.oasis.opendocument.spreadsheet", body)


def write_odp(path: Path) -> Path:
    body = ('<office:presentation><draw:page draw:name="one">'
            '<draw:frame presentation:class="title"><draw:text-box><text:p>Opening</text:p>'
            '</draw:text-box></draw:frame><draw:frame presentation:class="outline">'
            '<draw:text-box><text:list><text:list-item><text:p>Point one</text:p>'
            '</text:list-item></text:list></draw:text-box></draw:frame>'
            '<presentation:notes><draw:frame presentation:class="notes"><draw:text-box>'
            '<text:p>Remember this</text:p></draw:text-box></draw:frame></presentation:notes>'
            '</draw:page></office:presentation>')
    return write_odf(path, "application/vnd.oasis.opendocument.presentation", body)


# Hostile documents: a real DOCX with one part replaced or added.

def docx_with(path: Path, replace: dict[str, bytes] | None = None,
              add: dict[str, bytes] | None = None, content_type: str | None = None) -> Path:
    """A DOCX written by python-docx, then parts replaced or added, and the main part's content
    type changed when given."""
    base = write_docx(path.with_suffix(".base.docx"))
    with zipfile.ZipFile(base) as source, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as out:
        for info in source.infolist():
            data = (replace or {}).get(info.filename, source.read(info))
            if info.filename == "[Content_Types].xml" and content_type:
                data = data.replace(b"application/vnd.openxmlformats-officedocument."
                                    b"wordprocessingml.document.main+xml", content_type.encode())
            out.writestr(info.filename, data)
        for name, data in (add or {}).items():
            out.writestr(name, data)
    base.unlink()
    return path


def laughs_document(levels: int = 10) -> bytes:
    entities = ['<!ENTITY lol0 "lol">'] + [
        f'<!ENTITY lol{i} "{f"&lol{i - 1};" * 10}">' for i in range(1, levels)]
    return ('<?xml version="1.0"?><!DOCTYPE w:document [' + "".join(entities) + ']>'
            '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">'
            f'<w:body><w:p><w:r><w:t>&lol{levels - 1};</w:t></w:r></w:p></w:body>'
            '</w:document>').encode()


def external_entity_document(url: str) -> bytes:
    return ('<?xml version="1.0"?><!DOCTYPE w:document [<!ENTITY leak SYSTEM "' + url + '">]>'
            '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">'
            '<w:body><w:p><w:r><w:t>&leak;</w:t></w:r></w:p></w:body></w:document>').encode()


def compound_file(path: Path, *streams: str) -> Path:
    """A compound file whose directory names `streams` (as Office writes a password-protected
    document: EncryptionInfo and EncryptedPackage; a Word 97 document: WordDocument)."""
    header = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(504)
    directory = b"".join(name.encode("utf-16-le").ljust(64, b"\x00") + bytes(64)
                         for name in ("Root Entry", *streams))
    path.write_bytes(header + directory + bytes(4096))
    return path


def encrypted_office(path: Path) -> Path:
    return compound_file(path, "EncryptionInfo", "EncryptedPackage")
