"""The page worker: one process on a cluster node holding one Engine, its models loaded once
at start, reading page ranges with the same recipe as a single process (recipe.read_pages).

It is a plain class; pool.py makes it a Ray actor. A document arrives once per worker as bytes
(from the cluster's object store, so nodes need not share a disk), is kept in a private folder
under its own name (error messages name it as a local run does) and stays open for the next
range of it (Engine.read_pages). Errors about the whole document come back as data
(engine/hosting.py's `RemoteError`) and are raised again on the driver as the same typed
error; a cancel sets the call's event, which the recipe looks at before every stage."""

from __future__ import annotations

import hashlib
import os
import shutil
import socket
import tempfile
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

import pymupdf

from engine import errors
from engine.engine import Engine
from engine.errors import PaperlensError
from engine.hosting import RemoteError, encode_error, warm_up
from engine.input.document import Document, open_document
from engine.options import ConvertOptions
from engine.output.staging import STAGING_MARK, remove_stale_staging, write_owner
from engine.page import PageOutcome

OPEN_DOCUMENTS = 2
"""Documents a worker keeps open (and on its disk) for their next page ranges."""


def paperlens_version() -> str:
    try:
        return metadata.version("paperlens")
    except metadata.PackageNotFoundError:
        return "unknown"


@dataclass(frozen=True)
class WorkerInfo:
    """Where a worker runs, for messages and checks."""

    host: str
    pid: int
    node: str
    """Ray's id of the node (several nodes may share a host name)."""
    version: str
    threads: int
    device: dict[str, Any] | None = field(default=None, compare=False)
    """The worker's device decision and its reason (DeviceStatus.to_json())."""


@dataclass(frozen=True)
class DocumentBytes:
    """A document as a worker receives it: its name, content digest and a reference to the
    bytes (a list, so Ray hands the reference over without fetching the bytes each call)."""

    name: str
    digest: str
    data: list

    @staticmethod
    def digest_of(data: bytes) -> str:
        return hashlib.sha256(data).hexdigest()


class PageWorker:
    """Reads page ranges of documents; one range at a time (Ray's default concurrency group),
    while `cancel`, `stage` and `info` answer beside it (the control group)."""

    def __init__(self, settings, threads: int, make_engine: Any = Engine) -> None:
        """`make_engine(settings, threads=...)` makes what reads the pages (an Engine)."""
        self.engine = make_engine(settings, threads=threads)
        self.threads = threads
        # Documents are kept in a folder that names this process; ones left by workers that
        # were killed are removed here, as output staging folders are.
        parent = Path(tempfile.gettempdir()) / "paperlens-workers"
        parent.mkdir(exist_ok=True)
        remove_stale_staging(parent)
        self._folder = Path(tempfile.mkdtemp(prefix=f".worker{STAGING_MARK}", dir=parent))
        write_owner(self._folder)
        self._open: OrderedDict[str, Document] = OrderedDict()
        self._cancels: dict[int, threading.Event] = {}
        self._stages: dict[int, str] = {}
        self._lock = threading.Lock()

    def info(self) -> WorkerInfo:
        import ray  # only ever called inside a Ray worker

        return WorkerInfo(socket.gethostname(), os.getpid(),
                          ray.get_runtime_context().get_node_id(), paperlens_version(),
                          self.threads, self.engine.device_status().to_json())

    def warm_up(self, layout_model: str | None) -> WorkerInfo | RemoteError:
        """Load every model a page may need and read a small page (hosting.warm_up), so the
        first page is not slow and a model that cannot be loaded is known before any page is
        sent."""
        try:
            warm_up(self.engine, layout_model)
        except PaperlensError as exc:
            return encode_error(exc)
        return self.info()

    def read(self, call: int, document: DocumentBytes, numbers: list[int],
             options: ConvertOptions, stem: str) -> list[PageOutcome] | RemoteError:
        """The outcomes of pages `numbers` of `document`, in order."""
        with self._lock:
            cancel = self._cancels.setdefault(call, threading.Event())

        def on_stage(_index: int, number: int, stage: str, _state) -> None:
            with self._lock:
                self._stages[call] = f"{number}:{stage}"

        try:
            opened = self._document(document, options.password)
            return list(self.engine.read_pages(opened, numbers, options, stem, on_stage,
                                               cancel))
        except PaperlensError as exc:
            return encode_error(exc)
        finally:
            with self._lock:
                self._cancels.pop(call, None)
                self._stages.pop(call, None)

    def cancel(self, call: int) -> None:
        """Stop call `call` before its next page stage (or before it starts)."""
        with self._lock:
            self._cancels.setdefault(call, threading.Event()).set()

    def stage(self, call: int) -> str | None:
        """The last page stage call `call` finished, as `<page number>:<stage>` (None before
        the first, or once the call has returned)."""
        with self._lock:
            return self._stages.get(call)

    def close(self) -> None:
        for opened in self._open.values():
            opened.close()
        self._open.clear()
        shutil.rmtree(self._folder, ignore_errors=True)

    def _document(self, document: DocumentBytes, password: str | None) -> Document:
        opened = self._open.get(document.digest)
        if opened is not None:
            self._open.move_to_end(document.digest)
            return opened
        import ray  # a worker runs inside Ray; the bytes come from its object store

        data = ray.get(document.data[0])
        if DocumentBytes.digest_of(data) != document.digest:
            raise errors.CorruptDocument(f"{document.name} changed on its way to the worker "
                                         "(its content does not match its digest).")
        folder = self._folder / document.digest
        folder.mkdir(exist_ok=True)
        path = folder / document.name
        path.write_bytes(data)
        opened = open_document(path, password)
        self._open[document.digest] = opened
        while len(self._open) > OPEN_DOCUMENTS:
            digest, oldest = self._open.popitem(last=False)
            oldest.close()
            shutil.rmtree(self._folder / digest, ignore_errors=True)
            # MuPDF keeps what a closed document decoded (up to 256 MiB, process-wide) though
            # nothing reads it again: a long-lived worker would grow by every document.
            pymupdf.TOOLS.store_shrink(100)
        return opened
