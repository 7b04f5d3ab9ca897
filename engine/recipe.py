"""The journey of a page, as one ordered list of stages. Adding a stage is one line."""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from engine.input.document import Document
from engine.formulas.reading import UNAVAILABLE_WARNING, FormulaReading, looks_like_math
from engine.imaging import ink_bounds, pad_on_white
from engine.formulas.loose_lines import display_lines, math_groups
from engine.models.roles import ModelSet
from engine.options import ConvertOptions, TextMethod
from engine.structure.assembly import Region, RegionContent, assemble_page
from engine.input.text_layer import assess_text_layer, extract_lines
from engine.types import Block, BlockKind, Box, Line, PageResult, TextSource

# Crops get a little margin so strokes on the region's edge are not cut.
CROP_MARGIN_PX = 4
# Image inputs smaller than this (cropped tables, single lines) get a white margin around them
# for layout analysis: with the crop on a canvas 1.5 times its size all 10 PubTabNet crops of
# the dev set are found as tables (8 of 10 without).
SMALL_IMAGE_PX = 1200
SMALL_IMAGE_MARGIN_FACTOR = 1.5


@dataclass
class PageWork:
    """Mutable working state of one page while its stages run (never leaves the engine)."""

    document: Document
    page_number: int
    options: ConvertOptions
    image: np.ndarray | None = None
    dpi: float = 0.0
    scale: float = 1.0
    text_source: TextSource = TextSource.OCR
    text_source_reason: str = ""
    lines: list[Line] = field(default_factory=list)
    blocks: list[Block] = field(default_factory=list)
    rotation: int = 0
    regions: list[Region] | None = None
    """Layout regions, or None when layout analysis is off."""
    content: RegionContent = field(default_factory=RegionContent)
    crops: dict[str, np.ndarray] = field(default_factory=dict)
    """Images to write next to the Markdown, by path relative to it."""
    image_prefix: str = "page"
    warnings: list[str] = field(default_factory=list)
    timings_s: dict[str, float] = field(default_factory=dict)

    def crop_bounds(self, box: Box) -> tuple[int, int, int, int]:
        """The pixels `crop` takes for a box: x0, y0, x1, y1 with a small margin, on the page."""
        height, width = self.image.shape[:2]
        x0 = max(0, int(box.x0) - CROP_MARGIN_PX)
        y0 = max(0, int(box.y0) - CROP_MARGIN_PX)
        x1 = min(width, int(np.ceil(box.x1)) + CROP_MARGIN_PX)
        y1 = min(height, int(np.ceil(box.y1)) + CROP_MARGIN_PX)
        return x0, y0, max(x1, x0 + 1), max(y1, y0 + 1)

    def crop(self, box: Box) -> np.ndarray:
        x0, y0, x1, y1 = self.crop_bounds(box)
        return np.ascontiguousarray(self.image[y0:y1, x0:x1])

    def keep_crop(self, index: int, kind: BlockKind, box: Box) -> str:
        path = f"images/{self.image_prefix}-{kind.value}{index + 1}.png"
        self.crops[path] = self.crop(box)
        self.content.image_paths[index] = path
        return path

    def region_lines(self, box: Box) -> list[Line]:
        """Lines mostly inside `box`, moved into the coordinates of its crop."""
        ox = max(0, int(box.x0) - CROP_MARGIN_PX)
        oy = max(0, int(box.y0) - CROP_MARGIN_PX)
        inside = []
        for line in self.lines:
            if line.box.area > 0 and line.box.intersection_area(box) / line.box.area >= 0.5:
                moved = Box(line.box.x0 - ox, line.box.y0 - oy, line.box.x1 - ox, line.box.y1 - oy)
                inside.append(Line(line.text, moved, line.score, line.font_size, line.bold,
                                   line.vertical))
        return inside

    def indices(self, kind: BlockKind) -> list[int]:
        return [i for i, r in enumerate(self.regions or []) if r.kind is kind]

    def result(self) -> PageResult:
        height, width = self.image.shape[:2] if self.image is not None else (0, 0)
        return PageResult(page_number=self.page_number, width=width, height=height, dpi=self.dpi,
                          text_source=self.text_source, text_source_reason=self.text_source_reason,
                          blocks=tuple(self.blocks), rotation=self.rotation,
                          warnings=tuple(self.warnings), timings_s=dict(self.timings_s))


