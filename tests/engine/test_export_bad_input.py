"""Exports under bad input and faults: a table of 10,000 cells, a formula pandoc cannot convert,
a document with no text each give a clear message and the other formats are still written; a
disk that fails while writing them leaves no file of the document behind."""

from __future__ import annotations

import errno
import io
import os
from pathlib import Path

import cv2
import docx
import numpy as np
import openpyxl
import pymupdf
import pytest

from engine.content.formulas import Formula
from engine.cli.main import main as cli_main
from engine.errors import InvalidOptions, OutputNotWritable
from engine.formats import EXPORT_FORMATS, OutputFormat, parse_formats
from engine.export.registry import ExportContext, export_document
from engine.output.markdown import render_markdown
from engine.output.writer import OutputWriter
from engine.types import Block, BlockKind, Box, DocumentResult, PageResult, TextSource

from engine_samples import write_text_pdf
from table_samples import table_of

FAST = ["--layout", "none", "--method", "txt"]
ALL = "md,json,pdf,docx,xlsx"


def scanned_result(tmp_path: Path, *blocks: Block) -> DocumentResult:
    """A result over a real image input (an OCR page), as the exporters receive it."""
    image = np.full((1400, 1000, 3), 255, np.uint8)
    cv2.putText(image, "Harvest", (100, 150), cv2.FONT_HERSHEY_SIMPLEX, 2, (0, 0, 0), 3)
    source = tmp_path / "harvest.png"
    cv2.imwrite(str(source), image)
    page = PageResult(1, 1000, 1400, 72, TextSource.OCR, "image input", blocks=blocks)
    return DocumentResult(str(source), "png", 1, (page,), markdown=render_markdown([page]))


def text_block(text: str, y: float = 100) -> Block:
    from engine.types import Line

    box = Box(100, y, 600, y + 40)
    return Block(BlockKind.TEXT, box, lines=(Line(text, box),), text=text)


def huge_table() -> str:
    rows = "".join("<tr>" + "".join(f"<td>{r * 100 + c}</td>" for c in range(100)) + "</tr>"
                   for r in range(100))
    return f"<table>{rows}</table>"


def test_formats_are_parsed_and_checked():
    assert parse_formats("xlsx, md,PDF,md") == (OutputFormat.MD, OutputFormat.PDF,
                                               OutputFormat.XLSX)
    with pytest.raises(InvalidOptions, match="Unknown output format 'odt'"):
        parse_formats("md,odt")
    with pytest.raises(InvalidOptions, match="No output format"):
        parse_formats(" , ")


def test_a_table_of_ten_thousand_cells(tmp_path):
    result = scanned_result(tmp_path, text_block("Harvest"),
                            Block(BlockKind.TABLE, Box(100, 200, 900, 1300),
                                  table=table_of(huge_table())))
    outcome = export_document(result, EXPORT_FORMATS, "harvest", ExportContext())
    assert set(outcome.files) == {"harvest.searchable.pdf", "harvest.docx", "harvest.xlsx",
                                  "harvest.alto.xml", "harvest.hocr"}
    (note,) = outcome.problems
    assert note.startswith("harvest.docx: table on page 1 of harvest.png has 100 columns, more "
                           "than the 63 a Word table holds; it is written as text")
    sheet = openpyxl.load_workbook(io.BytesIO(outcome.files["harvest.xlsx"])).worksheets[0]
    assert sheet.max_column == 100 and sheet.cell(3 + 99, 100).value == 9999
    document = docx.Document(io.BytesIO(outcome.files["harvest.docx"]))
    assert not document.tables and any(p.text.startswith("0 | 1 | 2") for p in document.paragraphs)


def test_a_formula_pandoc_cannot_convert(tmp_path):
    result = scanned_result(tmp_path, text_block("Harvest"),
                            Block(BlockKind.FORMULA, Box(100, 300, 600, 360),
                                  formula=Formula(r"\begin{harvest} x \end{harvest}")),
                            Block(BlockKind.FORMULA, Box(100, 400, 600, 460),
                                  formula=Formula(r"x^{2} + y^{2} = z^{2}")))
    outcome = export_document(result, EXPORT_FORMATS, "harvest", ExportContext())
    assert set(outcome.files) == {"harvest.searchable.pdf", "harvest.docx", "harvest.alto.xml",
                                  "harvest.hocr"}
    assert outcome.problems == (
        "harvest.docx: a formula of harvest.png could not be made a Word equation and is kept "
        "as LaTeX text: \\begin{harvest} x \\end{harvest}",
        "harvest.xlsx not written: No table was found in harvest.png, so no .xlsx was written.")
    document = docx.Document(io.BytesIO(outcome.files["harvest.docx"]))
    math = "{http://schemas.openxmlformats.org/officeDocument/2006/math}oMath"
    assert len(document.element.body.findall(f".//{math}")) == 1


