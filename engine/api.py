"""The engine API the GUI and CLI use: Engine(settings).convert(path, options, on_event, cancel)."""

from __future__ import annotations

import json
import os
import tempfile
import threading
import time
from pathlib import Path

from engine import events
from engine.document import open_document
from engine.errors import Cancelled, InvalidOptions, OutputNotWritable, PaperlensError
from engine.markdown import render_markdown
from engine.models import ModelSet
from engine.options import ConvertOptions
from engine.page_furniture import mark_furniture
from engine.pipeline import PageWork, run_page
from engine.types import DocumentResult, PageResult, TextSource


class Engine:
    """Cheap to create: no model is loaded and no device is probed until a page needs one."""

    def __init__(self, settings) -> None:
        self._settings = settings
        self._models: ModelSet | None = None
        self._lock = threading.Lock()

    @property
    def models(self) -> ModelSet:
        with self._lock:
            if self._models is None:
                self._models = ModelSet(Path(self._settings.model.base_dir),
                                        self._settings.model.index_url)
            return self._models

    def device_status(self):
        """The device status for people; reading it decides nothing and probes nothing."""
        from engine.device_status import DeviceStatus

        model = self._settings.model
        origin = self._settings.origin("model.onnx_device")
        status = DeviceStatus(configured=str(model.onnx_device), configured_origin=str(origin))
        if self._models is not None and self._models.sessions.created():
            # Sessions exist only on the CPU until a GPU backend is wired into the runtime.
            status = DeviceStatus(configured=status.configured,
                                  configured_origin=status.configured_origin, effective="cpu",
                                  backend="cpu", decided_by="explicit" if str(model.onnx_device)
                                  == "cpu" else "fallback",
                                  fallback_reason=None if str(model.onnx_device) == "cpu" else
                                  "this build runs models on the CPU only")
        return status

    def convert(self, path: str | os.PathLike[str], options: ConvertOptions = ConvertOptions(),
                on_event: events.EventCallback = events.ignore_event,
                cancel: threading.Event | None = None) -> DocumentResult:
        source = Path(path)
        cancel = cancel or threading.Event()

        def check_cancel() -> None:
            if cancel.is_set():
                raise Cancelled()

        started = time.perf_counter()
        if options.output_dir is not None:
            _check_writable(Path(options.output_dir))
        models = self.models
        models.set_progress_sink(on_event)
        try:
            with open_document(source, options.password) as document:
                numbers = _select_pages(options.pages, document.page_count, source.name)
                on_event(events.DocumentStarted(str(source), len(numbers)))
                pages: list[PageResult] = []
                for index, number in enumerate(numbers):
                    check_cancel()
                    page = self._convert_page(document, number, options, models, check_cancel,
                                              on_event)
                    pages.append(page)
                    on_event(events.PageDone(str(source), number, index, len(numbers), page,
                                             dict(page.timings_s)))
                check_cancel()
                pages = mark_furniture(pages)
                export_start = time.perf_counter()
                markdown = render_markdown(pages)
                result = DocumentResult(path=str(source), kind=document.kind.value,
                                        page_count=document.page_count, pages=tuple(pages),
                                        markdown=markdown,
                                        warnings=tuple(f"page {p.page_number}: {w}"
                                                       for p in pages for w in p.warnings))
                if options.output_dir is not None:
                    check_cancel()
                    outputs = write_outputs(result, Path(options.output_dir),
                                            options.output_name or source.stem,
                                            options.write_json)
                    result = _with(result, outputs=outputs)
                timings = {"export": time.perf_counter() - export_start,
                           "total": time.perf_counter() - started}
                return _with(result, timings_s=timings)
        finally:
            models.set_progress_sink(None)

    def _convert_page(self, document, number: int, options: ConvertOptions, models: ModelSet,
                      check_cancel, on_event) -> PageResult:
        work = PageWork(document=document, page_number=number, options=options)
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
            on_event(events.Warning(str(document.path), warning, number))
        return page


def _is_page_fault(exc: PaperlensError) -> bool:
    from engine.errors import CorruptDocument
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


def _check_writable(folder: Path) -> None:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".paperlens-probe-"):
            pass
    except OSError as exc:
        raise OutputNotWritable(f"Cannot write to the output folder {folder}: "
                                f"{exc.strerror or exc}.") from None


def write_outputs(result: DocumentResult, folder: Path, stem: str,
                  write_json: bool) -> tuple[str, ...]:
    """Write <stem>.md (and .json) via temp files renamed into place only when all are ready."""
    payloads = {folder / f"{stem}.md": result.markdown.encode("utf-8")}
    if write_json:
        data = result.to_json()
        data.pop("markdown", None)
        payloads[folder / f"{stem}.json"] = json.dumps(data, ensure_ascii=False,
                                                       indent=1).encode("utf-8")
    temps: list[tuple[Path, Path]] = []
    try:
        for target, payload in payloads.items():
            fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{target.name}.", suffix=".part")
            temps.append((Path(tmp), target))
            with os.fdopen(fd, "wb") as fh:
                fh.write(payload)
                fh.flush()
                os.fsync(fh.fileno())
        for tmp, target in temps:
            os.replace(tmp, target)
    except OSError as exc:
        for tmp, _ in temps:
            tmp.unlink(missing_ok=True)
        raise OutputNotWritable(f"Cannot write the results to {folder}: "
                                f"{exc.strerror or exc}.") from None
    return tuple(str(t) for t in payloads)
