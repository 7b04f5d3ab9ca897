"""The conversion worker: a QObject on its own QThread; it owns a host of the engine (an
engine.api.Converter: by default the Engine in a child process, gui/engine_process.py) and
speaks in signals."""

from __future__ import annotations

import logging
import os
import sys
import threading
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

from PySide6.QtCore import QObject, QThread, Qt, Signal, Slot

from gui.live_frames import LiveFrame
from gui.live_page import LivePageBuilder
from gui.reading_choices import ReadingChoices
from settings import Settings, SettingsStore

if TYPE_CHECKING:
    from engine.api import Converter

log = logging.getLogger(__name__)

EngineFactory = Callable[[Settings], "Converter"]
"""Makes the worker's host of the engine for the settings (tests hand in stand-ins that offer
what the worker calls: convert and device_status)."""


def default_engine_factory(settings: Settings) -> Converter:
    """The one place the window chooses its host of the engine: engine.api.Engine in a child
    process (EngineProcess, a Converter), started on its first document, so the engine's
    Python never holds the window's interpreter lock."""
    from gui.engine_process import EngineProcess  # imported off the UI thread, when needed

    return EngineProcess(settings)


def close_engine(engine: Converter) -> None:
    """Stop what a host holds beyond this process (a child process); a test's stand-in may
    hold nothing and offer no close."""
    close = getattr(engine, "close", None)
    if close is not None:
        close()


def error_kind(error: BaseException) -> str:
    """The class name the window shows and keys on; an error raised again from the child
    process keeps the name it had there."""
    return str(getattr(error, "kind", type(error).__name__))


@dataclass(frozen=True)
class ConversionRequest:
    """One document to convert, as the window hands it to the worker (no Qt types inside)."""

    job_id: int
    path: str
    output_dir: str
    output_name: str
    password: str | None
    cancel: threading.Event
    method: str = "auto"
    choices: ReadingChoices = ReadingChoices()
    """Its pages and reading switches (they win over the settings)."""


class ConversionWorker(QObject):
    """Converts one document at a time; every engine event becomes a signal.

    Lives on the worker thread. The window talks to it only through `convertRequested`
    (queued) and the request's cancel event; it answers only through the signals below."""

    convertRequested = Signal(object)
    documentStarted = Signal(int, int)  # job id, pages to process
    pageProgress = Signal(int, object)  # job id, gui.live_page.LivePage
    pageDone = Signal(int, object)  # job id, engine.api.PageDone
    warningRaised = Signal(int, str)  # job id, message
    downloadProgress = Signal(object)  # engine.api.ModelDownloadProgress
    deviceDecided = Signal(object)  # engine.api.DeviceDecided
    documentFinished = Signal(int, object)  # job id, engine.api.DocumentResult
    documentFailed = Signal(int, str, str)  # job id, error type name, one-line message
    documentCancelled = Signal(int)
    engineCreated = Signal()
    retiredEngines = Signal()  # queued to the worker thread: close the engines forgotten

    def __init__(self, store: SettingsStore, engine_factory: EngineFactory | None = None) -> None:
        super().__init__()
        self._store = store
        self._factory = engine_factory or default_engine_factory
        self._engine: Converter | None = None
        self._engine_key: tuple | None = None
        self._retired: list[Converter] = []
        self._lock = threading.Lock()
        self._generation = 0
        self.convertRequested.connect(self._convert, Qt.ConnectionType.QueuedConnection)
        self.retiredEngines.connect(self._close_retired, Qt.ConnectionType.QueuedConnection)

    # -- thread-safe, callable from the window --------------------------------------------------

    @property
    def engine(self) -> Converter | None:
        """The current host of the engine, or None before the first document."""
        with self._lock:
            return self._engine

    def forget_engine(self) -> None:
        """Start from a fresh Engine on the next document, so its device is decided again.

        The forgotten one is closed on the worker thread, after a document still running on
        it has returned."""
        with self._lock:
            self._generation += 1
            if self._engine is not None:
                self._retired.append(self._engine)
            self._engine = None
            self._engine_key = None
        self.retiredEngines.emit()

    def close_engines(self) -> None:
        """Close the current and forgotten engines (the worker thread has stopped)."""
        with self._lock:
            engines, self._retired = [*self._retired, self._engine], []
            self._engine, self._engine_key = None, None
        for engine in engines:
            if engine is not None:
                close_engine(engine)

    def device_status(self) -> Any:
        """The engine's device status; reading it decides and loads nothing.

        Called on a background thread. Without an Engine yet, a throwaway one (cheap: it loads
        no model and probes nothing) answers for the current settings."""
        settings = self._store.load()
        with self._lock:
            current = self._engine_key == self._key(settings)
            engine = self._engine if current else None
        if engine is None:
            engine = self._factory(settings)
        return engine.device_status()

    def _key(self, settings: Settings) -> tuple:
        """What an Engine is built from: a change means a new Engine for the next document."""
        model = settings.model
        return (model.onnx_device, model.base_dir, model.index_url, self._generation)

    # -- worker thread ------------------------------------------------------------------------

    @Slot(object)
    def _convert(self, request: ConversionRequest) -> None:
        from engine import api
        from engine.api import Cancelled, PaperlensError

        if request.cancel.is_set():
            self.documentCancelled.emit(request.job_id)
            return
        started = time.perf_counter()
        try:
            settings = self._store.load()
            engine = self._engine_for(settings)
            if getattr(engine, "runs_here", True):
                lower_thread_priority()
            options = self._options(settings, request)
            live_pages = LivePageBuilder()

            def on_event(event: Any) -> None:
                if isinstance(event, api.DocumentStarted):
                    self.documentStarted.emit(request.job_id, event.page_count)
                elif isinstance(event, (api.PageProgress, LiveFrame)):
                    live = live_pages.build(event)  # a LiveFrame: from the child process
                    if live is not None:
                        self.pageProgress.emit(request.job_id, live)
                elif isinstance(event, api.PageDone):
                    self.pageDone.emit(request.job_id, event)
                elif isinstance(event, api.WarningEvent):
                    # A page's warning names its page, as the document's warnings do.
                    where = f"page {event.page_number}: " if event.page_number else ""
                    self.warningRaised.emit(request.job_id, where + event.message)
                elif isinstance(event, api.ModelDownloadProgress):
                    self.downloadProgress.emit(event)
                elif isinstance(event, api.DeviceDecided):
                    self.deviceDecided.emit(event)

            result = engine.convert(request.path, options, on_event=on_event,
                                    cancel=request.cancel)
        except Cancelled:
            log.info("%s: cancelled", request.path)
            self.documentCancelled.emit(request.job_id)
        except PaperlensError as error:
            log.warning("%s: %s", request.path, error.message)
            self.documentFailed.emit(request.job_id, error_kind(error), error.message)
        except Exception as error:  # a bug must not kill the worker: the queue goes on
            log.exception("%s: unexpected error", request.path)
            self.documentFailed.emit(request.job_id, type(error).__name__,
                                     f"{type(error).__name__}: {error}")
        else:
            log.info("%s: %d page(s) in %.1f s", request.path, len(result.pages),
                     time.perf_counter() - started)
            self.documentFinished.emit(request.job_id, result)

    @Slot()
    def _close_retired(self) -> None:
        with self._lock:
            retired, self._retired = self._retired, []
        for engine in retired:
            close_engine(engine)

    def _engine_for(self, settings: Settings) -> Converter:
        with self._lock:
            key = self._key(settings)
            if self._engine is None or self._engine_key != key:
                if self._engine is not None:
                    self._retired.append(self._engine)
                self._engine = self._factory(settings)
                self._engine_key = key
                created = True
            else:
                created = False
            engine = self._engine
        self._close_retired()
        if created:
            log.info("engine created (device setting: %s)", settings.model.onnx_device)
            self.engineCreated.emit()
        return engine

    @staticmethod
    def _options(settings: Settings, request: ConversionRequest) -> Any:
        from engine.api import options_from_settings

        return options_from_settings(
            settings, output_dir=request.output_dir, output_name=request.output_name,
            password=request.password, method=request.method,
            **request.choices.option_values())


