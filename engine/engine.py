"""Engine(settings).convert(path, options, on_event, cancel): what outlives one document.

Programs reach it as engine.api.Engine, the declared API. What happens to a document is
engine/recipe.py; this class owns the models (created on first use) and the device decision."""

from __future__ import annotations

import os
import threading
from pathlib import Path

from engine import events
from engine.device.selector import DeviceSelector
from engine.hosting import cancel_check
from engine.model_set import ModelSet
from engine.runtime.sessions import SessionFactory
from engine.options import ConvertOptions
from engine.recipe import convert_document, read_pages
from engine.types import DocumentResult


class Engine:
    """Cheap to create: no model is loaded and no device is probed until a page needs one."""

    def __init__(self, settings, threads: int | None = None) -> None:
        """`threads`: ONNX Runtime threads per session (None: this machine's physical cores);
        a cluster worker uses the CPUs its scheduler gave it, so workers on one machine do
        not crowd each other."""
        self._settings = settings
        self._threads = threads
        self._models: ModelSet | None = None
        self._lock = threading.Lock()
        # Cheap: reads the settings snapshot only; the device is decided at the first model use.
        self._device = DeviceSelector(settings, threads=threads)

    @property
    def models(self) -> ModelSet:
        with self._lock:
            if self._models is None:
                self._models = ModelSet(Path(self._settings.model.base_dir),
                                        self._settings.model.index_url,
                                        SessionFactory(self._threads, device=self._device))
            return self._models

    def device_status(self):
        """The device status for people; reading it decides nothing and probes nothing."""
        return self._device.status()

    def convert(self, path: str | os.PathLike[str], options: ConvertOptions = ConvertOptions(),
                on_event: events.EventCallback = events.ignore_event,
                cancel: threading.Event | None = None) -> DocumentResult:
        """The document's result (status ok or partial; its pages say which failed and why).
        Raises a PaperlensError when the document cannot be converted at all, DocumentFailed
        when every page failed; nothing is written then."""
        check_cancel = cancel_check(cancel)
        models = self.models
        models.set_progress_sink(on_event)
        try:
            return convert_document(Path(path), options, models, on_event, check_cancel)
        finally:
            models.set_progress_sink(None)

    def read_pages(self, document, numbers: list[int], options: ConvertOptions, stem: str,
                   on_stage=None, cancel: threading.Event | None = None):
        """Pages `numbers` of an opened document through every page stage with this engine's
        models (recipe.read_pages), as PageOutcomes in order: how a host reads single pages
        for a caller that assembles the document itself (the service, Ray's page workers)."""
        return read_pages(document, numbers, options, stem, self.models, cancel_check(cancel),
                          on_stage)
