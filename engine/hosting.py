"""Hosting the engine: one protocol for every place that reads documents, and the one way a
typed error, a cancel and a warm-up cross between a host and its caller.

Every host offers the whole of `Converter`: this process (`LocalConverter`: the service's
workers, the CLI), the desktop app's child process (gui/engine_process.py's EngineProcess,
whose child hosts its engine with a LocalConverter) and Ray's page workers
(engine/cluster/converter.py's ClusterConverter: the service on Ray, the CLI's --ray). Each
front end chooses its host in one place and types against `Converter`. Across every host:

- an error crosses as `RemoteError`, plain data (its class name, its sentence, and for
  `DocumentFailed` the result it carries), made by `encode_error` and raised again as the same
  type by `decode_error`; an error of no known type (a bug) comes back as `HostError` with its
  class name, a host that dies in the middle of a document as `HostLost`;
- a cancel is a `threading.Event` set by the caller and looked at before every page stage
  (`cancel_check`): a host across a pipe or on Ray sets its own event when told;
- a warm-up is `warm_up`: every model a page may need loaded, and one small page read, so the
  first document is not the slow one and a model that cannot be loaded is known at once.

Importing this module loads nothing heavy (the window and the HTTP server use the codec); what
reads pages is imported when it is first used."""

from __future__ import annotations

import inspect
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Protocol

from engine import errors
from engine.errors import Cancelled, DocumentFailed, PaperlensError

StageCallback = Callable[[str], None]


# -- errors as data --------------------------------------------------------------------------

class HostLost(PaperlensError):
    """The host reading a document ended in the middle of it (its process killed or crashed)."""


class HostError(PaperlensError):
    """An error a host met that is of no type the engine declares (a bug): `kind` is its class
    name, `message` its line."""

    def __init__(self, message: str, kind: str = "HostError") -> None:
        super().__init__(message)
        self.kind = kind


# Typed errors declared outside engine/errors.py that a host may raise: module -> class names.
# They are imported when an error is first decoded, so the codec stays light.
OTHER_ERRORS: dict[str, tuple[str, ...]] = {
    "engine.formats": ("ExportFailed",),
    "engine.runtime.install": ("OnnxRuntimeInstallConflict",),
}


def error_types() -> dict[str, type[PaperlensError]]:
    """Every typed error a host carries back, by class name: engine/errors.py's, the others
    named in OTHER_ERRORS, and this module's own."""
    import importlib

    found = {name: value for name, value in vars(errors).items()
             if inspect.isclass(value) and issubclass(value, PaperlensError)}
    for module, names in OTHER_ERRORS.items():
        room = importlib.import_module(module)
        found.update((name, getattr(room, name)) for name in names)
    found.update(HostLost=HostLost, HostError=HostError)
    return found


@dataclass(frozen=True)
class RemoteError:
    """A typed error as plain data, to cross a pipe or Ray: its class name and its sentence;
    `result` is DocumentFailed's DocumentResult (None for every other type), `detail` the
    arguments of an error built from more than its sentence."""

    kind: str
    message: str
    result: Any = None
    detail: tuple = ()

    @property
    def cancelled(self) -> bool:
        return self.kind == Cancelled.__name__

    def error(self) -> PaperlensError:
        """The same typed error, to raise here."""
        return decode_error(self)


def encode_error(error: BaseException) -> RemoteError:
    """`error` as plain data; any exception, typed or not (a bug keeps its class name)."""
    if isinstance(error, HostError):
        return RemoteError(error.kind, error.message)
    if isinstance(error, DocumentFailed):
        return RemoteError(type(error).__name__, error.message, result=error.result)
    if isinstance(error, PaperlensError):
        detail = tuple(getattr(error, "distributions", ()))  # OnnxRuntimeInstallConflict
        return RemoteError(type(error).__name__, error.message, detail=detail)
    return RemoteError(type(error).__name__, f"{type(error).__name__}: {error}")


def decode_error(remote: RemoteError) -> PaperlensError:
    """The typed error `remote` was made from; HostError for a class the engine does not
    declare."""
    kind = error_types().get(remote.kind)
    if kind is None:
        return HostError(remote.message, remote.kind)
    if kind is DocumentFailed:
        return DocumentFailed(remote.message, remote.result)
    if kind.__name__ == "OnnxRuntimeInstallConflict":
        return kind(remote.detail)
    return kind(remote.message)


# -- the protocol ----------------------------------------------------------------------------

