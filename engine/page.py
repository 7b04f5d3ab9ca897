"""What is known about one page while its stages run: a frozen value each stage returns anew.

A stage is `stage(page, models) -> page`: it reads what earlier stages left and returns a copy
with its own results added (`dataclasses.replace`). Results travel on the regions
(`engine.types.Region`), so no stage keeps results in a side table or rewrites another stage's
list in place."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Protocol

import numpy as np

from engine.content.crops import Crop
from engine.imaging import turn_image
from engine.options import ConvertOptions
from engine.types import Block, Box, Line, PageError, PageResult, Region, Status, TextSource

# Crops get a little margin so strokes on the region's edge are not cut.
CROP_MARGIN_PX = 4

TURN_WARNING = "page was turned by {} degrees; read it upright"


class OpenDocument(Protocol):
    """What the page stages ask of the open input (engine/input/document.py's Document is it):
    page.py names no input module, so the input room's stages can build on this one."""

    @property
    def kind(self) -> Any:
        """The input's kind (engine/input/kinds.py's InputKind: `.is_paged`)."""

    @property
    def page_count(self) -> int: ...

    def render(self, page_number: int, dpi: int, max_side_px: int) -> Any:
        """The page as pixels (engine/input/document.py's RenderedPage)."""

    def pdf_page(self, page_number: int) -> Any:
        """A paged input's PyMuPDF page; None for any other input."""


@dataclass(frozen=True)
class PageState:
    document: OpenDocument
    page_number: int
    options: ConvertOptions
    image_prefix: str = "page"
    """Crops are written as images/<image_prefix>-<kind><n>.png."""
    image: np.ndarray | None = None
    dpi: float = 0.0
    scale: float = 1.0
    """Pixels of `image` per PDF point / 72 dpi unit of the source page."""
    rotation: int = 0
    """Degrees (clockwise) the rendered page was turned before analysis."""
    text_source: TextSource = TextSource.OCR
    text_source_reason: str = ""
    lines: tuple[Line, ...] = ()
    unread: tuple[Box, ...] = ()
    """Detected text lines that no kept line holds (OCR pages; boxes on the page as read)."""
    text_mask: np.ndarray | None = None
    """Where the text detector saw text on the page as read (bool, at its scale; OCR pages):
    engine/ocr/coverage.py finds the text no line holds there."""
    regions: tuple[Region, ...] | None = None
    """Layout regions and what the model stages made of them; None when layout is off."""
    blocks: tuple[Block, ...] = ()
    crops: tuple[tuple[str, np.ndarray], ...] = ()
    """Images to write next to the Markdown: (path relative to it, pixels)."""
    warnings: tuple[str, ...] = ()
    errors: tuple[PageError, ...] = ()
    handwriting: bool = False
    """Set by engine/ocr/handwriting.py when the page looks mostly handwritten."""
    page_outline: tuple[float, ...] = ()
    """A photographed page: its corners in the input picture (x, y clockwise from top-left),
    which engine/photo warped to the upright rectangle `image` is; empty otherwise."""
    flattened: bool = False
    """A photographed page whose curl engine/photo/dewarp.py flattened."""
    scripts: tuple[str, ...] = ()
    """Scripts the OCR read lines in beyond PP-OCR's own (engine/ocr/script_reading.py)."""
    timings_s: dict[str, float] = field(default_factory=dict)

    def warn(self, message: str) -> "PageState":
        return replace(self, warnings=self.warnings + (message,))

    def turned(self, rotation: int, image: np.ndarray) -> "PageState":
        """The page as read turned clockwise by `rotation` degrees (`image`), and saying so."""
        return replace(self, rotation=rotation, image=image).warn(TURN_WARNING.format(rotation))

    def as_given(self) -> "PageState":
        """The page back as the input gave it, when a stage finds the turn wrong: its image
        turned back, no turn warning, and no lines (they were read off the turned image)."""
        if not self.rotation:
            return self
        warning = TURN_WARNING.format(self.rotation)
        return replace(self, rotation=0, image=turn_image(self.image, -self.rotation), lines=(),
                       unread=(), text_mask=None,
                       warnings=tuple(w for w in self.warnings if w != warning))

    def crop_bounds(self, box: Box, margin: int = CROP_MARGIN_PX) -> tuple[int, int, int, int]:
        """The pixels `crop` takes for a box: x0, y0, x1, y1 with a small margin, on the page."""
        height, width = self.image.shape[:2]
        x0 = min(max(0, int(box.x0) - margin), width - 1)
        y0 = min(max(0, int(box.y0) - margin), height - 1)
        x1 = min(width, int(np.ceil(box.x1)) + margin)
        y1 = min(height, int(np.ceil(box.y1)) + margin)
        return x0, y0, max(x1, x0 + 1), max(y1, y0 + 1)

    def crop(self, box: Box, margin: int = CROP_MARGIN_PX) -> np.ndarray:
        """The box's pixels with `margin` around them (none: exactly the box, as the text
        detector crops its lines)."""
        x0, y0, x1, y1 = self.crop_bounds(box, margin)
        return np.ascontiguousarray(self.image[y0:y1, x0:x1])

    def with_crops(self, regions: Iterable[Region]) -> "PageState":
        """The page with the pixels of each of `regions`' crops among its images (a region
        without a crop adds none), cut from the page at the region's box."""
        added = tuple((r.crop.path, self.crop(r.box)) for r in regions if r.crop is not None)
        return replace(self, crops=self.crops + added) if added else self

    def region_lines(self, box: Box) -> list[Line]:
        """Lines mostly inside `box`, moved into the coordinates of its crop."""
        ox = max(0, int(box.x0) - CROP_MARGIN_PX)
        oy = max(0, int(box.y0) - CROP_MARGIN_PX)
        return [replace(line, box=Box(line.box.x0 - ox, line.box.y0 - oy, line.box.x1 - ox,
                                      line.box.y1 - oy))
                for line in self.lines if line.box.share_inside(box) >= 0.5]

    def result(self, failed: bool = False) -> PageResult:
        """The page for exporters: failed when a stage raised, partial when a stage recorded an
        error and went on, else ok."""
        height, width = self.image.shape[:2] if self.image is not None else (0, 0)
        status = Status.FAILED if failed else Status.PARTIAL if self.errors else Status.OK
        return PageResult(page_number=self.page_number, width=width, height=height, dpi=self.dpi,
                          text_source=self.text_source, text_source_reason=self.text_source_reason,
                          blocks=self.blocks, rotation=self.rotation, warnings=self.warnings,
                          timings_s=dict(self.timings_s), status=status, errors=self.errors,
                          handwriting=self.handwriting, scripts=self.scripts,
                          page_outline=self.page_outline, flattened=self.flattened)


@dataclass(frozen=True)
class PageOutcome:
    """What the document keeps of a page once its stages ran: the result, the crops to write
    beside the Markdown, and the picture when the layout overlay needs it. Plain data (no
    open document, no models), so a page read in another process travels back as it is."""

    result: PageResult
    crops: tuple[tuple[str, np.ndarray], ...] = ()
    image: np.ndarray | None = None


def keep_crop(page: PageState, region: Region, index: int) -> Region:
    """The region keeping its crop as an image beside the Markdown: it names the crop's path
    (`index`, the region's place among the page's regions, names the file); the stage then
    hands the region to `PageState.with_crops`, which adds the pixels."""
    return replace(region, crop=Crop(f"images/{page.image_prefix}-{region.kind.value}"
                                     f"{index + 1}.png"))


Stage = Callable[[PageState, "object"], PageState]
"""A page stage: (page, models) -> the page with this stage's results."""
