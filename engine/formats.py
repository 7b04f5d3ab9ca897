"""The output formats a person can choose, and the error of an export that cannot be made."""

from __future__ import annotations

from enum import Enum

from engine.errors import InvalidOptions, PaperlensError


class OutputFormat(str, Enum):
    """What a conversion writes. md: the Markdown and its images; json: the JSON result and
    the content list; pdf: <name>.searchable.pdf; docx: <name>.docx; xlsx: <name>.xlsx;
    alto: <name>.alto.xml (ALTO 4); hocr: <name>.hocr."""

    MD = "md"
    JSON = "json"
    PDF = "pdf"
    DOCX = "docx"
    XLSX = "xlsx"
    ALTO = "alto"
    HOCR = "hocr"


DEFAULT_FORMATS = (OutputFormat.MD, OutputFormat.JSON)
EXPORT_FORMATS = (OutputFormat.PDF, OutputFormat.DOCX, OutputFormat.XLSX, OutputFormat.ALTO,
                  OutputFormat.HOCR)
"""The formats made from a finished document by engine/export (the others by engine/output)."""
EXPORT_SUFFIXES = {OutputFormat.PDF: ".searchable.pdf", OutputFormat.DOCX: ".docx",
                   OutputFormat.XLSX: ".xlsx", OutputFormat.ALTO: ".alto.xml",
                   OutputFormat.HOCR: ".hocr"}


class ExportFailed(PaperlensError):
    """One export format could not be made from this document (a table too large for it, a
    document with nothing that format holds, its converter failing); the other formats are
    still written. The message names the format and says why."""


def parse_formats(spec: str) -> tuple[OutputFormat, ...]:
    """'md,json,pdf' -> the formats in the canonical order, duplicates dropped."""
    names = [part.strip().lower() for part in spec.split(",") if part.strip()]
    if not names:
        raise InvalidOptions("No output format given; choose from "
                             f"{', '.join(f.value for f in OutputFormat)}.")
    chosen = set()
    for name in names:
        try:
            chosen.add(OutputFormat(name))
        except ValueError:
            raise InvalidOptions(f"Unknown output format {name!r}; choose from "
                                 f"{', '.join(f.value for f in OutputFormat)}.") from None
    return tuple(f for f in OutputFormat if f in chosen)


def format_flags(formats: tuple[OutputFormat, ...]) -> dict[str, object]:
    """ConvertOptions fields for the outputs the formats name (`--format`): JSON brings the
    content list with it."""
    json_wanted = OutputFormat.JSON in formats
    return {"write_markdown": OutputFormat.MD in formats, "write_json": json_wanted,
            "write_content_list": json_wanted,
            "exports": tuple(f for f in formats if f in EXPORT_FORMATS)}
