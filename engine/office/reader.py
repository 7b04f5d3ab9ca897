"""An Office document read into pages of parts (engine/office/model.py), after its package was
screened (engine/office/container.py): text documents (DOCX, ODT) through pandoc,
workbooks through openpyxl, presentations through python-pptx, OpenDocument spreadsheets and
presentations from their content.xml. Runs in the bounded identification child
(engine/input/probe_child.py); a reader's own failure is a CorruptDocument naming the file."""

from __future__ import annotations

from pathlib import Path

from engine.errors import CorruptDocument, PaperlensError
from engine.office.container import screen_container
from engine.office.model import OfficeDocument


def read_office(path: Path, kind: str) -> OfficeDocument:
    screen_container(path)
    try:
        if kind in ("docx", "odt"):
            from engine.office.word import read_text_document

            document = read_text_document(path, kind)
        elif kind == "xlsx":
            from engine.office.sheets import read_workbook

            document = read_workbook(path)
        elif kind == "pptx":
            from engine.office.slides import read_presentation

            document = read_presentation(path)
        elif kind == "ods":
            from engine.office.opendocument import read_spreadsheet

            document = read_spreadsheet(path)
        else:
            from engine.office.opendocument import read_presentation_odp

            document = read_presentation_odp(path)
    except (PaperlensError, MemoryError):
        raise
    except Exception as exc:  # the libraries' own errors on a damaged part
        raise CorruptDocument(f"{path.name} is damaged and cannot be read as a {kind.upper()} "
                              f"document ({type(exc).__name__}: {str(exc)[:160]}); open and "
                              "save it again in its application.") from None
    if not document.pages:
        raise CorruptDocument(f"{path.name} holds no slide, sheet or text to read.")
    return document
