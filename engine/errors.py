"""Typed errors the user can act on; each carries one human-readable line."""

from __future__ import annotations


class PaperlensError(Exception):
    """Base of every error the engine reports to a person.

    `message` is one line fit for a dialog or a terminal; `str(error)` returns it.
    """

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:  # pragma: no cover - trivial
        return self.message


class UnsupportedInput(PaperlensError):
    """The file is not a document or image Paperlens can read."""


class UnsafeInput(UnsupportedInput):
    """The file carries active content (an Office document's macros) or is built to exhaust the
    reader (a decompression bomb, XML entities that expand without bound, a DTD or an external
    entity reference); nothing in it was run or fetched."""


class CorruptDocument(PaperlensError):
    """The file claims a known type but cannot be opened or read."""


class PasswordRequired(PaperlensError):
    """The PDF is encrypted and no password was given."""


class WrongPassword(PasswordRequired):
    """A password was given but it does not open the PDF."""


class ModelUnavailable(PaperlensError):
    """A model file is missing and could not be fetched or verified."""


class ModelIntegrityError(ModelUnavailable):
    """A downloaded model or wheel did not match its pinned checksum."""


class OutputNotWritable(PaperlensError):
    """The output folder cannot be created or written."""


class Cancelled(PaperlensError):
    """The caller asked to stop. Not a failure: nothing was written."""

    def __init__(self, message: str = "Conversion cancelled; nothing was written.") -> None:
        super().__init__(message)


class InvalidOptions(PaperlensError):
    """Conversion options that cannot be honoured (bad page range, DPI out of bounds, ...)."""


class DocumentFailed(PaperlensError):
    """Every page of a document failed; nothing was written. `result` is the DocumentResult
    with each page's errors (stage, kind, message)."""

    def __init__(self, message: str, result) -> None:
        super().__init__(message)
        self.result = result


class PageTooLarge(CorruptDocument):
    """One page of a document holds an image over the pixel cap: that page alone is skipped,
    before anything is decoded, as a page that cannot be read."""


class ClusterUnavailable(PaperlensError):
    """A Ray cluster cannot be used: Ray is not installed, the address does not answer, or
    no worker could be started on it."""


class WorkerLost(PaperlensError):
    """The cluster worker reading a page died (its process or its machine) as often as a page
    may be retried; the page is failed, the document goes on."""
