"""The job controller: feeds queued documents to the worker one at a time and tracks their state."""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Iterable

from PySide6.QtCore import QObject, Qt, Signal, Slot

from gui.background import run_in_background
from gui.queue_history import QueueHistory
from gui.queue_model import Job, JobState, QueueModel, page_note
from gui.reading_choices import ReadingChoices
from gui.worker import ConversionRequest, EngineFactory, WorkerThread
from settings import SettingsStore

log = logging.getLogger(__name__)

QUEUED = Qt.ConnectionType.QueuedConnection


def expand_inputs(paths: Iterable[Path]) -> list[Path]:
    """Files as given; folders become the documents inside them (recursively, sorted)."""
    from engine.api import SUPPORTED_SUFFIXES

    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found.extend(sorted(p for p in path.rglob("*")
                                if p.is_file() and p.suffix.lower() in SUPPORTED_SUFFIXES))
        else:
            found.append(path)
    return found


class JobController(QObject):
    """Owns the queue model and the worker thread; the window drives it with plain calls."""

    jobChanged = Signal(int)  # job id: state or progress changed
    pageArrived = Signal(int, int)  # job id, 0-based position of a page first shown or finished
    jobFinished = Signal(int)  # job id: done, failed or cancelled
    passwordNeeded = Signal(int, bool)  # job id, True when a password was given and was wrong
    downloadProgress = Signal(object)
    deviceDecided = Signal(object)
    queueIdle = Signal()

    def __init__(self, store: SettingsStore, engine_factory: EngineFactory | None = None,
                 parent: QObject | None = None, history: QueueHistory | None = None) -> None:
        """`history`, when given, brings back the last session's documents and keeps these."""
        super().__init__(parent)
        self._store = store
        self._history = history
        self.model = QueueModel(self)
        if history is not None:
            self.model.restore(history.load())
        self._running: Job | None = None
        self._stopping = False
        self.method = "auto"  # where text comes from: auto, txt (text layer) or ocr
        self.pages: tuple[int, ...] | None = None
        """The pages to read in the documents added next through add_paths; None: all."""
        self._worker_thread = WorkerThread(store, engine_factory)
        worker = self.worker
        worker.documentStarted.connect(self._on_started, QUEUED)
        worker.pageProgress.connect(self._on_page_progress, QUEUED)
        worker.pageDone.connect(self._on_page_done, QUEUED)
        worker.warningRaised.connect(self._on_warning, QUEUED)
        worker.documentFinished.connect(self._on_finished, QUEUED)
        worker.documentFailed.connect(self._on_failed, QUEUED)
        worker.documentCancelled.connect(self._on_cancelled, QUEUED)
        worker.downloadProgress.connect(self.downloadProgress, QUEUED)
        worker.deviceDecided.connect(self.deviceDecided, QUEUED)

    @property
    def worker(self):
        return self._worker_thread.worker

    @property
    def running(self) -> Job | None:
        return self._running

    # -- adding -------------------------------------------------------------------------------

    def add_paths(self, paths: Iterable[Path | str]) -> None:
        """Queue files and folders in the order given, read as the preferences say now, the
        pages of `self.pages`."""
        paths = [Path(p) for p in paths]
        choices = self.choices_now(self.pages)
        if any(p.is_dir() for p in paths):
            run_in_background(lambda: expand_inputs(paths),
                              lambda found: self._add_files(found, choices),
                              lambda error: log.warning("could not list the folder: %s", error))
        else:
            self._add_files(paths, choices)

    def choices_now(self, pages: tuple[int, ...] | None = None) -> ReadingChoices:
        """The reading switches of the preferences, for documents queued now."""
        return ReadingChoices.from_settings(self._store.load(), pages)

    def _add_files(self, paths: list[Path], choices: ReadingChoices) -> None:
        if self._stopping:
            return
        for path in paths:
            job = self.model.add(path, self._output_dir_for(path), choices)
            if job is not None:
                log.info("queued %s", path)
        self._dispatch()

    def add_file(self, path: Path, output_dir: Path) -> Job | None:
        """Queue one file into `output_dir` (a watched folder's), every page of it; None when
        the same file is already waiting or being read, or the window is closing."""
        if self._stopping:
            return None
        job = self.model.add(path, output_dir, self.choices_now())
        if job is not None:
            log.info("queued %s", path)
            self._dispatch()
        return job

    def _output_dir_for(self, path: Path) -> Path:
        folder = self._store.load().output.dir
        return Path(folder) if folder is not None else path.parent

    # -- commands -----------------------------------------------------------------------------

    def cancel(self, job_id: int) -> None:
        job = self.model.job(job_id)
        if job is None or job.state.finished:
            return
        job.cancel.set()
        if job is not self._running:  # waiting jobs stop at once; the running one on its event
            job.state = JobState.CANCELLED
            self._changed(job, finished=True)

    def cancel_all(self) -> None:
        for job in self.model.jobs:
            self.cancel(job.id)

    def retry(self, job_id: int) -> None:
        job = self.model.job(job_id)
        if job is None or job.state not in (JobState.FAILED, JobState.CANCELLED):
            return
        job.reset()
        job.output_dir = self._output_dir_for(job.path)
        self._changed(job)
        self.save_history()
        self._dispatch()

    def read_again(self, job_id: int, choices: ReadingChoices) -> Job | None:
        """Read a document with other choices: a waiting one takes them at once; a finished
        one is queued again beside its earlier reading (whose files stay; the new ones take
        the next free name). None while it is being read."""
        job = self.model.job(job_id)
        if job is None or self._stopping or job.state is JobState.PARSING:
            return None
        if not job.state.finished:  # waiting, or waiting for its password
            job.choices = choices
            self._changed(job)
            return job
        again = self.model.add(job.path, self._output_dir_for(job.path), choices)
        if again is not None:
            again.password = job.password
            log.info("queued %s again (%s)", job.path, choices)
            self._dispatch()
        return again

    def remove(self, job_id: int) -> None:
        job = self.model.job(job_id)
        if job is not None and job is not self._running:
            job.cancel.set()
            self.model.remove(job_id)
            self.save_history()

    def provide_password(self, job_id: int, password: str | None) -> None:
        """Answer to passwordNeeded: retry with the password, or give up on the document."""
        job = self.model.job(job_id)
        if job is None or job.state is not JobState.NEEDS_PASSWORD:
            return
        if password:
            message = job.message
            job.reset()
            job.password = password
            job.message = message
            self._changed(job)
        else:
            job.state = JobState.FAILED
            self._changed(job, finished=True)
        self._dispatch()

    def shutdown(self) -> None:
        """Cancel everything and stop the worker thread (the window is closing)."""
        self._stopping = True
        for job in self.model.jobs:
            job.cancel.set()
        self._worker_thread.stop()
        if self._history is not None:
            self._history.save(self.model.jobs, wait=True)

    def save_history(self) -> None:
        """Keep the queue for the next session (in the background)."""
        if self._history is not None and not self._stopping:
            self._history.save(self.model.jobs)

    # -- dispatch -----------------------------------------------------------------------------

    def _dispatch(self) -> None:
        if self._running is not None or self._stopping:
            return
        job = self.model.next_waiting()
        if job is None:
            self.queueIdle.emit()
            return
        self._running = job
        job.state = JobState.PARSING
        self._changed(job)
        log.info("converting %s", job.path)
        self.worker.convertRequested.emit(ConversionRequest(
            job_id=job.id, path=str(job.path), output_dir=str(job.output_dir),
            output_name=job.output_name, password=job.password, cancel=job.cancel,
            method=self.method, choices=job.choices))

    def _current(self, job_id: int) -> Job | None:
        job = self.model.job(job_id)
        return job if job is not None and job is self._running else None

    def _changed(self, job: Job, finished: bool = False) -> None:
        self.model.changed(job.id)
        self.jobChanged.emit(job.id)
        if finished:
            self.save_history()
            self.jobFinished.emit(job.id)

    def _end(self, job: Job) -> None:
        self._running = None
        job.live = {}  # a page still being read when the document stopped is not shown
        self._changed(job, finished=True)
        self._dispatch()

    # -- worker signals (UI thread) -----------------------------------------------------------

    @Slot(int, int)
    def _on_started(self, job_id: int, page_count: int) -> None:
        job = self._current(job_id)
        if job is not None:
            job.page_count = page_count
            job.started_s = time.monotonic()
            self._changed(job)

    @Slot(int, object)
    def _on_page_progress(self, job_id: int, live) -> None:
        """A page's picture, lines or regions, before the page is done."""
        job = self._current(job_id)
        if job is None or live.index in job.pages:
            return
        first = live.index not in job.live
        job.live = {live.index: live}  # one page is read at a time
        job.page_count = live.total
        self._changed(job)
        if first:
            self.pageArrived.emit(job_id, live.index)

    @Slot(int, object)
    def _on_page_done(self, job_id: int, event) -> None:
        job = self._current(job_id)
        if job is None:
            return
        job.live.pop(event.index, None)
        job.pages[event.index] = event.result
        job.pages_done = event.index + 1
        job.page_count = event.total
        job.page_times_s.append(time.monotonic())
        note = page_note(event.result)
        if note is not None:
            job.page_notes += (note,)
        self._changed(job)
        self.pageArrived.emit(job_id, event.index)

    @Slot(int, str)
    def _on_warning(self, job_id: int, message: str) -> None:
        job = self._current(job_id)
        if job is not None:
            job.warnings.append(message)
            self.model.changed(job_id)

    @Slot(int, object)
    def _on_finished(self, job_id: int, result) -> None:
        job = self._current(job_id)
        if job is None:
            return
        job.result = result
        job.pages, job.live = dict(enumerate(result.pages)), {}
        job.pages_done = job.page_count = len(result.pages)
        job.outputs = tuple(result.outputs)
        job.page_notes = tuple(n for n in map(page_note, result.pages) if n is not None)
        job.state = JobState.DONE if result.status.value == "ok" else JobState.PARTIAL
        self._end(job)

    @Slot(int, str, str)
    def _on_failed(self, job_id: int, kind: str, message: str) -> None:
        job = self._current(job_id)
        if job is None:
            return
        job.error_kind, job.message = kind, message
        if kind in ("PasswordRequired", "WrongPassword") and not self._stopping:
            job.state = JobState.NEEDS_PASSWORD
            self._running = None
            self._changed(job)
            self.passwordNeeded.emit(job_id, kind == "WrongPassword")
            self._dispatch()
            return
        job.state = JobState.FAILED
        self._end(job)

    @Slot(int)
    def _on_cancelled(self, job_id: int) -> None:
        job = self._current(job_id)
        if job is None:
            return
        job.state = JobState.CANCELLED
        self._end(job)
