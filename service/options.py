"""A job's options: read from the request's form fields, checked once, resolved against the
settings at submission (so a job resumed after a restart reads its pages as it began), and
turned into the engine's ConvertOptions by the worker."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Mapping

from engine.api import (DEFAULT_DPI, LAYOUT_MODELS, MAX_DPI, MIN_DPI, ConvertOptions,
                        InvalidOptions, OutputFormat, TablesAcrossPages, TextMethod,
                        options_from_settings, parse_layout, parse_method, parse_page_ranges,
                        parse_tables_across_pages)

FORMATS = ("md", "json", "content_list", "pdf", "docx", "xlsx", "alto", "hocr")
"""md, json and content_list as the CLI writes them; pdf (the searchable PDF), docx, xlsx,
alto and hocr are the exports of engine/export."""
EXPORTS = ("pdf", "docx", "xlsx", "alto", "hocr")
METHODS = tuple(m.value for m in TextMethod)
TABLES = ("html", "markdown")
TABLES_ACROSS_PAGES = tuple(t.value for t in TablesAcrossPages)
OPTION_FIELDS = ("pages", "method", "layout", "tables", "formats", "dpi", "keep_furniture",
                 "inline_math", "tables_across_pages")
"""Every form field a job may carry besides its files; any other field is refused."""
FILE_FIELDS = ("files", "file", "paths")
_TRUE, _FALSE = ("1", "true", "yes", "on"), ("0", "false", "no", "off")


@dataclass(frozen=True)
class JobOptions:
    pages: str | None
    """Page ranges as given (e.g. "1-3,7"), applied to every file; None = all pages."""
    method: str
    layout: str
    tables: str
    formats: tuple[str, ...]
    dpi: int
    keep_furniture: bool
    inline_math: bool = True
    """Formulas inside running text as $...$; false keeps the text as the page spells it."""
    tables_across_pages: str = TablesAcrossPages.JOIN.value
    """join: a table going on at the head of the next page is one table; keep: one per page."""

    def page_numbers(self) -> tuple[int, ...] | None:
        return parse_page_ranges(self.pages) if self.pages else None

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["formats"] = list(self.formats)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "JobOptions":
        return cls(**{**data, "formats": tuple(data["formats"])})


def unknown_fields(names: list[str]) -> list[str]:
    return sorted({n for n in names if n not in OPTION_FIELDS and n not in FILE_FIELDS})


def parse_options(fields: Mapping[str, str | None], settings) -> JobOptions:
    """The options of a request; InvalidOptions names the field, what it got and what it takes.

    Defaults are the settings' (layout model, table format, JSON output), as for the CLI."""
    pages = _text(fields, "pages")
    if pages is not None:
        _named("pages", parse_page_ranges, pages)
    method = _text(fields, "method") or "auto"
    _named("method", parse_method, method)
    layout = _text(fields, "layout") or str(settings.model.layout)
    _named("layout", parse_layout, layout)
    tables = _text(fields, "tables") or str(settings.output.table_format)
    if tables not in TABLES:
        raise InvalidOptions(f"tables: unknown table format {tables!r}; use html or markdown.")
    formats = _formats(_text(fields, "formats"), bool(settings.output.write_json))
    dpi = _integer(fields, "dpi", DEFAULT_DPI)
    if not MIN_DPI <= dpi <= MAX_DPI:
        raise InvalidOptions(f"dpi: {dpi} is out of range; use {MIN_DPI} to {MAX_DPI}.")
    across = _text(fields, "tables_across_pages") or TablesAcrossPages.JOIN.value
    _named("tables_across_pages", parse_tables_across_pages, across)
    return JobOptions(pages=pages, method=method, layout=layout, tables=tables, formats=formats,
                      dpi=dpi, keep_furniture=_boolean(fields, "keep_furniture"),
                      inline_math=_boolean(fields, "inline_math", default=True),
                      tables_across_pages=across)


def convert_options(options: JobOptions, settings, stem: str,
                    output_dir: str | None = None) -> ConvertOptions:
    """What the engine is given: the settings' options with the job's own on top, the way
    the CLI builds them from its flags, so the same file gives the same bytes."""
    return options_from_settings(
        settings, output_dir=output_dir, pages=options.page_numbers(),
        method=parse_method(options.method), dpi=options.dpi,
        write_json="json" in options.formats, output_name=stem,
        # The job's output folder is the service's own, and its pages' images are already
        # named after `stem`: a retried assembly replaces what an earlier attempt left.
        overwrite=True,
        layout_model=parse_layout(options.layout), table_format=options.tables,
        keep_furniture=options.keep_furniture, inline_math=options.inline_math,
        tables_across_pages=parse_tables_across_pages(options.tables_across_pages),
        write_content_list="content_list" in options.formats,
        exports=tuple(OutputFormat(f) for f in options.formats if f in EXPORTS))


def _named(name: str, parse, value: str) -> None:
    try:
        parse(value)
    except InvalidOptions as exc:
        raise InvalidOptions(f"{name}: {exc.message}") from None


def _text(fields: Mapping[str, str | None], name: str) -> str | None:
    value = fields.get(name)
    if value is None:
        return None
    if not isinstance(value, str):
        raise InvalidOptions(f"{name}: expected text, got a file.")
    value = value.strip()
    return value or None


def _integer(fields: Mapping[str, str | None], name: str, default: int) -> int:
    value = _text(fields, name)
    if value is None:
        return default
    try:
        return int(value)
    except ValueError:
        raise InvalidOptions(f"{name}: expected a whole number, got {value[:40]!r}.") from None


def _boolean(fields: Mapping[str, str | None], name: str, default: bool = False) -> bool:
    value = _text(fields, name)
    if value is None:
        return default
    if value.lower() in _TRUE:
        return True
    if value.lower() in _FALSE:
        return False
    raise InvalidOptions(f"{name}: expected true or false, got {value[:40]!r}.")


def _formats(value: str | None, json_by_default: bool) -> tuple[str, ...]:
    if value is None:
        return ("md", "json", "content_list") if json_by_default else ("md", "content_list")
    chosen = [part.strip() for part in value.split(",") if part.strip()]
    unknown = [part for part in chosen if part not in FORMATS]
    if unknown or not chosen:
        raise InvalidOptions(f"formats: unknown format {(unknown or [value])[0]!r}; use a comma-"
                             f"separated list of {', '.join(FORMATS)}.")
    # The Markdown is always written: the engine moves it into place last, as the sign that
    # every file it links to is there.
    return tuple(f for f in FORMATS if f == "md" or f in chosen)


def describe_choices() -> dict[str, Any]:
    """For the API documentation."""
    return {"method": list(METHODS), "layout": list(LAYOUT_MODELS), "tables": list(TABLES),
            "tables_across_pages": list(TABLES_ACROSS_PAGES),
            "formats": list(FORMATS), "dpi": [MIN_DPI, MAX_DPI]}
