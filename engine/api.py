"""The engine API the GUI and CLI use: Engine(settings).convert(path, options, on_event, cancel)."""

from __future__ import annotations

import json
import os
import threading
import time
from pathlib import Path

from engine import events
from engine.input.document import open_document
from engine.output.content_list import content_list
from engine.device.selector import DeviceSelector
from engine.errors import Cancelled, CorruptDocument, InvalidOptions, PaperlensError
from engine.output.overlay import LayoutOverlay
from engine.output.markdown import render_markdown
from engine.models.roles import ModelSet
from engine.options import ConvertOptions
from engine.output.writer import OutputWriter, check_writable
from engine.structure.furniture import mark_furniture
from engine.recipe import PageWork, run_page
from engine.types import DocumentResult, PageResult, TextSource


class Engine:
    """Cheap to create: no model is loaded and no device is probed until a page needs one."""

    def __init__(self, settings) -> None:
        self._settings = settings
        self._models: ModelSet | None = None
        self._lock = threading.Lock()
        # Cheap: reads the settings snapshot only; the device is decided at the first model use.
        self._device = DeviceSelector(settings)

    @property
    def models(self) -> ModelSet:
        with self._lock:
            if self._models is None:
                self._models = ModelSet(Path(self._settings.model.base_dir),
                                        self._settings.model.index_url, device=self._device)
            return self._models

    def device_status(self):
        """The device status for people; reading it decides nothing and probes nothing."""
        return self._device.status()

    def convert(self, path: str | os.PathLike[str], options: ConvertOptions = ConvertOptions(),
                on_event: events.EventCallback = events.ignore_event,
                cancel: threading.Event | None = None) -> DocumentResult:
        source = Path(path)
        cancel = cancel or threading.Event()

        def check_cancel() -> None:
            if cancel.is_set():
                raise Cancelled()

        started = time.perf_counter()
        stem = options.output_name or source.stem
        if options.output_dir is not None:
            check_writable(Path(options.output_dir))
        models = self.models
        models.set_progress_sink(on_event)
        writer: OutputWriter | None = None
        overlay = LayoutOverlay() if options.write_layout_overlay else None
        try:
            with open_document(source, options.password) as document:
                numbers = _select_pages(options.pages, document.page_count, source.name)
                if options.output_dir is not None:
                    writer = OutputWriter(Path(options.output_dir), stem)
                on_event(events.DocumentStarted(str(source), len(numbers)))
                pages: list[PageResult] = []
                for index, number in enumerate(numbers):
                    check_cancel()
                    work = PageWork(document=document, page_number=number, options=options,
                                    image_prefix=f"{stem}-p{number}")
                    page = self._convert_page(work, models, check_cancel, on_event)
                    if writer is not None:
                        writer.add_images(work.crops)
                    if overlay is not None and work.image is not None:
                        overlay.add_page(work.image, page)
                    pages.append(page)
                    on_event(events.PageDone(str(source), number, index, len(numbers), page,
                                             dict(page.timings_s)))
                check_cancel()
                pages = mark_furniture(pages)
                export_start = time.perf_counter()
                markdown = render_markdown(pages, options.table_format, options.keep_furniture)
                result = DocumentResult(path=str(source), kind=document.kind.value,
                                        page_count=document.page_count, pages=tuple(pages),
                                        markdown=markdown,
                                        warnings=tuple(f"page {p.page_number}: {w}"
                                                       for p in pages for w in p.warnings))
                if writer is not None:
                    check_cancel()
                    result = _with(result, outputs=self._commit(writer, result, stem, options,
                                                                overlay))
                    writer = None
                timings = {"export": time.perf_counter() - export_start,
                           "total": time.perf_counter() - started}
                return _with(result, timings_s=timings)
        finally:
            models.set_progress_sink(None)
            if writer is not None:
                writer.abort()
            if overlay is not None:
                overlay.close()

    @staticmethod
    def _commit(writer: OutputWriter, result: DocumentResult, stem: str,
                options: ConvertOptions, overlay: LayoutOverlay | None) -> tuple[str, ...]:
        payloads: dict[str, bytes] = {}
        if options.write_json:
            data = result.to_json()
            data.pop("markdown", None)
            payloads[f"{stem}.json"] = json.dumps(data, ensure_ascii=False, indent=1).encode()
        if options.write_content_list:
            payloads[f"{stem}_content_list.json"] = json.dumps(
                content_list(result.pages), ensure_ascii=False, indent=1).encode()
        staged: tuple[str, ...] = ()
        if overlay is not None:
            name = f"{stem}_layout.pdf"
            overlay.save(str(writer.stage_file(name)))
            staged = (name,)
        # The Markdown goes last: once it is visible, everything it links to is in place.
        payloads[f"{stem}.md"] = result.markdown.encode("utf-8")
        return writer.commit(payloads, staged)

    def _convert_page(self, work: PageWork, models: ModelSet, check_cancel,
                      on_event) -> PageResult:
        document = work.document
        try:
            page = run_page(work, models, check_cancel)
        except (Cancelled, PaperlensError) as exc:
            # Cancellation and missing models stop the document; so does a damaged single
            # image, which has no other page to save.
            if isinstance(exc, Cancelled) or not _is_page_fault(exc) \
                    or not document.kind.is_paged:
                raise
            page = _failed_page(work, exc)
        except Exception as exc:  # one bad page is a warning, never a failed document
            page = _failed_page(work, exc)
        for warning in page.warnings:
            on_event(events.Warning(str(document.path), warning, work.page_number))
        return page


def _is_page_fault(exc: PaperlensError) -> bool:
    return isinstance(exc, CorruptDocument)


def _failed_page(work: PageWork, exc: BaseException) -> PageResult:
    work.blocks = []
    work.warnings.append(f"page could not be read and was skipped ({type(exc).__name__}: "
                         f"{str(exc)[:200]})")
    if work.text_source_reason == "":
        work.text_source, work.text_source_reason = TextSource.OCR, "failed"
    return work.result()


def _with(result: DocumentResult, **changes) -> DocumentResult:
    from dataclasses import replace
    return replace(result, **changes)


def _select_pages(pages: tuple[int, ...] | None, count: int, name: str) -> list[int]:
    if pages is None:
        return list(range(1, count + 1))
    outside = [p for p in pages if p > count]
    if outside:
        raise InvalidOptions(f"{name} has {count} page(s); page {outside[0]} does not exist.")
    return list(pages)
