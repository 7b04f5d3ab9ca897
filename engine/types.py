"""The frozen data model every stage produces and every exporter reads."""

from __future__ import annotations

from dataclasses import dataclass, field, fields, is_dataclass
from enum import Enum
from typing import Any

from engine.content.crops import Crop
from engine.content.formulas import Formula
from engine.content.table_html import table_html
from engine.content.tables import Table


@dataclass(frozen=True)
class Box:
    """Axis-aligned box in page pixel coordinates (x0, y0) top-left, (x1, y1) bottom-right."""

    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def width(self) -> float:
        return self.x1 - self.x0

    @property
    def height(self) -> float:
        return self.y1 - self.y0

    @property
    def area(self) -> float:
        return max(0.0, self.width) * max(0.0, self.height)

    @property
    def center_y(self) -> float:
        return (self.y0 + self.y1) / 2

    @property
    def center_x(self) -> float:
        return (self.x0 + self.x1) / 2

    def union(self, other: "Box") -> "Box":
        return Box(min(self.x0, other.x0), min(self.y0, other.y0),
                   max(self.x1, other.x1), max(self.y1, other.y1))

    def intersection_area(self, other: "Box") -> float:
        w = min(self.x1, other.x1) - max(self.x0, other.x0)
        h = min(self.y1, other.y1) - max(self.y0, other.y0)
        return w * h if w > 0 and h > 0 else 0.0

    def share_inside(self, other: "Box") -> float:
        """The share of this box's area that lies inside `other` (0 for an empty box)."""
        area = self.area
        return self.intersection_area(other) / area if area > 0 else 0.0

    def scaled(self, factor: float) -> "Box":
        return Box(self.x0 * factor, self.y0 * factor, self.x1 * factor, self.y1 * factor)

    def as_list(self) -> list[float]:
        return [round(self.x0, 2), round(self.y0, 2), round(self.x1, 2), round(self.y1, 2)]


class TextSource(str, Enum):
    """Where a page's text came from."""

    TEXT_LAYER = "txt"
    OCR = "ocr"
    NATIVE = "native"
    """An Office document's own markup (engine/office): its pictures alone read by OCR. Its
    page boxes are notional: blocks stacked down the page in reading order, nothing measured."""


class BlockKind(str, Enum):
    """Shared vocabulary of block kinds across layout models and exporters."""

    TITLE = "title"
    SECTION_HEADER = "section_header"
    TEXT = "text"
    LIST_ITEM = "list_item"
    TABLE = "table"
    FORMULA = "formula"
    FIGURE = "figure"
    CAPTION = "caption"
    HEADER = "header"
    FOOTER = "footer"
    FOOTNOTE = "footnote"
    REFERENCE = "reference"
    CODE = "code"


@dataclass(frozen=True)
class Word:
    """One word of a line in page pixels: a run of letters, digits and punctuation between
    spaces, or one CJK character (CJK text has no spaces to split it by)."""

    text: str
    box: Box
    score: float | None = None
    """How sure the recogniser is of the word (the mean CTC probability of its characters);
    None where it gave none (a text layer, Tesseract's readings): its line's score stands."""


@dataclass(frozen=True)
class Line:
    """One line of text with its box, confidence (1.0 for a text layer) and font size in pixels."""

    text: str
    box: Box
    score: float = 1.0
    font_size: float = 0.0
    bold: bool = False
    vertical: bool = False
    """Text running up or down the page (rotated 90 degrees), e.g. a margin note."""
    slanted: bool = False
    """Text set at a slant, neither across nor up the page (a text layer's line direction): a
    draft's watermark over the page, a table's column heads turned 45 degrees."""
    words: tuple[Word, ...] = ()
    """OCR lines: the words of `text` in order, each on the pixels it was read from (the
    detector's box and the recogniser's CTC time steps, engine/ocr/word_boxes.py); empty when
    not known (text-layer lines keep the PDF's own geometry)."""
    monospaced: bool = False
    """Text-layer lines: set in a monospaced font (OCR lines: unknown, measured from their words
    by engine/structure/code.py)."""


@dataclass(frozen=True)
class Region:
    """One region of a page on its way to becoming blocks: what the layout model (or a formula
    stage) found, and what the model stages made of it. Stages never change a region: they
    return new ones (`dataclasses.replace`), so a result always travels with its region."""

    kind: BlockKind
    box: Box
    score: float = 1.0
    label: str = ""
    """The layout model's own class name ("" for regions a formula stage found)."""
    lines: tuple[Line, ...] = ()
    """The page's lines this region holds (set when the page is assembled)."""
    table: Table | None = None
    """Tables: the recognised cells (engine/content/tables.py)."""
    formula: Formula | None = None
    """Formulas: the reading (engine/content/formulas.py); None while not read, or unreadable."""
    crop: Crop | None = None
    """The crop written beside the Markdown (figures, unparsed tables, formulas without LaTeX
    or read doubtfully; engine/content/crops.py)."""


@dataclass(frozen=True)
class Span:
    """A piece of a block's text in reading order: plain text, or an inline formula (`latex`
    set; `text` is then the characters the page shows for it, which search and the searchable
    PDF keep)."""

    text: str
    latex: str = ""
    box: Box | None = None
    score: float = 1.0
    """Inline formulas: how sure the reading is (1.0 from a text layer's glyphs)."""


