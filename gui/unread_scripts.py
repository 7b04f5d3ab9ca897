"""The offer under the page view when a document left lines unread because no installed
recogniser reads their script (its pages' ScriptUnavailable errors): the models that would read
them, a button that fetches them through the model store (checked by SHA-256, as the
Preferences' model list does) and then reads the document again with the same choices."""

from __future__ import annotations

import logging
from typing import Any, Callable

from PySide6.QtCore import QCoreApplication, QObject, Qt, Signal, Slot
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QPushButton, QWidget

from gui.background import run_detached
from gui.queue_model import Job

log = logging.getLogger(__name__)

StoreFactory = Callable[[Callable[[Any], None]], Any]
"""on_progress -> a ModelStore on the user's model folder and index, reporting to on_progress."""


def _megabytes(size: float) -> str:
    return QCoreApplication.translate("UnreadScriptsBar", "{0:.1f} MB").format(size / 1_000_000)


def unread_script_models(job: Job | None) -> tuple[str, ...]:
    """The model ids the job's pages name for the lines they could not read, each once."""
    if job is None or not job.state.written:
        return ()
    from engine.api import models_for_unread_scripts

    return models_for_unread_scripts((kind, message) for note in job.page_notes
                                     for _stage, kind, message in note.errors)


class _ProgressRelay(QObject):
    """Carries download progress from the download thread to the UI thread."""

    progress = Signal(object)


class UnreadScriptsBar(QWidget):
    """Hidden unless the shown document left lines unread for want of a model; then says so and
    offers Download and Read Again. `readAgain` is emitted with the job once the models are in."""

    readAgain = Signal(object)  # the Job to read again with its own choices
    fetched = Signal(str)  # '' when every model came, else why not

    def __init__(self, store_factory: StoreFactory, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("unreadScriptsBar")
        self._store_factory = store_factory
        self._job: Job | None = None
        self._models: tuple[str, ...] = ()
        self._fetching: tuple[int, tuple[str, ...]] | None = None  # job id, models
        self._shown: tuple[int | None, tuple[str, ...]] = (None, ())  # job id, models
        self.label = QLabel()
        self.label.setObjectName("unreadScriptsLabel")
        self.label.setWordWrap(True)
        self.label.setTextFormat(Qt.TextFormat.PlainText)
        self.button = QPushButton(self.tr("Download and Read Again"))
        self.button.setObjectName("fetchScriptModels")
        self.button.clicked.connect(self.fetch)
        self.bar = QProgressBar()
        self.bar.setObjectName("fetchScriptProgress")
        self.bar.setMaximumWidth(160)
        self.bar.setVisible(False)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 2, 0, 2)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.bar)
        layout.addWidget(self.button)
        # No parent: a download thread may still report after this bar is gone.
        self._relay = _ProgressRelay()
        self._relay.progress.connect(self._on_progress, Qt.ConnectionType.QueuedConnection)
        self.setVisible(False)

    @property
    def models(self) -> tuple[str, ...]:
        return self._models

    def show_job(self, job: Job | None) -> None:
        self._job = job
        models = unread_script_models(job)
        shown = (job.id if job is not None else None, models)
        if shown != self._shown:
            self._shown, self._models = shown, models
            if self._fetching is None or self._fetching[0] != shown[0]:
                self._offer()
        self.setVisible(bool(models))

    def _offer(self) -> None:
        if not self._models:
            return
        size = self._size(self._models)
        self.label.setText(self.tr(
            "Some lines were not read: the recogniser for their script is not installed ({0}). "
            "Paperlens can download it ({1}) and read the document again.").format(
                ", ".join(self._models), _megabytes(size) if size else self.tr("size unknown")))
        self.button.setEnabled(self._fetching is None)
        self.bar.setVisible(False)

    def _size(self, models: tuple[str, ...]) -> int:
        try:
            specs = self._store_factory(lambda _event: None).specs
        except Exception as error:  # the settings or manifest cannot be read: no size shown
            log.warning("model sizes unknown: %s", error)
            return 0
        return sum(specs[m].total_size or 0 for m in models if m in specs)

    def fetch(self) -> None:
        """Fetch the models on a background thread; the document is read again when all came."""
        job, models = self._job, self._models
        if job is None or not models or self._fetching is not None:
            return
        self._fetching = (job.id, models)
        self.button.setEnabled(False)
        self.bar.setRange(0, 0)
        self.bar.setVisible(True)
        self.label.setText(self.tr("Downloading {0}…").format(", ".join(models)))
        log.info("fetching %s for the unread lines of %s", ", ".join(models), job.path)
        store = self._store_factory(self._relay.progress.emit)

        def fetch_all() -> None:
            for model_id in models:
                store.ensure(model_id)

        run_detached(fetch_all, lambda _none: self._finished(job, ""),
                     lambda error: self._finished(job, str(error)),
                     name="download-script-models", owner=self)

    @Slot(object)
    def _on_progress(self, event: Any) -> None:
        if event.bytes_total:
            self.bar.setRange(0, 1000)
            self.bar.setValue(int(1000 * event.bytes_done / event.bytes_total))
        self.bar.setFormat(_megabytes(event.bytes_done))
        self.bar.setTextVisible(True)

    def _finished(self, job: Job, error: str) -> None:
        self._fetching = None
        self.bar.setVisible(False)
        if error:
            log.warning("script models not fetched: %s", error)
        else:
            log.info("script models fetched; reading %s again", job.path)
        if self._job is not job:  # another document is shown now: its own offer again
            self._offer()
        elif error:
            self.label.setText(self.tr("The download failed: {0}").format(error))
            self.button.setEnabled(True)
        else:
            self.label.setText(self.tr("Downloaded; reading the document again."))
        if not error:
            self.readAgain.emit(job)
        self.fetched.emit(error)


class UnreadScriptsOffer(QObject):
    """Puts the bar under the window's page view, follows the document it shows, and queues the
    document again through the window's controller once its models are in."""

    def __init__(self, window) -> None:
        """`window` is the main window (store, controller, preview, queue_view, status_label)."""
        super().__init__(window)
        self._window = window
        self.bar = UnreadScriptsBar(self._model_store)
        window.preview.add_below_page(self.bar)
        window.preview.shown.connect(self.bar.show_job)
        self.bar.readAgain.connect(self._read_again)

    def _model_store(self, on_progress: Callable[[Any], None]) -> Any:
        from engine.api import ModelStore

        settings = self._window.store.load()
        return ModelStore(settings.model.base_dir, settings.model.index_url,
                          on_progress=on_progress)

    def _read_again(self, job: Job) -> None:
        again = self._window.controller.read_again(job.id, job.choices)
        if again is not None:
            self._window.queue_view.select_job(again.id)
        else:
            self._window.status_label.setText(self.tr(
                "Not read again: {0} is already in the queue to be read.").format(job.path.name))