def render(work: PageWork, models: ModelSet) -> None:
    rendered = work.document.render(work.page_number, work.options.dpi, work.options.max_side_px)
    work.image, work.dpi, work.scale = rendered.image, rendered.dpi, rendered.scale
    work.warnings.extend(rendered.warnings)
    damage = work.document.damage(work.page_number)
    if damage:
        work.warnings.append(damage)


def choose_text_source(work: PageWork, models: ModelSet) -> None:
    """The text layer when it is real (or forced), otherwise OCR; the reason is kept."""
    page = work.document.pdf_page(work.page_number)
    method = work.options.method
    if page is None:
        work.text_source, work.text_source_reason = TextSource.OCR, "image input"
        return
    if method is TextMethod.OCR:
        work.text_source, work.text_source_reason = TextSource.OCR, "OCR requested"
        return
    verdict = assess_text_layer(page)
    if method is TextMethod.TXT:
        work.text_source = TextSource.TEXT_LAYER
        work.text_source_reason = "text layer requested"
        if not verdict.usable:
            work.warnings.append(f"text layer forced although: {verdict.reason}")
    elif verdict.usable:
        work.text_source, work.text_source_reason = TextSource.TEXT_LAYER, verdict.reason
    else:
        work.text_source, work.text_source_reason = TextSource.OCR, verdict.reason
    if work.text_source is TextSource.TEXT_LAYER:
        work.lines = extract_lines(page, work.scale)


def recognize_text(work: PageWork, models: ModelSet) -> None:
    if work.text_source is not TextSource.OCR:
        return
    outcome = models.page_reader().read(work.image)
    work.lines = outcome.lines
    if outcome.page_rotated_180:
        work.rotation = 180
        work.image = np.ascontiguousarray(work.image[::-1, ::-1])
        work.warnings.append("page was upside down; read it turned by 180 degrees")


def detect_layout(work: PageWork, models: ModelSet) -> None:
    if work.options.layout_model is None:
        return
    detector = models.layout_detector(work.options.layout_model)
    image, ox, oy = work.image, 0, 0
    if not work.document.kind.is_paged and max(image.shape[:2]) < SMALL_IMAGE_PX:
        # A cropped table or text line has no page margins; the layout models were trained on
        # whole pages and miss such crops (2 of 10 PubTabNet crops) unless given some margin.
        image, ox, oy = pad_on_white(image, SMALL_IMAGE_MARGIN_FACTOR)
    height, width = work.image.shape[:2]
    work.regions = []
    for r in detector.detect(image):
        box = Box(max(0.0, r.box.x0 - ox), max(0.0, r.box.y0 - oy), min(float(width), r.box.x1 - ox),
                  min(float(height), r.box.y1 - oy))
        if box.width > 0 and box.height > 0:
            work.regions.append(Region(r.kind, box, r.score))


def recognize_tables(work: PageWork, models: ModelSet) -> None:
    tables = work.indices(BlockKind.TABLE)
    if not tables:
        return
    recognizer = models.table_recognizer()
    for i in tables:
        box = work.regions[i].box
        result = recognizer.recognize(work.crop(box), work.region_lines(box))
        if result.ok:
            work.content.table_html[i] = result.html
        else:
            work.keep_crop(i, BlockKind.TABLE, box)
            work.warnings.append(f"a table could not be parsed ({result.reason}); kept as an "
                                 "image with its text")


def recognize_formula_image(work: PageWork, models: ModelSet) -> None:
    """An image input that is one formula (a crop, a screenshot: what pix2tex is given) becomes
    one formula region around its ink.

    Layout models trained on pages label such images at random (formula, heading, figure or
    nothing), so this looks at what the formula model makes of the ink instead. It is taken as a
    formula when the layout found at most one region, no table or formula among them, and the
    reading is confident (not `low_confidence`) and holds math, not just styled text: the model
    also reads text lines, sometimes confidently. `ConvertOptions.formula_image` takes any image
    input as one formula."""
    forced = work.options.formula_image
    if work.document.kind.is_paged or (not forced and not _may_be_formula_image(work.regions,
                                                                                 work.lines)):
        return
    bounds = ink_bounds(work.image)
    recognizer = models.formula_recognizer()
    if bounds is None or recognizer is None:
        return
    box = Box(*map(float, bounds))
    reading = recognizer.read([work.crop(box)])[0]
    looks_like_formula = (reading is not None and not reading.low_confidence
                          and looks_like_math(reading.latex))
    if reading is None or not (forced or looks_like_formula):
        return
    work.regions = [Region(BlockKind.FORMULA, box, reading.confidence)]
    keep_reading(work, 0, reading)


