"""Office documents holding what Paperlens does not take as it stands, each with the words its
page must say: a Word document with a chart (real chart XML, as python-pptx writes it into a
presentation, related from the text as Word relates one), a Word form with a picture inside a
table cell, a workbook whose formulas were saved without their values (openpyxl never
calculates). Each must convert to a partial page naming what it left out."""

from __future__ import annotations

import io
import random
from dataclasses import dataclass
from pathlib import Path

_W = ('xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" '
      'xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" '
      'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" '
      'xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" '
      'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"')
CHART_CONTENT_TYPE = "application/vnd.openxmlformats-officedocument.drawingml.chart+xml"


@dataclass(frozen=True)
class LeftOutItem:
    name: str
    file: str
    says: str
    """Words the partial page's warning must hold."""
    text: str = ""
    """Text around the left-out thing that must still be read."""


def write_chart_docx(path: Path, rng: random.Random, words: list[str]) -> LeftOutItem:
    import docx
    from docx.opc.constants import RELATIONSHIP_TYPE
    from docx.opc.packuri import PackURI
    from docx.opc.part import Part
    from docx.oxml import parse_xml
    from pptx.chart.data import CategoryChartData
    from pptx.chart.xmlwriter import ChartXmlWriter
    from pptx.enum.chart import XL_CHART_TYPE

    data = CategoryChartData()
    data.categories = [w.capitalize() for w in rng.sample(words, 3)]
    data.add_series(rng.choice(words).capitalize(), [rng.randint(1, 90) for _ in range(3)])
    chart_xml = ChartXmlWriter(XL_CHART_TYPE.COLUMN_CLUSTERED, data).xml
    document = docx.Document()
    before = f"The {rng.choice(words)} figures are drawn below."
    document.add_paragraph(before)
    part = Part(PackURI("/word/charts/chart1.xml"), CHART_CONTENT_TYPE, chart_xml.encode(),
                document.part.package)
    rid = document.part.relate_to(part, RELATIONSHIP_TYPE.CHART)
    document.add_paragraph()._p.append(parse_xml(
        f'<w:r {_W}><w:drawing><wp:inline><wp:extent cx="5486400" cy="3200400"/>'
        '<wp:docPr id="10" name="Chart 1"/><a:graphic><a:graphicData '
        'uri="http://schemas.openxmlformats.org/drawingml/2006/chart">'
        f'<c:chart r:id="{rid}"/></a:graphicData></a:graphic></wp:inline></w:drawing></w:r>'))
    after = f"The {rng.choice(words)} column is the tallest."
    document.add_paragraph(after)
    document.save(path)
    return LeftOutItem(path.stem, path.name, "chart", f"{before} {after}")


def write_cell_picture_docx(path: Path, rng: random.Random, words: list[str],
                            picture: bytes) -> LeftOutItem:
    import docx
    from docx.shared import Inches

    document = docx.Document()
    label = rng.choice(words).capitalize()
    document.add_paragraph(f"{label} form")
    table = document.add_table(rows=2, cols=2)
    table.style = "Table Grid"
    table.cell(0, 0).text, table.cell(1, 0).text = "Name", "Signature"
    table.cell(0, 1).text = rng.choice(words).capitalize()
    table.cell(1, 1).paragraphs[0].add_run().add_picture(io.BytesIO(picture),
                                                         width=Inches(2.5))
    document.save(path)
    return LeftOutItem(path.stem, path.name, "picture inside a table", f"{label} form")


def write_uncached_xlsx(path: Path, rng: random.Random, words: list[str]) -> LeftOutItem:
    import openpyxl

    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = rng.choice(words).capitalize()
    sheet.append(["Item", "Amount"])
    for _ in range(3):
        sheet.append([rng.choice(words), rng.randint(1, 500)])
    sheet.append(["Total", "=SUM(B2:B4)"])
    book.save(path)
    return LeftOutItem(path.stem, path.name, "saved without their values", "Item Amount")


def write_left_out(folder: Path, rng: random.Random, words: list[str],
                   picture: bytes) -> list[LeftOutItem]:
    return [write_chart_docx(folder / "left-out-chart.docx", rng, words),
            write_cell_picture_docx(folder / "left-out-cell-picture.docx", rng, words, picture),
            write_uncached_xlsx(folder / "left-out-formulas.xlsx", rng, words)]