def test_a_document_with_no_text_through_the_cli(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("PAPERLENS_CONFIG", str(tmp_path / "settings.json"))
    source = write_text_pdf(tmp_path / "blank.pdf", [[]])
    out = tmp_path / "out"
    code = cli_main(["convert", str(source), "-o", str(out), "--format", ALL, *FAST])
    err = capsys.readouterr().err
    assert code == 3, err
    assert "blank.docx not written: blank.pdf has no text, table or figure to put in a Word " \
        "document, so no .docx was written." in err
    assert "blank.xlsx not written: No table was found in blank.pdf" in err
    assert "blank.searchable.pdf: no text was found in blank.pdf" in err
    assert "blank.pdf: blank.docx, blank.xlsx not written" in err
    assert sorted(p.name for p in out.iterdir()) == [
        "blank.json", "blank.md", "blank.searchable.pdf", "blank_content_list.json"]


def test_born_digital_pages_are_copied_as_they_are(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("PAPERLENS_CONFIG", str(tmp_path / "settings.json"))
    source = write_text_pdf(tmp_path / "notes.pdf", [["Barley yields rose by 4%."],
                                                     ["Oats stayed level."]])
    out = tmp_path / "out"
    assert cli_main(["convert", str(source), "-o", str(out), "--format", "pdf,docx",
                     *FAST]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["notes.docx", "notes.searchable.pdf"]
    with pymupdf.open(source) as original, pymupdf.open(out / "notes.searchable.pdf") as ours:
        assert [p.get_text() for p in ours] == [p.get_text() for p in original]
        for theirs, mine in zip(original, ours):
            assert mine.read_contents() == theirs.read_contents()
    document = docx.Document(str(out / "notes.docx"))
    assert [p.text for p in document.paragraphs] == ["Barley yields rose by 4%.",
                                                    "Oats stayed level."]


def test_no_json_still_works_beside_format(tmp_path, monkeypatch):
    monkeypatch.setenv("PAPERLENS_CONFIG", str(tmp_path / "settings.json"))
    source = write_text_pdf(tmp_path / "notes.pdf", [["Barley yields rose."]])
    out = tmp_path / "out"
    assert cli_main(["convert", str(source), "-o", str(out), "--no-json", *FAST]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["notes.md", "notes_content_list.json"]


def test_a_full_disk_while_writing_exports_leaves_nothing(tmp_path, monkeypatch):
    result = scanned_result(tmp_path, text_block("Harvest"))
    out = tmp_path / "out"
    writer = OutputWriter(out, "harvest")
    outcome = export_document(result, (OutputFormat.PDF, OutputFormat.DOCX), "harvest",
                              ExportContext(resources=writer.staging))
    assert set(outcome.files) == {"harvest.searchable.pdf", "harvest.docx"}
    real_fsync, calls = os.fsync, []

    def full(fd):
        calls.append(fd)
        if len(calls) == 2:  # the second file: the .docx, after the PDF was staged
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(OutputNotWritable, match="No space left on device"):
        writer.commit({**outcome.files, "harvest.md": b"# Harvest\n"})
    assert list(out.iterdir()) == []


def test_the_same_document_gives_the_same_bytes(tmp_path):
    import time

    result = scanned_result(tmp_path, text_block("Harvest"),
                            Block(BlockKind.TABLE, Box(100, 200, 900, 400),
                                  table=table_of("<table><tr><td>Barley</td><td>1,234</td>"
                                                 "</tr></table>")))
    first = export_document(result, EXPORT_FORMATS, "harvest", ExportContext())
    time.sleep(1.1)  # the dates files like to carry are seconds
    second = export_document(result, EXPORT_FORMATS, "harvest", ExportContext())
    assert len(first.files) == 5 and first.files == second.files


def test_an_encrypted_pdf_gives_an_encrypted_searchable_pdf(tmp_path, monkeypatch):
    from engine_samples import write_encrypted_pdf

    monkeypatch.setenv("PAPERLENS_CONFIG", str(tmp_path / "settings.json"))
    source = write_encrypted_pdf(tmp_path / "secret.pdf", "Quarterly barley report", "user1",
                                 "owner1")
    out = tmp_path / "out"
    assert cli_main(["convert", str(source), "-o", str(out), "--format", "pdf", "--password",
                     "user1", *FAST]) == 0
    with pymupdf.open(out / "secret.searchable.pdf") as document:
        assert document.needs_pass
        assert document.authenticate("user1")
        assert document[0].get_text().strip() == "Quarterly barley report"