FORMULA_IMAGE_MAX_LINES = 8
FORMULA_IMAGE_MAX_WORDS = 5
_WORD = re.compile(r"[^\W\d_]{4,}")
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]")


def _may_be_formula_image(regions: list[Region] | None, lines: list[Line]) -> bool:
    """Layout ran and found at most one region, and no table or formula; and the OCR text is not
    prose (a scanned page of text is one layout region too, and reading its whole ink as a
    formula costs a third of a second for nothing). Chinese, Japanese or Korean text is never
    a formula."""
    if regions is None or len(regions) > 1 or any(
            r.kind in (BlockKind.TABLE, BlockKind.FORMULA) for r in regions):
        return False
    if any(_CJK.search(line.text) for line in lines):
        return False
    words = sum(len(_WORD.findall(line.text)) for line in lines)
    return len(lines) <= FORMULA_IMAGE_MAX_LINES and words <= FORMULA_IMAGE_MAX_WORDS


def find_math_lines(work: PageWork, models: ModelSet) -> None:
    """Display formulas the layout model left as loose lines become formula regions, when the
    formula model reads them confidently as math (engine/formulas/loose_lines.py). A group whose ink
    falls into separate lines (two equations one above the other) is one region per line."""
    if work.regions is None or not work.lines:
        return
    boxes = [line for group in math_groups(work.lines, [r.box for r in work.regions])
             for line in display_lines(group, work.crop(group), work.crop_bounds(group)[:2])]
    recognizer = models.formula_recognizer() if boxes else None
    if recognizer is None:
        return
    readings = recognizer.read([work.crop(box) for box in boxes])
    for box, reading in zip(boxes, readings):
        if reading is None or reading.low_confidence or not looks_like_math(reading.latex):
            continue
        work.regions.append(Region(BlockKind.FORMULA, box, reading.confidence))
        keep_reading(work, len(work.regions) - 1, reading)


def recognize_formulas(work: PageWork, models: ModelSet) -> None:
    formulas = [i for i in work.indices(BlockKind.FORMULA) if i not in work.content.latex]
    if not formulas:
        return
    recognizer = models.formula_recognizer()
    readings: list[FormulaReading | None] = [None] * len(formulas)
    if recognizer is None:
        work.warnings.append(UNAVAILABLE_WARNING)
    else:
        readings = recognizer.read([work.crop(work.regions[i].box) for i in formulas])
    for i, reading in zip(formulas, readings):
        keep_reading(work, i, reading)


def keep_reading(work: PageWork, index: int, reading: FormulaReading | None) -> None:
    """A formula region's LaTeX, and its image too when there is no LaTeX or it is doubtful:
    a formula is never lost, and a doubtful reading can be checked against the original."""
    if reading is not None:
        work.content.latex[index] = reading.latex
        work.content.latex_confidence[index] = reading.confidence
    if reading is None or reading.low_confidence:
        work.keep_crop(index, BlockKind.FORMULA, work.regions[index].box)


def crop_figures(work: PageWork, models: ModelSet) -> None:
    for i in work.indices(BlockKind.FIGURE):
        work.keep_crop(i, BlockKind.FIGURE, work.regions[i].box)


def assemble_blocks(work: PageWork, models: ModelSet) -> None:
    height, width = work.image.shape[:2]
    work.blocks = assemble_page(work.lines, work.regions, work.content, float(height * width))


Stage = Callable[[PageWork, ModelSet], None]

PAGE_STAGES: tuple[tuple[str, Stage], ...] = (
    ("render", render),
    ("text_layer", choose_text_source),
    ("ocr", recognize_text),
    ("layout", detect_layout),
    ("formula_image", recognize_formula_image),
    ("math_lines", find_math_lines),
    ("table", recognize_tables),
    ("formula", recognize_formulas),
    ("figures", crop_figures),
    ("blocks", assemble_blocks),
)


def run_page(work: PageWork, models: ModelSet, check_cancel: Callable[[], None]) -> PageResult:
    """Run every stage in order, timing each; pure inference time is recorded per model role."""
    before = models.clock_snapshot()
    for name, stage in PAGE_STAGES:
        check_cancel()
        start = time.perf_counter()
        stage(work, models)
        work.timings_s[name] = time.perf_counter() - start
    after = models.clock_snapshot()
    for role, seconds in after.items():
        spent = seconds - before.get(role, 0.0)
        if spent > 0:
            work.timings_s[f"onnx_{role}"] = spent
    return work.result()
