"""The real Engine in a child process, behind the host protocol (engine.api.Converter):
`convert` a document, `read_page` one page of it, `device_status()` and `close()`.

The window's process keeps only waiting on a pipe while a document converts: the engine's
Python between model calls runs in the child (gui/engine_child.py), so it never holds the
window's interpreter lock. The child is started with "spawn" (never fork in a Qt process) on
the first document and lives until `close`; one that dies is reported as the document's
failure and replaced by a fresh one for the next document."""

from __future__ import annotations

import logging
import multiprocessing
import os
import signal
import socket
import sys
import threading
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable

from engine import api
from gui.engine_child import (ENGINE_NICENESS, Cancel, Convert, Emitted, Finished, PageRead,
                              ReadPage, StageDone, StatusReport, Stop, portable_settings, serve)

log = logging.getLogger(__name__)

POLL_S = 0.05
"""How often a conversion waiting for the child looks at its cancel event."""
CANCEL_GRACE_S = 30.0
"""A child that has not answered a cancel by then (stuck inside a model) is stopped."""
STOP_S = 5.0
"""How long a child told to stop may take before it is terminated."""
PICTURE_TIMEOUT_S = 30.0
"""A picture's bytes follow its frame at once; a child that stops sending them is lost."""


def lost_message(exitcode: int | None) -> str:
    """One line for a child that ended in the middle of a document."""
    if exitcode is not None and exitcode < 0:
        try:
            how = f"it was ended by {signal.Signals(-exitcode).name}"
        except ValueError:
            how = f"it was ended by signal {-exitcode}"
    else:
        how = f"exit code {exitcode}" if exitcode is not None else "it stopped answering"
    return (f"The conversion process stopped unexpectedly ({how}); nothing was written. "
            "The next document starts a new one.")


def forward_log(record: logging.LogRecord) -> None:
    """A record logged in the child, handled as if logged here (the log window shows it)."""
    logger = logging.getLogger(record.name)
    if logger.isEnabledFor(record.levelno):
        logger.handle(record)


def start_niced(process: Any) -> None:
    """Start `process` niced from its first instruction. On Linux a new process takes the
    niceness of the thread that starts it, so a short-lived thread lowers its own and starts
    it: the interpreter's start and the imports before `serve` lowers the process (which
    elsewhere is all there is) then yield the CPU to the window too."""
    if not sys.platform.startswith("linux"):
        process.start()
        return
    failures: list[BaseException] = []

    def start() -> None:
        try:
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), ENGINE_NICENESS)
        except OSError as error:
            log.debug("could not lower the starting thread's priority: %s", error)
        try:
            process.start()
        except BaseException as error:  # noqa: BLE001 - raised again on the caller's thread
            failures.append(error)

    starter = threading.Thread(target=start, name="paperlens-engine-start")
    starter.start()
    starter.join()
    if failures:
        raise failures[0]


@dataclass
class Child:
    """One running child, the window's end of its pipe and of its picture socket."""

    process: Any
    connection: Any
    pictures: socket.socket

    @classmethod
    def start(cls, settings: Any, make_engine: Any = None) -> "Child":
        context = multiprocessing.get_context("spawn")
        ours, theirs = context.Pipe(duplex=True)
        our_pictures, their_pictures = socket.socketpair()
        process = context.Process(
            target=serve, name="paperlens-engine", daemon=True,
            args=(theirs, their_pictures, portable_settings(settings),
                  logging.getLogger().getEffectiveLevel(), make_engine))
        start_niced(process)
        theirs.close()  # only the child holds its ends now: its death ends them
        their_pictures.close()
        our_pictures.settimeout(PICTURE_TIMEOUT_S)
        log.info("conversion process started (pid %d)", process.pid)
        return cls(process, ours, our_pictures)

    def receive(self, timeout_s: float) -> Any | None:
        """The next message, or None when none came in time; a frame's picture is read from
        the picture socket into it. Raises EOFError once the child is gone."""
        if not self.connection.poll(timeout_s):
            if not self.process.is_alive():
                raise EOFError
            return None
        message = self.connection.recv()
        if isinstance(message, Emitted) and message.picture_size is not None:
            image = self.read_picture(*message.picture_size)
            return Emitted(replace(message.event, image=image))
        return message

    def read_picture(self, width: int, height: int) -> Any:
        """The socket's next picture as a QImage: the kernel writes its screen pixels straight
        into the picture's memory, each read letting go of Python's lock; nothing is copied or
        converted while holding it."""
        from PySide6.QtGui import QImage

        from gui.page_images import SCREEN_FORMAT

        image = QImage(width, height, SCREEN_FORMAT)  # 4 bytes a pixel, rows without padding
        view = memoryview(image.bits()).cast("B")
        done = 0
        while done < len(view):
            count = self.pictures.recv_into(view[done:])
            if count == 0:
                raise EOFError
            done += count
        return image

    def stop(self) -> None:
        """Ask the child to end, then make sure it has."""
        try:
            self.connection.send(Stop())
        except OSError:
            pass
        self.process.join(STOP_S)
        if self.process.is_alive():
            log.warning("the conversion process did not stop in %.0f s; terminating it", STOP_S)
            self.process.terminate()
            self.process.join(STOP_S)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
        self.close()

    def close(self) -> None:
        self.connection.close()
        self.pictures.close()


