"""A stand-in for the engine that reads documents as the engine reports them, one event per step
the test allows: between steps it sits inside a stage, as a slow model on a busy machine would.

It writes the Markdown it reports, so what a window shows of a finished document is real."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from engine import events
from engine.device.status import DeviceStatus
from engine.errors import Cancelled, CorruptDocument
from engine.types import (Block, BlockKind, Box, DocumentResult, Line, PageError, PageResult,
                          Region, Status, TextSource)

PAGE_SIZE = (600, 450)  # height, width of every page's pixels


def page_pixels(number: int) -> np.ndarray:
    """A white page with a dark band per page number, so pictures differ from page to page."""
    pixels = np.full((*PAGE_SIZE, 3), 255, dtype=np.uint8)
    pixels[40 * number:40 * number + 30, 40:400] = (30, 60, 90)
    return pixels


def page_lines(number: int) -> tuple[Line, ...]:
    return (Line(f"Heading of page {number}", Box(40, 40, 400, 70)),
            Line("A line of body text.", Box(40, 100, 380, 120)))


def page_regions() -> tuple[Region, ...]:
    return (Region(BlockKind.TITLE, Box(36, 36, 404, 74)),
            Region(BlockKind.TEXT, Box(36, 96, 384, 124)))


@dataclass
class SteppedEngine:
    """`convert` sends each event only when `step()` allows one (`free=True`: no waiting).

    Documents named *broken* fail; `partial_pages` are read in part."""

    free: bool = False
    partial_pages: tuple[int, ...] = ()
    sent: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._steps = threading.Semaphore(0)

    def step(self, count: int = 1) -> None:
        for _ in range(count):
            self._steps.release()

    def device_status(self) -> DeviceStatus:
        return DeviceStatus(configured="auto", configured_origin="default")

    def _send(self, on_event, event, cancel: threading.Event) -> None:
        while not self.free and not self._steps.acquire(timeout=0.05):
            if cancel.is_set():
                raise Cancelled("cancelled")
        self.sent.append(type(event).__name__ + ":" + getattr(event, "stage", ""))
        on_event(event)

    def convert(self, path, options, on_event, cancel: threading.Event) -> DocumentResult:
        source = Path(path)
        if "broken" in source.name:
            raise CorruptDocument(f"{source.name} is damaged and cannot be opened.")
        total = 2
        self._send(on_event, events.DocumentStarted(str(source), total), cancel)
        pages = []
        for index in range(total):
            number = index + 1
            pixels, lines, regions = page_pixels(number), page_lines(number), page_regions()
            for stage, shown_lines, shown_regions in (("render", (), None),
                                                      ("ocr", lines, None),
                                                      ("layout", lines, regions)):
                self._send(on_event, events.PageProgress(str(source), number, index, total, stage,
                                                         pixels, 0, shown_lines, shown_regions),
                           cancel)
            page = self._page(number, regions)
            pages.append(page)
            self._send(on_event, events.PageDone(str(source), number, index, total, page), cancel)
        return self._result(source, options, pages)

    def _page(self, number: int, regions) -> PageResult:
        blocks = tuple(Block(r.kind, r.box, text=f"{r.kind.value} of page {number}")
                       for r in regions)
        errors = ((PageError("table", "ValueError", "the table model gave no cells"),)
                  if number in self.partial_pages else ())
        return PageResult(page_number=number, width=PAGE_SIZE[1], height=PAGE_SIZE[0],
                          dpi=72.0, text_source=TextSource.OCR, text_source_reason="scan",
                          blocks=blocks, status=Status.PARTIAL if errors else Status.OK,
                          errors=errors)

    @staticmethod
    def _result(source: Path, options, pages: list[PageResult]) -> DocumentResult:
        markdown = "\n\n".join(f"# title of page {p.page_number}\n\ntext of page {p.page_number}"
                               for p in pages) + "\n"
        folder = Path(options.output_dir)
        folder.mkdir(parents=True, exist_ok=True)
        written = folder / f"{options.output_name or source.stem}.md"
        written.write_text(markdown, encoding="utf-8")
        status = Status.PARTIAL if any(p.status is Status.PARTIAL for p in pages) else Status.OK
        return DocumentResult(path=str(source), kind="pdf", page_count=len(pages),
                              pages=tuple(pages), markdown=markdown, outputs=(str(written),),
                              status=status)
