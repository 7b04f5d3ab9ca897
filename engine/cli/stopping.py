"""How `convert` stops: Ctrl+C and SIGTERM asked for cooperatively, and MuPDF kept quiet while
it runs (every failure reaches the person as a typed line)."""

from __future__ import annotations

import signal
import threading
from contextlib import contextmanager
from typing import Iterator


class Stopped(KeyboardInterrupt):
    """A second Ctrl+C or SIGTERM while the first is being honoured: the document in progress
    is abandoned at once and its staging removed."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


class StopRequests:
    """Ctrl+C and SIGTERM, taken cooperatively: the first sets `cancel`, which the engine
    checks between stages and before the commit, so the document in progress ends with nothing
    written or whole, never torn by an exception raised inside a library (MuPDF, a pandoc
    pipe), where it would be swallowed or turned into a failed export. A second one stops at
    once."""

    def __init__(self, cancel: threading.Event) -> None:
        self.cancel = cancel
        self.signum: int | None = None

    @property
    def exit_code(self) -> int:
        return 128 + (self.signum or signal.SIGINT)

    def __call__(self, signum, frame) -> None:
        if self.signum is not None:
            raise Stopped(signum)
        self.signum = signum
        self.cancel.set()

    @contextmanager
    def installed(self) -> Iterator["StopRequests"]:
        if threading.current_thread() is not threading.main_thread():
            yield self
            return
        wanted = (signal.SIGINT, signal.SIGTERM)
        previous = {number: signal.signal(number, self) for number in wanted}
        try:
            yield self
        finally:
            for number, handler in previous.items():
                signal.signal(number, handler if handler is not None else signal.SIG_DFL)


@contextmanager
def mupdf_quiet() -> Iterator[None]:
    """Every failure reaches the person as a typed line; MuPDF's own messages would be raw
    library text on the terminal besides."""
    import pymupdf

    previous = pymupdf.TOOLS.mupdf_display_errors()
    pymupdf.TOOLS.mupdf_display_errors(False)
    try:
        yield
    finally:
        pymupdf.TOOLS.mupdf_display_errors(previous)
