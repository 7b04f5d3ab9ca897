"""The conversion process: one Engine, hosted by engine.api.LocalConverter and fed documents
and pages over a pipe by the window's process (gui/engine_process.py), answering with engine
events, page stages, log records, device status and each document's or page's outcome, all as
picklable messages.

No Qt here and no engine at import: the process is started with multiprocessing's "spawn",
imports this module, and loads the engine when it runs `serve`."""

from __future__ import annotations

import copy
import logging
import os
import pickle
import queue
import socket
import sys
import threading
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any

from gui.live_frames import LiveFrame, LiveFrames, screen_pixels

log = logging.getLogger(__name__)

# Niceness of the conversion process: when the CPU is contended, the window gets it first.
ENGINE_NICENESS = 10
BELOW_NORMAL_PRIORITY_CLASS = 0x4000  # Windows' SetPriorityClass value
STOP_GRACE_S = 10.0
"""How long a conversion told to stop (the window closed or went away) may take to finish."""


# -- messages to the conversion process --------------------------------------------------------

@dataclass(frozen=True)
class Convert:
    path: str
    options: Any
    """engine.api.ConvertOptions"""


@dataclass(frozen=True)
class ReadPage:
    """One page of a document through every page stage (Converter.read_page)."""

    source: str
    number: int
    options: Any
    """engine.api.ConvertOptions"""
    stem: str


@dataclass(frozen=True)
class Cancel:
    """Stop what runs (the latest Convert or ReadPage) before its next stage."""


@dataclass(frozen=True)
class Stop:
    """Cancel what runs and end the process."""


# -- messages from it (and a document that could not be converted: engine.api.RemoteError) ---

@dataclass(frozen=True)
class Emitted:
    event: Any
    """An engine event; a PageProgress arrives as the LiveFrame made of it, or not at all."""
    picture_size: tuple[int, int] | None = None
    """(width, height) of a LiveFrame's new picture, which is not pickled: its screen pixels
    (gui.live_frames.screen_pixels) follow on the picture socket, and the receiver reads them
    straight into a picture's own memory without holding Python's lock (unpickling a page's
    8 MB held it 30 ms on a busy machine, and converting it there needs OpenCV there)."""


@dataclass(frozen=True)
class StageDone:
    """A page being read (ReadPage) finished this stage."""

    stage: str


@dataclass(frozen=True)
class PageRead:
    """The page a ReadPage asked for: an engine.api.PageOutcome (its result, crops and
    picture are plain data)."""

    outcome: Any


@dataclass(frozen=True)
class StatusReport:
    status: Any
    """engine.device.status.DeviceStatus, sent before the events and outcomes it explains."""


@dataclass(frozen=True)
class Finished:
    """A converted document. Its pages are pickled one by one, so that the receiver unpickles
    a long document a page at a time and other threads get Python's lock in between."""

    result: Any
    """engine.api.DocumentResult without its pages."""
    pages: tuple[bytes, ...]

    @classmethod
    def of(cls, result: Any) -> "Finished":
        return cls(replace(result, pages=()), tuple(pickle.dumps(page) for page in result.pages))

    def document(self) -> Any:
        return replace(self.result, pages=tuple(pickle.loads(page) for page in self.pages))


def portable_settings(settings: Any) -> Any:
    """Settings that pickle: their origins as a plain dict (a mappingproxy does not pickle)."""
    return replace(settings, origins=dict(settings.origins))


# -- the process ---------------------------------------------------------------------------------

class Outbox:
    """Sends messages to the window's process from any thread of this one, one at a time; a
    window that went away is not an error here (the process is about to end)."""

    def __init__(self, connection: Any, pictures: socket.socket) -> None:
        self._connection = connection
        self._pictures = pictures
        self._lock = threading.Lock()

    def send(self, message: Any) -> None:
        with self._lock:
            try:
                self._connection.send(message)
            except OSError:
                pass

    def send_frame(self, frame: LiveFrame) -> None:
        """A live frame; its new picture, if any, as screen pixels right after it."""
        if frame.pixels is None:
            self.send(Emitted(frame))
            return
        screen = screen_pixels(frame.pixels)
        height, width = screen.shape[:2]
        with self._lock:
            try:
                self._connection.send(Emitted(replace(frame, pixels=None), (width, height)))
                self._pictures.sendall(screen.data.cast("B"))
            except OSError:
                pass


class ForwardingHandler(logging.Handler):
    """Hands every log record to the window's process, which handles it as its own."""

    def __init__(self, outbox: Outbox) -> None:
        super().__init__()
        self._outbox = outbox

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self._outbox.send(picklable_record(record, self))
        except Exception:  # noqa: BLE001 - a record that cannot be sent must not stop a page
            self.handleError(record)


