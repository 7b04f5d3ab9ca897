"""The journey of a page, as one ordered list of stages. Adding a stage is one line."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from engine.document import Document
from engine.models import ModelSet
from engine.options import ConvertOptions, TextMethod
from engine.paragraphs import build_blocks
from engine.reading_order import order_blocks
from engine.text_layer import assess_text_layer, extract_lines
from engine.types import Block, Line, PageResult, TextSource


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
    warnings: list[str] = field(default_factory=list)
    timings_s: dict[str, float] = field(default_factory=dict)

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


def assemble_blocks(work: PageWork, models: ModelSet) -> None:
    work.blocks = order_blocks(build_blocks(work.lines))


Stage = Callable[[PageWork, ModelSet], None]

PAGE_STAGES: tuple[tuple[str, Stage], ...] = (
    ("render", render),
    ("text_layer", choose_text_source),
    ("ocr", recognize_text),
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
