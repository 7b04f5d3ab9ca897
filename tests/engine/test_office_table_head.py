"""A slide's table keeps its head when the file lost the header-row marking but kept the look
(LibreOffice saving a PPTX or an ODP): the first row painted in a fill no other row has."""

from __future__ import annotations

from engine.office.model import painted_head
from engine.office.reader import read_office

from office_samples import write_odf


def test_a_first_row_painted_apart_is_the_head():
    dark, band_a, band_b = "4f81bd", "d0d8e7", "e9ecf3"
    assert painted_head([[dark] * 3, [band_a] * 4, [band_b] * 3, [band_a] * 4]) == 1
    # Banded rows without a head: the first row's fill comes back two rows down.
    assert painted_head([[band_a] * 3, [band_b] * 3, [band_a] * 3]) == 0
    # One fill everywhere, no fill at all, a first row of mixed fills, too few rows.
    assert painted_head([[band_a] * 2] * 4) == 0
    assert painted_head([[""] * 2] * 4) == 0
    assert painted_head([[dark, band_a], [band_b] * 2, [band_b] * 2]) == 0
    assert painted_head([[dark] * 2, [band_a] * 2]) == 0


def test_a_lost_first_row_marking_in_a_powerpoint_table_is_read_from_its_fill(tmp_path):
    from pptx import Presentation
    from pptx.dml.color import RGBColor
    from pptx.util import Inches

    deck = Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[5])
    slide.shapes.title.text = "Figures"
    table = slide.shapes.add_table(3, 2, Inches(1), Inches(2), Inches(6), Inches(2)).table
    for r, row in enumerate(table.rows):
        for c, cell in enumerate(row.cells):
            cell.text = f"r{r}c{c}"
            cell.fill.solid()
            cell.fill.fore_color.rgb = RGBColor.from_string("4F81BD" if r == 0 else "E9ECF3")
    table.first_row = False  # as LibreOffice writes it
    deck.save(str(tmp_path / "painted.pptx"))
    plain = Presentation()
    slide = plain.slides.add_slide(plain.slide_layouts[5])
    slide.shapes.title.text = "Figures"
    unpainted = slide.shapes.add_table(3, 2, Inches(1), Inches(2), Inches(6), Inches(2)).table
    unpainted.first_row = False
    plain.save(str(tmp_path / "plain.pptx"))

    def html(name: str) -> str:
        (page,) = read_office(tmp_path / name, "pptx").pages
        return next(p.html for p in page.parts if p.kind == "table")

    assert html("painted.pptx").startswith("<table><thead><tr><td>r0c0</td>")
    assert "<thead>" not in html("plain.pptx")  # the table style paints it: no fill written


def test_an_opendocument_slide_table_head_by_template_or_by_fill(tmp_path):
    styles = ('<office:automatic-styles xmlns:style="urn:oasis:names:tc:opendocument:xmlns:'
              'style:1.0" xmlns:loext="urn:org:documentfoundation:names:experimental:office:'
              'xmlns:loext:1.0">'
              + "".join(f'<style:style style:name="{name}" style:family="table-cell">'
                        f'<loext:graphic-properties draw:fill="solid" draw:fill-color="{colour}"/>'
                        '</style:style>' for name, colour in (("ce1", "#4f81bd"),
                                                               ("ce2", "#d0d8e7")))
              + "</office:automatic-styles>")

    def deck(name: str, table_attributes: str, head_style: str) -> str:
        rows = "".join(f'<table:table-row table:default-cell-style-name="{style}">'
                       f'<table:table-cell><text:p>{text}</text:p></table:table-cell>'
                       '</table:table-row>' for style, text in ((head_style, "Head"),
                                                                ("ce2", "one"), ("ce2", "two")))
        body = (f'<office:presentation><draw:page><draw:frame><table:table {table_attributes}>'
                f"{rows}</table:table></draw:frame></draw:page></office:presentation>")
        path = write_odf(tmp_path / name, "application/vnd.oasis.opendocument.presentation",
                         body)
        # automatic styles sit before the body in content.xml
        import zipfile

        with zipfile.ZipFile(path) as archive:
            members = {i.filename: archive.read(i) for i in archive.infolist()}
        members["content.xml"] = members["content.xml"].replace(
            b"<office:body>", styles.encode() + b"<office:body>")
        with zipfile.ZipFile(path, "w") as archive:
            archive.writestr("mimetype", members.pop("mimetype"),
                             compress_type=zipfile.ZIP_STORED)
            for member, data in members.items():
                archive.writestr(member, data)
        (page,) = read_office(path, "odp").pages
        return next(p.html for p in page.parts if p.kind == "table")

    assert deck("painted.odp", "", "ce1").startswith("<table><thead><tr><td>Head</td>")
    assert "<thead>" not in deck("plain.odp", "", "ce2")
    assert deck("template.odp", 'table:use-first-row-styles="true"', "ce2").startswith(
        "<table><thead>")
