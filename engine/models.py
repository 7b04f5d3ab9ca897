"""The models a conversion needs, created lazily on first use and reused for the process."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Callable

from engine.events import ModelDownloadProgress
from engine.model_store import ModelStore
from engine.ocr import PageReader
from engine.runtime import SessionFactory
from engine.text_detection import TextDetector
from engine.text_direction import TextDirectionClassifier
from engine.text_recognition import TextRecognizer

ProgressSink = Callable[[ModelDownloadProgress], None]


class ModelSet:
    """Owns the model store and the session factory; builds each role object once."""

    def __init__(self, model_dir: Path, index_url: str | None,
                 sessions: SessionFactory | None = None) -> None:
        self._sink: ProgressSink | None = None
        self.store = ModelStore(model_dir, index_url, on_progress=self._forward_progress)
        self.sessions = sessions or SessionFactory()
        self._reader: PageReader | None = None
        self._lock = threading.Lock()

    def set_progress_sink(self, sink: ProgressSink | None) -> None:
        self._sink = sink

    def _forward_progress(self, event: ModelDownloadProgress) -> None:
        if self._sink is not None:
            self._sink(event)

    def clock_snapshot(self) -> dict[str, float]:
        return self.sessions.clock.snapshot()

    def _session(self, role: str, path: Path):
        return self.sessions.session(role, path)

    def page_reader(self) -> PageReader:
        with self._lock:
            if self._reader is None:
                det_path = self.store.ensure(self.store.default_for_role("det").id)
                cls_path = self.store.ensure(self.store.default_for_role("cls").id)
                rec_path = self.store.derived_rec(self.store.default_for_role("rec").id)
                self._reader = PageReader(
                    TextDetector(self._session("det", det_path)),
                    TextDirectionClassifier(self._session("cls", cls_path)),
                    TextRecognizer(self._session("rec", rec_path)),
                )
            return self._reader