@dataclass(frozen=True)
class Block:
    kind: BlockKind
    box: Box
    lines: tuple[Line, ...] = ()
    text: str = ""
    score: float = 1.0
    level: int = 0
    """Heading level for titles and section headers (1 = top)."""
    table: Table | None = None
    """Tables: the recognised table's cells (engine/content/tables.py); None for a table kept
    as an image. The JSON writes it as `html` (engine/content/table_html.py)."""
    formula: Formula | None = None
    """Formulas: the LaTeX, its confidence and guard (engine/content/formulas.py), when the
    formula model could read the crop (an Office document's equation: its own LaTeX). The JSON
    writes it as `latex`, `latex_confidence` and `latex_guard`."""
    crop: Crop | None = None
    """Figures, unparsed tables, formulas without LaTeX or read with low confidence: the picture
    beside the Markdown (engine/content/crops.py). The JSON writes its path as `image_path`."""
    language: str = ""
    """Code: the listing's language where its lines make it clear (python, javascript, c)."""
    spans: tuple[Span, ...] = ()
    """The text as spans when it holds inline formulas (engine/formulas/inline.py); empty:
    `text` is plain text throughout."""
    table_pages: tuple[int, ...] = ()
    """A table joined across pages (engine/tables/across_pages.py): the pages it spans, this
    block's page first; `table` then holds the rows of every part. Empty: a table on one page."""
    continues_from_page: int = 0
    """A later part of a table joined across pages: the page whose block holds the whole table.
    The part keeps its own cells and lines (this page's searchable text) and is left out of the
    Markdown, the content list and the exports. 0: not a continuation."""

    @property
    def is_continuation(self) -> bool:
        return self.continues_from_page > 0

    @property
    def html(self) -> str:
        """The table as our HTML ("" when there is no table)."""
        return table_html(self.table) if self.table is not None else ""


class Status(str, Enum):
    """How completely a page (or a document) was read."""

    OK = "ok"
    PARTIAL = "partial"
    """Read, but a part could not be: e.g. formulas kept as images without a formula model, or
    (documents) some pages failed."""
    FAILED = "failed"
    """Nothing could be read: a stage raised (pages), or every page failed (documents)."""


@dataclass(frozen=True)
class PageError:
    """Why a page is not `ok`: the stage, the kind of error and a sentence for people."""

    stage: str
    kind: str
    """The exception's class name, e.g. CorruptDocument, RuntimeError, ModelUnavailable."""
    message: str


@dataclass(frozen=True)
class PageResult:
    page_number: int
    """1-based page number in the source document."""
    width: int
    height: int
    """Size in pixels of the analysed page image."""
    dpi: float
    text_source: TextSource
    text_source_reason: str
    blocks: tuple[Block, ...] = ()
    rotation: int = 0
    """Degrees the rendered page was turned (clockwise) before analysis; boxes refer to it."""
    warnings: tuple[str, ...] = ()
    timings_s: dict[str, float] = field(default_factory=dict)
    status: Status = Status.OK
    errors: tuple[PageError, ...] = ()
    handwriting: bool = False
    """The page looks mostly handwritten (engine/ocr/handwriting.py): its text comes from a
    recogniser trained on print and is likely wrong; a page warning says so."""
    scripts: tuple[str, ...] = ()
    """Scripts the OCR read lines in beyond the PP-OCR recogniser's Latin, Chinese and
    Japanese, with Tesseract (engine/ocr/script_reading.py); or the languages the user named."""
    page_outline: tuple[float, ...] = ()
    """A photographed page: its four corners in the input picture (x0, y0, ... x3, y3 clockwise
    from top-left), warped to the upright page of `width` x `height` the boxes refer to;
    empty when the page was read as given (engine/photo)."""
    flattened: bool = False
    """The photographed page's curl was flattened before reading (engine/photo/dewarp.py)."""


@dataclass(frozen=True)
class DocumentResult:
    path: str
    kind: str
    """Detected input kind: pdf, png, jpeg, tiff, ..."""
    page_count: int
    """Pages in the source document."""
    pages: tuple[PageResult, ...]
    markdown: str = ""
    outputs: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    timings_s: dict[str, float] = field(default_factory=dict)
    status: Status = Status.OK
    """ok when every page is ok, failed when every page failed, partial otherwise."""

    def to_json(self) -> dict[str, Any]:
        """Plain JSON-able dict (enums as their values, boxes as [x0, y0, x1, y1], content as
        `_content_json` writes it)."""
        return _jsonable(self)


def _content_json(name: str, item: Any) -> dict[str, Any] | None:
    """The JSON fields a block's typed content is written as (the names the JSON has always
    had): a table as its HTML, a formula as its LaTeX, confidence and guard, a crop as its
    path, each empty where the block has none; None for a field that is no content."""
    if name == "table":
        return {"html": table_html(item) if item is not None else ""}
    if name == "formula":
        return {"latex": item.latex if item is not None else "",
                "latex_confidence": _jsonable(item.confidence if item is not None else None),
                "latex_guard": item.guard if item is not None else ""}
    if name == "crop":
        return {"image_path": item.path if item is not None else ""}
    return None


def _jsonable(value: Any) -> Any:
    if isinstance(value, Box):
        return [round(getattr(value, k), 2) for k in ("x0", "y0", "x1", "y1")]
    if is_dataclass(value) and not isinstance(value, type):
        plain = {}
        for f in fields(value):
            item = getattr(value, f.name)
            content = _content_json(f.name, item)
            if content is not None:
                plain.update(content)
            else:
                plain[f.name] = _jsonable(item)
        return plain
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, float):
        return round(value, 4)
    return value


def document_status(pages: tuple[PageResult, ...] | list[PageResult]) -> Status:
    """ok when every page is ok, failed when there were pages and all failed, else partial."""
    if all(p.status is Status.OK for p in pages):
        return Status.OK
    if all(p.status is Status.FAILED for p in pages):
        return Status.FAILED
    return Status.PARTIAL