class EngineProcess:
    """Hosts engine.api.Engine(settings) in a child process, as an engine.api.Converter; one
    per engine key (the worker makes a new one when the settings that make an Engine change).
    The child hosts its engine with engine.api.LocalConverter; its errors cross as
    engine.api.RemoteError and are raised here as the same type (engine/hosting.py).
    `make_engine`: a picklable callable the child makes its engine with (Engine when None)."""

    runs_here = False
    """The engine's work runs in the child, whose priority is lowered there. The thread that
    calls `convert` only relays messages and keeps its priority: lowered, it would wait for a
    CPU behind the child while holding Python's lock, and the window would wait with it."""

    def __init__(self, settings: Any, make_engine: Any = None) -> None:
        self._settings = settings
        self._make_engine = make_engine
        self._lock = threading.Lock()
        self._child: Child | None = None
        self._status: Any = None
        self._local: Any = None

    @property
    def pid(self) -> int | None:
        """The running child's process id, None when there is none."""
        with self._lock:
            child = self._child
        return child.process.pid if child is not None and child.process.is_alive() else None

    def device_status(self) -> Any:
        """The status the child last reported (when its device was decided, after each
        document); before any, an in-process Engine's, which loads no model and probes
        nothing. Never a request on the pipe, so it answers while a document converts."""
        with self._lock:
            if self._status is not None:
                return self._status
            if self._local is None:
                from engine.api import Engine

                self._local = Engine(self._settings)
            local = self._local
        return local.device_status()

    def convert(self, path: Any, options: Any, on_event: Callable[[Any], None] | None = None,
                cancel: threading.Event | None = None) -> Any:
        """As Engine.convert: the DocumentResult, or the child's typed error raised again;
        HostLost when the child dies meanwhile."""
        outcome = self._ask(Convert(str(path), options), cancel or threading.Event(),
                            on_event or (lambda _event: None))
        return outcome.document()

    def read_page(self, source: Path, number: int, options: Any, stem: str,
                  on_stage: Callable[[str], None], cancel: threading.Event) -> Any:
        """As LocalConverter.read_page, in the child: page `number`'s PageOutcome; `on_stage`
        hears each stage the child finished. The document stays open there for its next page."""
        outcome = self._ask(ReadPage(str(source), number, options, stem), cancel,
                            on_stage=on_stage)
        return outcome.outcome

    def _ask(self, request: Any, cancel: threading.Event,
             on_event: Callable[[Any], None] = lambda _event: None,
             on_stage: Callable[[str], None] = lambda _stage: None) -> Any:
        """Send `request` to the child and follow it to its outcome (Finished or PageRead);
        the child's typed error raised again here, HostLost when the child dies meanwhile."""
        child = self._running_child()
        try:
            child.connection.send(request)
            outcome = self._follow(child, on_event, on_stage, cancel)
        except (EOFError, OSError):
            self._discard(child)
            raise api.HostLost(lost_message(child.process.exitcode)) from None
        if isinstance(outcome, api.RemoteError):
            raise api.decode_error(outcome)
        return outcome

    def close(self) -> None:
        """Stop the child, if one runs (a document still converting is cancelled)."""
        with self._lock:
            child, self._child = self._child, None
        if child is not None:
            child.stop()
            log.info("conversion process stopped (pid %d)", child.process.pid)

    def _running_child(self) -> Child:
        with self._lock:
            child = self._child
        if child is not None and child.process.is_alive():
            return child
        if child is not None:
            log.warning("the conversion process had ended (exit code %s); starting a new one",
                        child.process.exitcode)
            self._discard(child)
        child = Child.start(self._settings, self._make_engine)
        with self._lock:
            self._child = child
        return child

    def _follow(self, child: Child, on_event: Callable[[Any], None],
                on_stage: Callable[[str], None], cancel: threading.Event) -> Any:
        """Hand the child's messages on until the request's outcome arrives."""
        cancelled_at: float | None = None
        while True:
            if cancel.is_set() and cancelled_at is None:
                child.connection.send(Cancel())
                cancelled_at = time.monotonic()
            if cancelled_at is not None and time.monotonic() - cancelled_at > CANCEL_GRACE_S:
                log.warning("the conversion process did not stop within %.0f s of a cancel",
                            CANCEL_GRACE_S)
                self._discard(child)
                return api.encode_error(api.Cancelled())
            message = child.receive(POLL_S)
            if isinstance(message, (Finished, PageRead, api.RemoteError)):
                return message
            if isinstance(message, Emitted):
                on_event(message.event)
            elif isinstance(message, StageDone):
                on_stage(message.stage)
            elif isinstance(message, StatusReport):
                with self._lock:
                    self._status = message.status
            elif isinstance(message, logging.LogRecord):
                forward_log(message)

    def _discard(self, child: Child) -> None:
        """Forget a child that died or is given up on, leaving no process behind."""
        with self._lock:
            if self._child is child:
                self._child = None
        if child.process.is_alive():
            child.process.kill()
        child.process.join()
        child.close()
