"""The exporters by format, and one document's exports made together: each format on its own,
so a document one format cannot hold still gets the others."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from engine.errors import PaperlensError
from engine.formats import EXPORT_SUFFIXES, ExportFailed, OutputFormat
from engine.types import DocumentResult


@dataclass(frozen=True)
class ExportContext:
    password: str | None = None
    """Opens an encrypted input again (the searchable PDF is made from its pages)."""
    resources: Path | None = None
    """The folder the Markdown's image links are relative to (figures for the .docx)."""
    table_format: str = "html"


@dataclass(frozen=True)
class ExportOutcome:
    files: dict[str, bytes] = field(default_factory=dict)
    """File name -> content, in the order the formats were asked for."""
    problems: tuple[str, ...] = ()
    """One sentence per format that could not be made, or per part a format left out."""


Exporter = Callable[[DocumentResult, ExportContext], tuple[bytes, tuple[str, ...]]]


# The exporters import their libraries (fontTools, pandoc's wrapper, openpyxl, lxml) only when
# a document asks for their format: a conversion to Markdown alone never loads them.


def _pdf(result: DocumentResult, context: ExportContext) -> tuple[bytes, tuple[str, ...]]:
    from engine.export.page_words import page_lines
    from engine.export.searchable_pdf import OFFICE_KINDS, build_searchable_pdf

    notes: tuple[str, ...] = ()
    if result.kind not in OFFICE_KINDS and not any(
            line.text.strip() for page in result.pages for line in page_lines(page)):
        notes = (f"no text was found in {Path(result.path).name}; its searchable PDF has the "
                 "pages without a text layer",)
    return build_searchable_pdf(result, context.password), notes


def _docx(result: DocumentResult, context: ExportContext) -> tuple[bytes, tuple[str, ...]]:
    from engine.export.docx import build_docx

    return build_docx(result, context.resources, context.table_format)


def _xlsx(result: DocumentResult, context: ExportContext) -> tuple[bytes, tuple[str, ...]]:
    from engine.export.xlsx import build_xlsx

    return build_xlsx(result)


def _alto(result: DocumentResult, context: ExportContext) -> tuple[bytes, tuple[str, ...]]:
    from engine.export.alto import build_alto

    worded, notes = _with_words(result, context)
    return build_alto(worded), notes


def _hocr(result: DocumentResult, context: ExportContext) -> tuple[bytes, tuple[str, ...]]:
    from engine.export.hocr import build_hocr

    worded, notes = _with_words(result, context)
    return build_hocr(worded), notes


def _with_words(result: DocumentResult, context: ExportContext
                ) -> tuple[DocumentResult, tuple[str, ...]]:
    """The result with word boxes on its text-layer lines too, and what a reader of the
    positioned formats should know."""
    from engine.export.layer_words import with_layer_words
    from engine.export.positioned import straightened_pages

    worded, notes = with_layer_words(result, context.password)
    pages = straightened_pages(result)
    if pages:
        notes += (f"page(s) {', '.join(map(str, pages))} of {Path(result.path).name} were "
                  "photographed: their boxes are on the page as Paperlens straightened it, "
                  "not on the photograph",)
    return worded, notes


EXPORTERS: dict[OutputFormat, Exporter] = {
    OutputFormat.PDF: _pdf,
    OutputFormat.DOCX: _docx,
    OutputFormat.XLSX: _xlsx,
    OutputFormat.ALTO: _alto,
    OutputFormat.HOCR: _hocr,
}


def export_document(result: DocumentResult, formats: tuple[OutputFormat, ...], stem: str,
                    context: ExportContext) -> ExportOutcome:
    """Every asked-for export of a finished document, in memory. A format that cannot be made
    is named in `problems` and the others are made; errors about the whole run (cancellation,
    an output folder that cannot be written) still stop it."""
    files: dict[str, bytes] = {}
    problems: list[str] = []
    for fmt in formats:
        name = stem + EXPORT_SUFFIXES[fmt]
        try:
            data, notes = EXPORTERS[fmt](result, context)
        except ExportFailed as exc:
            problems.append(f"{name} not written: {exc.message}")
            continue
        except PaperlensError:
            raise
        except Exception as exc:  # a fault in an exporter loses that format, not the document
            problems.append(f"{name} not written: {type(exc).__name__}: {str(exc)[:200]} (an "
                            "internal error in Paperlens, not a fault of the document; please "
                            "report it)")
            continue
        files[name] = data
        problems.extend(f"{name}: {note}" for note in notes)
    return ExportOutcome(files, tuple(problems))
