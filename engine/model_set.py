"""The models a conversion needs, created lazily on first use and reused for the process: the
composition root of the models, the one module that joins the model store (engine/models/),
the sessions (engine/runtime/) and the role packages (ocr/, layout/, tables/, formulas/), so
none of those imports another's maker."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Callable, Mapping

from engine.errors import ModelUnavailable
from engine.events import ModelDownloadProgress
from engine.formulas.model import DECODER_THREADS, FormulaRecognizerModel, load_vocabulary
from engine.layout.detector import LayoutDetector, LayoutModelKind
from engine.models.manifest import MAIN_PART, ModelSpec
from engine.models.store import ModelStore
from engine.ocr.page_reader import PageReader
from engine.runtime.sessions import FormulaSessions, SessionFactory
from engine.runtime.steps import StepClock
from engine.tables.recognizer import TableRecognizer
from engine.ocr.detection import TextDetector
from engine.ocr.direction import TextDirectionClassifier
from engine.ocr.orientation import PageOrientationClassifier
from engine.ocr.recognition import TextRecognizer
from engine.ocr.script_reading import ScriptReader
from engine.ocr.tesseract import SYSTEM_LANGUAGE_DIRS, TesseractLines
from engine.structure.hyphens import WordLists, word_lists_loader

ProgressSink = Callable[[ModelDownloadProgress], None]


class ModelSet:
    """Owns the model store and the session factory; builds each role object once."""

    def __init__(self, model_dir: Path, index_url: str | None,
                 sessions: SessionFactory | None = None, device=None,
                 manifest: Mapping[str, ModelSpec] | Path | None = None,
                 language_dirs: tuple[Path, ...] = SYSTEM_LANGUAGE_DIRS) -> None:
        self._sink: ProgressSink | None = None
        self._language_dirs = language_dirs
        self.store = ModelStore(model_dir, index_url, on_progress=self._forward_progress,
                                manifest=manifest)
        self.sessions = sessions or SessionFactory(device=device)
        if self.sessions.device is not None:
            # The device is decided inside the first session request; its event goes out
            # through the same callback as download progress.
            self.sessions.device.on_event = self._forward_progress
        self.steps = StepClock()
        """Times the steps of the role objects built here (engine/runtime/steps.py)."""
        self._reader: PageReader | None = None
        self._table: TableRecognizer | None = None
        self._formula: FormulaRecognizerModel | None = None
        self._layout: dict[str, LayoutDetector] = {}
        self.word_lists: Callable[[], WordLists] = word_lists_loader(self.store)
        """The manifest's word lists (engine/structure/hyphens.py), loaded on the first call."""
        self._lock = threading.Lock()

    def set_progress_sink(self, sink: ProgressSink | None) -> None:
        self._sink = sink

    def _forward_progress(self, event: ModelDownloadProgress) -> None:
        if self._sink is not None:
            self._sink(event)

    def clock_snapshot(self) -> dict[str, float]:
        """Pure inference seconds per model role so far (InferenceClock)."""
        return self.sessions.clock.snapshot()

    def step_snapshot(self) -> dict[str, float]:
        """Seconds per chain of steps so far (StepClock: `det`, `script_reading.rec`, ...)."""
        return self.steps.snapshot()

    def _session(self, role: str, path: Path):
        return self.sessions.session(role, path)

    def page_reader(self, read_scripts: bool = True) -> PageReader:
        """The page reader. `read_scripts=False`: the same models without the script reader
        (engine/ocr/script_reading.py: lines in scripts PP-OCR cannot read stay unread), to
        measure what finding scripts costs."""
        with self._lock:
            if self._reader is None:
                det_path = self.store.ensure(self.store.default_for_role("det").id)
                cls_path = self.store.ensure(self.store.default_for_role("cls").id)
                rec_path = self.store.derived_rec(self.store.default_for_role("rec").id)
                self._reader = PageReader(
                    TextDetector(self._session("det", det_path), steps=self.steps),
                    TextDirectionClassifier(self._session("cls", cls_path)),
                    TextRecognizer(self._session("rec", rec_path), steps=self.steps),
                    self._orientation_classifier(),
                    ScriptReader(TesseractLines(self.store.ensure,
                                                (self.store.model_dir, *self._language_dirs),
                                                steps=self.steps,
                                                workers=self.sessions.options.threads)),
                )
            reader = self._reader
        if read_scripts:
            return reader
        return PageReader(reader.detector, reader.direction, reader.recognizer,
                          reader.orientation, scripts=None, rules=reader.rules)

    def _orientation_classifier(self) -> PageOrientationClassifier | None:
        """The page orientation classifier, or None when the manifest has no orientation model
        (pages turned by 90/270 degrees are then read line by line, as they lie)."""
        if not any(spec.role == "orientation" and spec.file for spec in self.store.specs.values()):
            return None
        path = self.store.ensure(self.store.default_for_role("orientation").id)
        return PageOrientationClassifier(self._session("orientation", path))

    def formula_recognizer(self) -> FormulaRecognizerModel | None:
        """The formula model's recogniser, or None when the manifest has no formula model."""
        if not any(spec.role == "formula" and spec.file for spec in self.store.specs.values()):
            return None
        with self._lock:
            if self._formula is None:
                spec = self.store.default_for_role("formula")
                files = self.store.ensure_files(spec.id)
                missing = {"decoder", "vocabulary"} - files.keys()
                if missing:
                    raise ModelUnavailable(f"Formula model '{spec.id}' lacks its {', '.join(sorted(missing))} "
                                           "file in the manifest; this version of Paperlens cannot use it.")
                # The encoder runs once per batch of crops and follows the formula role's preset
                # (FormulaSessions: only full batches of 8 go to a GPU, and crops share a batch only
                # at one padded width, so most pages run it on the CPU). The decoder is pinned to
                # the CPU: it runs once per token (up to 200 times a batch) on a few kilobytes, with
                # a key/value cache one step longer each time, i.e. a new shape that a GPU provider
                # would prepare again, and its logits are needed on the CPU after every step.
                self._formula = FormulaRecognizerModel(
                    FormulaSessions(self.sessions, files[MAIN_PART]),
                    self.sessions.session("formula", files["decoder"], cpu_only=True,
                                          threads=DECODER_THREADS),
                    load_vocabulary(files["vocabulary"]))
            return self._formula

    def layout_detector(self, model_id: str) -> LayoutDetector:
        """The layout detector for a layout model id of the manifest (e.g. "cdla-picodet")."""
        with self._lock:
            detector = self._layout.get(model_id)
            if detector is None:
                path = self.store.ensure(model_id)
                detector = LayoutDetector(self._session("layout", path),
                                          LayoutModelKind(model_id), steps=self.steps)
                self._layout[model_id] = detector
            return detector

    def table_recognizer(self) -> TableRecognizer:
        with self._lock:
            if self._table is None:
                path = self.store.ensure(self.store.default_for_role("table").id)
                self._table = TableRecognizer(self._session("table", path))
            return self._table
