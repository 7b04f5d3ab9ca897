"""Frozen, validated conversion options: built once at the boundary, read by the engine."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from engine.errors import InvalidOptions
from engine.formats import EXPORT_FORMATS, OutputFormat


class TextMethod(str, Enum):
    AUTO = "auto"
    TXT = "txt"
    OCR = "ocr"


class TablesAcrossPages(str, Enum):
    """What becomes of a table that goes on at the head of the next page."""

    JOIN = "join"
    """One table on its first page (engine/tables/across_pages.py)."""
    KEEP = "keep"
    """One table per page, as each page shows it."""


MIN_DPI = 50
MAX_DPI = 600
DEFAULT_DPI = 200
# A page image never exceeds this many pixels on its long side: a 5 m poster at 200 dpi would be
# ~39000 px (4.6 GB as RGB). 4000 px keeps A4 at 200 dpi (2339 px) untouched.
DEFAULT_MAX_SIDE_PX = 4000


@dataclass(frozen=True)
class ConvertOptions:
    output_dir: str | None = None
    """Folder for <name>.md / <name>.json; None = return the result without writing."""
    pages: tuple[int, ...] | None = None
    """1-based page numbers to process, in order; None = all."""
    method: TextMethod = TextMethod.AUTO
    password: str | None = None
    dpi: int = DEFAULT_DPI
    max_side_px: int = DEFAULT_MAX_SIDE_PX
    write_json: bool = True
    output_name: str | None = None
    """File stem for the outputs; None = the input's stem. When a file of that name is in the
    folder already, or another run is writing it, the outputs take the next free name
    (`<name>-2`, ...) and the result's `outputs` say which (engine/output/writer.py)."""
    overwrite: bool = False
    """Replace the files of `output_name` left by an earlier run instead of taking a new name
    (the CLI's --overwrite; the service, whose job folder is its own)."""
    layout_model: str | None = "yolov8n-doclaynet"
    """Model id of the layout model; None = paragraphs by geometry only."""
    table_format: str = "html"
    """html, or markdown (GFM pipe tables where no cell is merged)."""
    keep_furniture: bool = False
    """Keep running headers, footers and page numbers in the Markdown."""
    write_content_list: bool = True
    """Write <name>_content_list.json (blocks in reading order, MinerU-style)."""
    write_layout_overlay: bool = False
    """Write <name>_layout.pdf with the regions drawn on each page."""
    formula_image: bool = False
    """Read every image input as one formula (as pix2tex does). False: an image input is read as
    a formula only when it looks like one (engine.recipe.recognize_formula_image)."""
    write_markdown: bool = True
    """Write <name>.md and the images it links to."""
    exports: tuple[OutputFormat, ...] = ()
    """Formats made from the finished document besides Markdown and JSON (engine/export):
    pdf (<name>.searchable.pdf), docx, xlsx."""
    dewarp: bool = True
    """A photographed page found on its background is straightened and its curl flattened
    before reading (engine/photo); False reads every picture as given."""
    inline_math: bool = True
    """Formulas inside running text written as `$...$` (engine/formulas/inline.py); False
    keeps such text as the page spells it (the CLI's --inline-math off)."""
    languages: tuple[str, ...] = ()
    """Tesseract language codes the OCR reads every line with ("rus", "eng"), as Tesseract's
    `-l rus+eng`; empty: scripts found line by line (engine/ocr/script_reading.py)."""
    tables_across_pages: TablesAcrossPages = TablesAcrossPages.JOIN
    """A table that ends at the foot of a page and goes on at the head of the next (the same
    columns, or its header repeated) is one table (join), or one per page (keep; the CLI's
    --tables-across-pages keep)."""

    def __post_init__(self) -> None:
        if not MIN_DPI <= self.dpi <= MAX_DPI:
            raise InvalidOptions(f"DPI {self.dpi} is out of range; use {MIN_DPI} to {MAX_DPI}.")
        if self.max_side_px < 256:
            raise InvalidOptions("The page size cap must be at least 256 pixels.")
        if self.table_format not in ("html", "markdown"):
            raise InvalidOptions(f"Unknown table format {self.table_format!r}; use html or "
                                 "markdown.")
        if not isinstance(self.method, TextMethod):
            object.__setattr__(self, "method", parse_method(str(self.method)))
        if not isinstance(self.tables_across_pages, TablesAcrossPages):
            object.__setattr__(self, "tables_across_pages",
                               parse_tables_across_pages(str(self.tables_across_pages)))
        unknown = [f for f in self.exports if f not in EXPORT_FORMATS]
        if unknown:
            raise InvalidOptions(f"{getattr(unknown[0], 'value', unknown[0])} is not an export "
                                 "format; use "
                                 f"{', '.join(f.value for f in EXPORT_FORMATS)}.")


