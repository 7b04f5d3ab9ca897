"""How one queued document is read: its pages and the reading switches, fixed when it is queued
(from the preferences then), kept with it across restarts, and turned into the engine's options
for its conversion. No Qt here."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from settings import LayoutModel, TableFormat

TABLE_FORMATS = tuple(f.value for f in TableFormat)
LAYOUT_MODELS = tuple(m.value for m in LayoutModel)  # the model.layout setting's values


def format_page_ranges(pages: tuple[int, ...]) -> str:
    """(1, 2, 3, 7) -> '1-3,7': runs of consecutive pages as ranges, what the CLI's --pages
    parser (engine.options.parse_page_ranges) reads back to the same pages."""
    parts: list[str] = []
    start = previous = None
    for page in (*pages, None):
        if page is not None and previous is not None and page == previous + 1:
            previous = page
            continue
        if start is not None:
            parts.append(str(start) if start == previous else f"{start}-{previous}")
        start = previous = page
    return ",".join(parts)


@dataclass(frozen=True)
class ReadingChoices:
    """The CLI's --pages, --keep-furniture, --tables, --inline-math, --layout, --[no-]dewarp
    and --lang for one document. The defaults are the settings' defaults."""

    pages: tuple[int, ...] | None = None
    """1-based pages to read, in order (engine.options.parse_page_ranges); None: every page."""
    keep_furniture: bool = False
    table_format: str = "html"
    inline_math: bool = True
    layout: str = "doclaynet"
    dewarp: bool = True
    languages: tuple[str, ...] = ()
    """Tesseract language codes every OCR line is read with, as --lang rus+eng; (): each
    line's script is found by itself."""

    def __post_init__(self) -> None:
        if self.table_format not in TABLE_FORMATS:
            raise ValueError(f"unknown table format {self.table_format!r}")
        if self.layout not in LAYOUT_MODELS:
            raise ValueError(f"unknown layout model {self.layout!r}")
        if self.pages is not None and (not self.pages or min(self.pages) < 1):
            raise ValueError(f"pages {self.pages!r} select no page")
        if not all(isinstance(code, str) and code for code in self.languages):
            raise ValueError(f"languages {self.languages!r} are not language codes")

    @classmethod
    def from_settings(cls, settings: Any, pages: tuple[int, ...] | None = None) -> "ReadingChoices":
        """The preferences' switches, with the page range typed for the documents added now."""
        output = settings.output
        return cls(pages=pages, keep_furniture=bool(output.keep_furniture),
                   table_format=str(output.table_format), inline_math=bool(output.inline_math),
                   layout=str(settings.model.layout), dewarp=bool(output.dewarp),
                   languages=tuple(settings.model.languages))

    def with_pages(self, pages: tuple[int, ...] | None) -> "ReadingChoices":
        return replace(self, pages=pages)

    @property
    def pages_text(self) -> str:
        """'1-3,7', or '' for every page."""
        return format_page_ranges(self.pages) if self.pages else ""

    @property
    def languages_text(self) -> str:
        """'rus+eng', or '' when each line's script is found by itself."""
        return "+".join(self.languages)

    def option_values(self) -> dict[str, Any]:
        """engine.options.ConvertOptions fields: these choices win over the settings."""
        from engine.api import parse_layout

        return {"pages": self.pages, "keep_furniture": self.keep_furniture,
                "table_format": self.table_format, "inline_math": self.inline_math,
                "layout_model": parse_layout(self.layout), "dewarp": self.dewarp,
                "languages": self.languages}

    def record(self) -> dict[str, Any]:
        """As the queue file keeps it."""
        return {"pages": list(self.pages) if self.pages else None,
                "keep_furniture": self.keep_furniture, "table_format": self.table_format,
                "inline_math": self.inline_math, "layout": self.layout, "dewarp": self.dewarp,
                "languages": list(self.languages)}

    @classmethod
    def from_record(cls, record: Any) -> "ReadingChoices":
        """From the queue file (TypeError or ValueError when malformed); a record of an older
        queue file without choices: every page, the settings' defaults."""
        if record is None:
            return cls()
        if not isinstance(record, dict):
            raise TypeError(f"reading choices are {type(record).__name__}, not an object")
        pages = record.get("pages")
        return cls(pages=tuple(int(p) for p in pages) if pages else None,
                   keep_furniture=bool(record.get("keep_furniture", False)),
                   table_format=str(record.get("table_format", "html")),
                   inline_math=bool(record.get("inline_math", True)),
                   layout=str(record.get("layout", "doclaynet")),
                   dewarp=bool(record.get("dewarp", True)),
                   languages=tuple(str(code) for code in record.get("languages") or ()))
