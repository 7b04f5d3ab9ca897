"""Short background calls off the UI thread, with their result delivered back on the UI thread.

A call made for a widget names it as `owner`: when the widget is gone by the time the result
comes back (a dialog closed while its status was being read), the result is dropped instead of
reaching a deleted Qt object."""

from __future__ import annotations

import logging
import threading
from typing import Any, Callable

import shiboken6
from PySide6.QtCore import QObject, QRunnable, Qt, QThreadPool, Signal, Slot

log = logging.getLogger(__name__)

_live: set["_Relay"] = set()  # relays waiting for their call; kept alive until it reports


class _Relay(QObject):
    """Lives on the UI thread; its signals cross from the worker thread as queued calls."""

    succeeded = Signal(object)
    failed = Signal(object)

    def __init__(self, on_done: Callable[[Any], None],
                 on_error: Callable[[BaseException], None] | None,
                 owner: QObject | None = None) -> None:
        super().__init__()
        self._on_done = on_done
        self._on_error = on_error
        self._owner = owner
        self.succeeded.connect(self._deliver, Qt.ConnectionType.QueuedConnection)
        self.failed.connect(self._report, Qt.ConnectionType.QueuedConnection)

    def _owner_gone(self) -> bool:
        if self._owner is None or shiboken6.isValid(self._owner):
            return False
        log.debug("background result dropped: its window is closed")
        return True

    @Slot(object)
    def _deliver(self, value: Any) -> None:
        _live.discard(self)
        if not self._owner_gone():
            self._on_done(value)

    @Slot(object)
    def _report(self, error: BaseException) -> None:
        _live.discard(self)
        if self._owner_gone():
            return
        if self._on_error is not None:
            self._on_error(error)
        else:
            log.warning("background task failed: %s", error)


class _Task(QRunnable):
    def __init__(self, call: Callable[[], Any], relay: _Relay) -> None:
        super().__init__()
        self._call = call
        self._relay = relay

    def run(self) -> None:
        _run_and_report(self._call, self._relay)


def _run_and_report(call: Callable[[], Any], relay: _Relay) -> None:
    try:
        value = call()
    except BaseException as error:  # reported on the UI thread, never lost
        relay.failed.emit(error)
    else:
        relay.succeeded.emit(value)


def run_in_background(call: Callable[[], Any], on_done: Callable[[Any], None],
                      on_error: Callable[[BaseException], None] | None = None,
                      owner: QObject | None = None) -> None:
    """Run `call` on Qt's thread pool; `on_done(result)` or `on_error(exc)` runs on the UI thread,
    unless `owner` has been deleted by then.

    For short work (rendering a page, listing a folder, reading a status)."""
    relay = _Relay(on_done, on_error, owner)
    _live.add(relay)
    QThreadPool.globalInstance().start(_Task(call, relay))


def run_detached(call: Callable[[], Any], on_done: Callable[[Any], None],
                 on_error: Callable[[BaseException], None] | None = None,
                 name: str = "paperlens-background",
                 owner: QObject | None = None) -> threading.Thread:
    """Like run_in_background, on a daemon thread that never holds up quitting (downloads)."""
    relay = _Relay(on_done, on_error, owner)
    _live.add(relay)
    thread = threading.Thread(target=_run_and_report, args=(call, relay), name=name, daemon=True)
    thread.start()
    return thread
