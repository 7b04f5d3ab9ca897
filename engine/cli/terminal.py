"""What the CLI writes on the terminal: every write passes through engine.names.shown, so a
file name (or a document's text quoted in a message) can neither add a line nor send an escape
sequence; the line ends and the progress bar's carriage return are the CLI's own."""

from __future__ import annotations

from typing import TextIO

from engine.names import shown


class ShownStream:
    """A text stream whose writes have their control characters escaped, except a write that
    is only a line end (print's own) and the carriage return that opens a progress redraw."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        if text == "\n":
            return self._stream.write(text)
        redraw = text.startswith("\r")
        self._stream.write(("\r" if redraw else "") + shown(text[1:] if redraw else text))
        return len(text)

    def flush(self) -> None:
        self._stream.flush()

    def isatty(self) -> bool:
        return self._stream.isatty()

    def fileno(self) -> int:
        return self._stream.fileno()

    def __getattr__(self, name: str):
        return getattr(self._stream, name)
