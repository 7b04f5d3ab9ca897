"""Who reads a page for a worker: the seam between the job runner and the engine.

A worker claims a page, asks its PageConverter for the page's outcome, and stores it; what
happens in between is the converter's business. LocalPageConverter reads the page in this
process with one Engine (models loaded once, at warm-up). Another converter (pages sent to a
cluster) only has to offer the same two methods."""

from __future__ import annotations

import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Protocol

import cv2
import numpy as np

from engine.api import (Cancelled, ConvertOptions, Document, PageOutcome, open_document,
                        parse_layout, read_pages)

StageCallback = Callable[[str], None]


@dataclass(frozen=True)
class WarmUp:
    device: dict[str, Any]
    """The device decision and its reason, in the words of `paperlens-cli device status`."""
    models: list[dict[str, Any]]
    seconds: float


class PageConverter(Protocol):
    def warm_up(self) -> WarmUp:
        """Load what reading needs and read one small page, so the first request is not the
        slow one."""

    def read_page(self, source: Path, number: int, options: ConvertOptions, stem: str,
                  on_stage: StageCallback, cancel: threading.Event) -> PageOutcome:
        """Page `number` of `source` through every page stage. Raises Cancelled when `cancel`
        is set (checked before every stage), and the engine's typed errors that stop a
        document."""


class LocalPageConverter:
    """One Engine in this process; the last opened document stays open for its next page."""

    def __init__(self, settings) -> None:
        from engine.api import Engine  # the models' modules: only in processes that read pages

        self.settings = settings
        self.engine = Engine(settings)
        self._open: tuple[Path, Document] | None = None

    def warm_up(self) -> WarmUp:
        started = time.perf_counter()
        layout = parse_layout(str(self.settings.model.layout))
        with tempfile.TemporaryDirectory(prefix="paperlens-warm-up-") as folder:
            sample = Path(folder) / "warm-up.png"
            cv2.imwrite(str(sample), _sample_page())
            self.engine.convert(sample, ConvertOptions(layout_model=layout))
        models = self.engine.models
        models.table_recognizer()
        models.formula_recognizer()
        status = self.engine.device_status().to_json()
        device = {key: status.get(key) for key in ("effective", "backend", "adapter",
                                                    "configured", "reason", "reason_code")}
        return WarmUp(device, model_report(models.store, str(self.settings.model.layout)),
                      round(time.perf_counter() - started, 3))

    def read_page(self, source: Path, number: int, options: ConvertOptions, stem: str,
                  on_stage: StageCallback, cancel: threading.Event) -> PageOutcome:
        def check_cancel() -> None:
            if cancel.is_set():
                raise Cancelled()

        document = self._document(source)
        pages = read_pages(document, [number], options, stem, self.engine.models, check_cancel,
                           lambda _index, _number, stage, _state: on_stage(stage))
        (outcome,) = list(pages)
        return outcome

    def close(self) -> None:
        if self._open is not None:
            self._open[1].close()
            self._open = None
            forget_decoded_images()

    def _document(self, source: Path) -> Document:
        if self._open is not None and self._open[0] == source:
            return self._open[1]
        self.close()
        document = open_document(source, bounded=False)  # probed when it was uploaded
        self._open = (source, document)
        return document


def forget_decoded_images() -> None:
    """Empty MuPDF's process-wide store of decoded images and fonts. It keeps what closed
    documents decoded, up to 256 MiB, which nothing reads again: a worker that has read
    hundreds of documents would otherwise grow by each one's images (measured: 0.6 MiB per
    one-page scan) until the store is full."""
    import pymupdf

    pymupdf.TOOLS.store_shrink(100)


DEFAULT_ROLES = ("det", "cls", "rec", "orientation", "table", "formula")


def model_report(store, layout_setting: str) -> list[dict[str, Any]]:
    """The default models and the configured layout model: on disk, and matching their
    pinned hashes (in a process that loaded them: hashed in full before the load)."""
    ids = [store.default_for_role(role).id for role in DEFAULT_ROLES
           if any(spec.role == role for spec in store.specs.values())]
    layout = parse_layout(layout_setting)
    if layout:
        ids.append(layout)
    report = []
    for model_id in ids:
        status = store.status(model_id)
        report.append({"id": model_id, "role": status.role, "installed": status.installed,
                       "verified": status.verified})
    return report


def _sample_page() -> np.ndarray:
    """A small page of printed lines: every text model runs on it once."""
    page = np.full((360, 720, 3), 255, dtype=np.uint8)
    lines = ("Paperlens warm-up page", "Models loaded once per worker", "1 2 3 4 5 6 7 8 9 0")
    for row, text in enumerate(lines):
        cv2.putText(page, text, (30, 70 + 90 * row), cv2.FONT_HERSHEY_SIMPLEX, 1.1, (20, 20, 20),
                    2, cv2.LINE_AA)
    return page