def picklable_record(record: logging.LogRecord, handler: logging.Handler) -> logging.LogRecord:
    """The record with its message formatted and its traceback as text (neither the arguments
    nor a traceback object need to pickle)."""
    sent = copy.copy(record)
    sent.msg, sent.args = record.getMessage(), None
    if record.exc_info:
        sent.exc_text = (handler.formatter or logging.Formatter()).formatException(
            record.exc_info)
        sent.exc_info = None
    return sent


def lower_process_priority() -> None:
    """Yield the CPU to the window. Called first, before any thread starts: on Linux niceness
    belongs to each thread and the threads started later (ONNX Runtime's) inherit it."""
    try:
        if sys.platform == "win32":
            import ctypes

            kernel32 = ctypes.windll.kernel32  # type: ignore[attr-defined]
            kernel32.SetPriorityClass(kernel32.GetCurrentProcess(), BELOW_NORMAL_PRIORITY_CLASS)
        elif os.getpriority(os.PRIO_PROCESS, 0) < ENGINE_NICENESS:
            os.setpriority(os.PRIO_PROCESS, 0, ENGINE_NICENESS)
    except OSError as error:
        log.debug("could not lower the conversion process's priority: %s", error)


def serve(connection: Any, pictures: socket.socket, settings: Any, log_level: int,
          make_engine: Any = None) -> None:
    """The conversion process's main: converts what arrives until Stop, or until the window's
    process goes away (its end of the pipe closes). Pictures go out on `pictures`.
    `make_engine(settings)` makes what converts (engine.api.Engine when None)."""
    lower_process_priority()
    outbox = Outbox(connection, pictures)
    root = logging.getLogger()
    root.handlers[:] = [ForwardingHandler(outbox)]
    root.setLevel(log_level)
    if make_engine is None:
        from engine.api import Engine as make_engine

    from engine.api import LocalConverter

    engine = make_engine(replace(settings, origins=MappingProxyType(settings.origins)))
    log.info("conversion process %d ready", os.getpid())
    requests: queue.SimpleQueue = queue.SimpleQueue()
    runner = threading.Thread(target=run_conversions,
                              args=(LocalConverter(engine), requests, outbox),
                              name="paperlens-conversion", daemon=True)
    runner.start()
    listen(connection, requests)
    runner.join(STOP_GRACE_S)  # past it, the staging folder is left to the next writer


def listen(connection: Any, requests: queue.SimpleQueue) -> None:
    """Read the window's messages until Stop or the pipe's end; a Cancel stops the latest
    document or page (the window sends the next request only after the last one's outcome)."""
    cancel = threading.Event()
    while True:
        try:
            message = connection.recv()
        except (EOFError, OSError):
            message = Stop()
        if isinstance(message, (Convert, ReadPage)):
            cancel = threading.Event()
            requests.put((message, cancel))
        elif isinstance(message, Cancel):
            cancel.set()
        else:
            cancel.set()
            requests.put(None)
            return


def run_conversions(host: Any, requests: queue.SimpleQueue, outbox: Outbox) -> None:
    """Answer each request with `host` (an engine.api.LocalConverter), one at a time; the
    document a page came from stays open for its next page, until the process ends."""
    try:
        while (request := requests.get()) is not None:
            message, cancel = request
            if isinstance(message, ReadPage):
                outcome = read_page(host, message, cancel, outbox)
            else:
                outcome = convert(host, message, cancel, outbox)
            outbox.send(StatusReport(host.device_status()))
            outbox.send(outcome)
    finally:
        host.close()


def read_page(host: Any, message: ReadPage, cancel: threading.Event, outbox: Outbox) -> Any:
    """The page's PageRead message, or its error as engine.api.RemoteError."""
    from pathlib import Path

    from engine.api import PaperlensError, encode_error

    try:
        outcome = host.read_page(Path(message.source), message.number, message.options,
                                 message.stem, lambda stage: outbox.send(StageDone(stage)),
                                 cancel)
    except PaperlensError as error:
        return encode_error(error)
    except Exception as error:  # a bug must not end the process: the next request goes on
        log.exception("%s: page %d: unexpected error", message.source, message.number)
        return encode_error(error)
    return PageRead(outcome)


def convert(host: Any, message: Convert, cancel: threading.Event,
            outbox: Outbox) -> Any:
    """The document's Finished message, or its error as engine.api.RemoteError."""
    from engine.api import DeviceDecided, PageProgress, PaperlensError, encode_error

    frames = LiveFrames()

    def on_event(event: Any) -> None:
        if isinstance(event, PageProgress):
            frame = frames.frame(event)
            if frame is not None:
                outbox.send_frame(frame)
            return
        if isinstance(event, DeviceDecided):
            outbox.send(StatusReport(host.device_status()))
        outbox.send(Emitted(event))

    try:
        result = host.convert(message.path, message.options, on_event=on_event, cancel=cancel)
    except PaperlensError as error:
        return encode_error(error)
    except Exception as error:  # a bug must not end the process: the next document goes on
        log.exception("%s: unexpected error", message.path)
        return encode_error(error)
    return Finished.of(result)