class Converter(Protocol):
    """What a host of the engine offers its caller."""

    def convert(self, path: Any, options: Any, on_event: Callable[[Any], None] | None = None,
                cancel: threading.Event | None = None) -> Any:
        """The DocumentResult of `path` (engine.api.Engine.convert), or its typed error."""

    def read_page(self, source: Path, number: int, options: Any, stem: str,
                  on_stage: StageCallback, cancel: threading.Event) -> Any:
        """The PageOutcome of page `number` of `source` through every page stage; `on_stage`
        hears the name of each stage that finished (on Ray: each one the worker reports when
        asked, every second)."""

    def device_status(self) -> Any:
        """The device decision (engine.api.DeviceStatus); answers while a document converts."""

    def close(self) -> None:
        """Let go of what the host holds (open documents, a child process)."""


def cancel_check(cancel: threading.Event | None) -> Callable[[], None]:
    """What the recipe calls before every stage: raises Cancelled once `cancel` is set."""
    cancel = cancel if cancel is not None else threading.Event()

    def check() -> None:
        if cancel.is_set():
            raise Cancelled()
    return check


# -- warming up ------------------------------------------------------------------------------

@dataclass(frozen=True)
class WarmUp:
    device: dict[str, Any]
    """The device decision and its reason, in the words of `paperlens-cli device status`."""
    seconds: float


DEVICE_FACTS = ("effective", "backend", "adapter", "configured", "reason", "reason_code")


def device_facts(status_json: dict[str, Any]) -> dict[str, Any]:
    """The part of DeviceStatus.to_json() a host reports when it is ready."""
    return {key: status_json.get(key) for key in DEVICE_FACTS}


def warm_up(engine: Any, layout_model: str | None) -> WarmUp:
    """Load every model a page may need and read one small page of printed lines with them.
    Raises the typed error of a model that cannot be loaded."""
    import cv2

    from engine.options import ConvertOptions

    started = time.perf_counter()
    models = engine.models
    models.page_reader()
    if layout_model:
        models.layout_detector(layout_model)
    models.table_recognizer()
    models.formula_recognizer()
    with tempfile.TemporaryDirectory(prefix="paperlens-warm-up-") as folder:
        sample = Path(folder) / "warm-up.png"
        cv2.imwrite(str(sample), sample_page())
        engine.convert(sample, ConvertOptions(layout_model=layout_model,
                                              output_dir=str(Path(folder) / "out")))
    return WarmUp(device_facts(engine.device_status().to_json()),
                  round(time.perf_counter() - started, 3))


def sample_page() -> Any:
    """A small page of printed lines: every text model runs on it once."""
    import cv2
    import numpy as np

    page = np.full((360, 720, 3), 255, dtype=np.uint8)
    lines = ("Paperlens warm-up page", "Models loaded once per worker", "1 2 3 4 5 6 7 8 9 0")
    for row, text in enumerate(lines):
        cv2.putText(page, text, (30, 70 + 90 * row), cv2.FONT_HERSHEY_SIMPLEX, 1.1, (20, 20, 20),
                    2, cv2.LINE_AA)
    return page


# -- this process ----------------------------------------------------------------------------

class LocalConverter:
    """The engine in this process: `engine` is an engine.api.Engine (or anything with its
    `convert`, `read_pages`, `models` and `device_status`). The last opened document stays open for its next
    page."""

    def __init__(self, engine: Any) -> None:
        self.engine = engine
        self._open: tuple[Path, Any] | None = None

    def convert(self, path: Any, options: Any, on_event: Callable[[Any], None] | None = None,
                cancel: threading.Event | None = None) -> Any:
        from engine.events import ignore_event

        return self.engine.convert(path, options, on_event=on_event or ignore_event,
                                   cancel=cancel)

    def read_page(self, source: Path, number: int, options: Any, stem: str,
                  on_stage: StageCallback, cancel: threading.Event) -> Any:
        cancel_check(cancel)()
        document = self._document(source)
        pages = self.engine.read_pages(document, [number], options, stem,
                                       lambda _index, _number, stage, _state: on_stage(stage),
                                       cancel)
        (outcome,) = list(pages)
        return outcome

    def device_status(self) -> Any:
        return self.engine.device_status()

    def warm_up(self, layout_model: str | None) -> WarmUp:
        return warm_up(self.engine, layout_model)

    def close(self) -> None:
        if self._open is not None:
            self._open[1].close()
            self._open = None
            forget_decoded_images()

    def _document(self, source: Path) -> Any:
        from engine.input.document import open_document

        if self._open is not None and self._open[0] == source:
            return self._open[1]
        self.close()
        document = open_document(source, bounded=False)  # probed when it was uploaded
        self._open = (source, document)
        return document


def forget_decoded_images() -> None:
    """Empty MuPDF's process-wide store of decoded images and fonts. It keeps what closed
    documents decoded, up to 256 MiB, which nothing reads again: a host that has read hundreds
    of documents would otherwise grow by each one's images (measured: 0.6 MiB per one-page
    scan) until the store is full."""
    import pymupdf

    pymupdf.TOOLS.store_shrink(100)