# The `model.layout` setting's values and the manifest ids of the models they name.
LAYOUT_MODELS = {"doclaynet": "yolov8n-doclaynet", "cdla": "cdla-picodet", "none": None}


def parse_layout(value: str) -> str | None:
    try:
        return LAYOUT_MODELS[value]
    except KeyError:
        raise InvalidOptions(f"Unknown layout model {value!r}; use "
                             f"{', '.join(LAYOUT_MODELS)}.") from None


def parse_method(value: str) -> TextMethod:
    try:
        return TextMethod(value)
    except ValueError:
        raise InvalidOptions(f"Unknown text method {value!r}; use auto, txt or ocr.") from None


def parse_tables_across_pages(value: str) -> TablesAcrossPages:
    try:
        return TablesAcrossPages(value)
    except ValueError:
        raise InvalidOptions(f"Unknown choice {value!r} for tables across pages; use join or "
                             "keep.") from None


def parse_languages(spec: str) -> tuple[str, ...]:
    """'rus+eng' -> ("rus", "eng"): Tesseract language codes, as its `-l` takes them."""
    codes = tuple(code.strip() for code in spec.split("+") if code.strip())
    if not codes or not all(code.replace("_", "").isalnum() and code.isascii() for code in codes):
        raise InvalidOptions(f"Unknown languages {spec!r}; give Tesseract language codes joined "
                             "by +, e.g. rus+eng.")
    return codes


def parse_page_ranges(spec: str) -> tuple[int, ...]:
    """'1-3,7' -> (1, 2, 3, 7). 1-based, order kept, duplicates dropped."""
    pages: list[int] = []
    seen: set[int] = set()
    for part in spec.split(","):
        part = part.strip()
        if not part:
            continue
        try:
            if "-" in part:
                lo_s, hi_s = part.split("-", 1)
                lo, hi = int(lo_s), int(hi_s)
            else:
                lo = hi = int(part)
        except ValueError:
            raise InvalidOptions(f"Page range {spec!r} is not valid; write it like 1-3,7.") from None
        if lo < 1:
            raise InvalidOptions(f"Page range {part!r} is not valid; pages start at 1.")
        if hi < lo:
            raise InvalidOptions(f"Page range {part!r} runs backwards; write it as {hi}-{lo}.")
        for p in range(lo, hi + 1):
            if p not in seen:
                seen.add(p)
                pages.append(p)
    if not pages:
        raise InvalidOptions(f"Page range {spec!r} selects no page.")
    return tuple(pages)


def options_from_settings(settings, **overrides) -> ConvertOptions:
    """The conversion options the user's settings ask for; `overrides` win (CLI flags, dialogs)."""
    values = dict(
        write_json=bool(settings.output.write_json),
        table_format=str(settings.output.table_format),
        keep_furniture=bool(settings.output.keep_furniture),
        inline_math=bool(settings.output.inline_math),
        dewarp=bool(settings.output.dewarp),
        tables_across_pages=str(settings.output.tables_across_pages),
        layout_model=parse_layout(str(settings.model.layout)),
        languages=tuple(settings.model.languages),
    )
    values.update(overrides)
    return ConvertOptions(**values)