# Niceness on Linux of a conversion thread running an engine in this process (an injected one;
# the shipping engine lowers its own process): when the CPU is contended, the window gets it first.
WORKER_NICENESS = 10


def lower_thread_priority() -> None:
    """Make the calling thread (and the threads it starts later) yield the CPU to the UI.

    On Linux niceness belongs to each thread and threads inherit it from the thread that
    starts them, so ONNX Runtime's compute threads, created with the first model session on
    this thread, are lowered too. Elsewhere QThread's priority does the job."""
    if not sys.platform.startswith("linux"):
        QThread.currentThread().setPriority(QThread.Priority.LowPriority)
        return
    tid = threading.get_native_id()
    try:
        if os.getpriority(os.PRIO_PROCESS, tid) < WORKER_NICENESS:
            os.setpriority(os.PRIO_PROCESS, tid, WORKER_NICENESS)
    except OSError as error:
        log.debug("could not lower the conversion thread's priority: %s", error)


# How long a thread may keep Python's lock while another waits for it. The conversion thread
# runs Python between model calls; at CPython's default of 5 ms every slot, paint callback or
# timer of the window that finds the lock taken waited about that long to run. A probe waking
# every millisecond beside a thread running Python (tools/ui_lock.py) waited 6.2 ms (median of
# 300) at 5 ms and 2.1-2.2 ms at 1 ms. The conversion thread gives up the lock more often only
# while another thread wants it.
UI_SWITCH_INTERVAL_S = 0.001


def share_interpreter_with_ui() -> None:
    """Let the UI thread take Python's lock back within UI_SWITCH_INTERVAL_S (never longer than
    the interpreter's own setting)."""
    if sys.getswitchinterval() > UI_SWITCH_INTERVAL_S:
        sys.setswitchinterval(UI_SWITCH_INTERVAL_S)


STOP_AFTER_CLOSE_S = 10.0  # a document whose child process was stopped returns by then


class WorkerThread:
    """Starts the worker on its own QThread and stops it cleanly."""

    def __init__(self, store: SettingsStore, engine_factory: EngineFactory | None = None) -> None:
        share_interpreter_with_ui()
        self.thread = QThread()
        self.thread.setObjectName("paperlens-conversion")
        self.worker = ConversionWorker(store, engine_factory)
        self.worker.moveToThread(self.thread)
        self.thread.start()  # lowered only to run an engine here (lower_thread_priority)

    def stop(self, timeout_s: float = 60.0) -> bool:
        """Quit the thread once the running document (already told to cancel) has returned,
        then stop the engines' child processes. One that kept the thread past `timeout_s` is
        stopped all the same, which ends the wait of the document on it."""
        self.thread.quit()
        stopped = self.thread.wait(int(timeout_s * 1000))
        if not stopped:
            log.error("the conversion thread did not stop within %.0f s", timeout_s)
        self.worker.close_engines()
        if not stopped:
            stopped = self.thread.wait(int(STOP_AFTER_CLOSE_S * 1000))
        return stopped
