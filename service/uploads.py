"""A job's files, from the request to its folder: received (or copied from an allowed folder),
identified by content as the CLI does, counted in pages, checked against every limit, then
moved into place and queued. Nothing of a refused upload is kept."""

from __future__ import annotations

import os
import shutil
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from engine.api import (Identity, PaperlensError, identify, open_document, output_names,
                        probe_document, select_pages)
from service.config import ServiceConfig
from service.errors import ServiceError, from_engine
from service.jobs import JobStore, Limits, NewDocument, NewJob, QueueFull, QuotaExceeded
from service.options import JobOptions
from service.storage import DataFolder, safe_name

COPY_CHUNK = 1024 * 1024


@dataclass(frozen=True)
class Received:
    name: str
    path: Path


class Intake:
    """Turns received files into a queued job (all blocking work: run it in a thread)."""

    def __init__(self, config: ServiceConfig, folder: DataFolder, store: JobStore) -> None:
        self.config = config
        self.folder = folder
        self.store = store

    def new_area(self) -> Path:
        area = self.folder.incoming / uuid.uuid4().hex
        area.mkdir(parents=True)
        return area

    def receive(self, area: Path, index: int, filename: str | None, stream: BinaryIO,
                cap: int, so_far: int) -> tuple[Received, int]:
        """Copy one uploaded file into the area; returns it and its size."""
        name = safe_name(filename)
        target = area / str(index) / name
        target.parent.mkdir()
        size = so_far
        with open(target, "wb") as out:
            while chunk := stream.read(COPY_CHUNK):
                size += len(chunk)
                if size > cap:
                    raise ServiceError(413, "too_large", f"The files of this request are larger "
                                       f"than {cap / 2**20:.1f} MiB together; send fewer or "
                                       "smaller files.")
                out.write(chunk)
        return Received(name, target), size - so_far

    def copy_allowed(self, area: Path, index: int, raw: str, cap: int,
                     so_far: int) -> tuple[Received, int]:
        """A file named by its path on this machine, inside an --allow-dir folder."""
        if not self.config.allow_dirs:
            raise ServiceError(403, "server_paths_refused", "This service reads only uploaded "
                               "files; it reads files by path only when started with "
                               "--allow-dir FOLDER.")
        given = Path(raw)
        if not given.is_absolute():
            raise ServiceError(422, "invalid_path", f"paths: {raw!r} is not an absolute path.")
        try:
            real = given.resolve(strict=True)
        except (OSError, RuntimeError):
            raise ServiceError(404, "no_such_file", f"paths: {raw} does not exist.") from None
        if not any(real.is_relative_to(folder.resolve()) for folder in self.config.allow_dirs):
            raise ServiceError(403, "path_not_allowed", f"paths: {raw} is outside the folders "
                               "this service may read (--allow-dir).")
        if not real.is_file():
            raise ServiceError(422, "invalid_path", f"paths: {raw} is not a file.")
        with open(real, "rb") as stream:
            return self.receive(area, index, real.name, stream, cap, so_far)

    def queue(self, area: Path, received: list[Received], options: JobOptions,
              sync: bool) -> str:
        """Inspect every file, check the limits, move the area into a new job and queue it;
        returns the job id. The area is removed whatever happens."""
        try:
            if not received:
                raise ServiceError(422, "no_file", "No file was sent: send the document as a "
                                   "multipart field named " + ("file." if sync else "files."))
            documents = self._documents(received, options, sync)
            size = sum(item.path.stat().st_size for item in received)
            if self.folder.free_bytes() - 2 * size < self.config.min_free_bytes:
                raise ServiceError(507, "disk_full", f"The disk holding {self.folder.root} has "
                                   f"{self.folder.free_bytes() / 2**20:.0f} MiB free; the "
                                   "service keeps at least "
                                   f"{self.config.min_free_bytes / 2**20:.0f} MiB free.")
            job_id = uuid.uuid4().hex
            job_dir = self.folder.job(job_id)
            job_dir.mkdir()
            os.rename(area, job_dir / "input")
            job = NewJob(job_id, options.to_json(), tuple(documents), size, sync)
            try:
                self.store.submit(job, self._limits())
            except QueueFull as exc:
                raise ServiceError(429, "queue_full", f"{exc} Try again in about "
                                   f"{exc.retry_after_s} s.",
                                   {"Retry-After": str(exc.retry_after_s)}) from None
            except QuotaExceeded as exc:
                raise ServiceError(507, "disk_quota", str(exc)) from None
            except BaseException:
                shutil.rmtree(job_dir, ignore_errors=True)
                raise
            return job_id
        finally:
            shutil.rmtree(area, ignore_errors=True)

    def _documents(self, received: list[Received], options: JobOptions,
                   sync: bool) -> list[NewDocument]:
        stems = output_names([item.path for item in received], self.folder.root / "output")
        documents, pages = [], 0
        for item, stem in zip(received, stems):
            if item.path.stat().st_size == 0:
                raise ServiceError(422, "empty_file", f"{item.name} is empty (0 bytes).")
            try:
                # Counted by MuPDF in a bounded child, never in this HTTP process: a file built
                # to make MuPDF lay it out for ever costs that child, not /health.
                found = identified(item.path)
                numbers = select_pages(options.page_numbers(), found.page_count, item.name)
                documents.append(NewDocument(item.name, stem, found.kind, found.page_count,
                                             tuple(numbers)))
            except PaperlensError as exc:
                raise from_engine(exc) from None
            pages += len(numbers)
        cap = self.config.sync_max_pages if sync else self.config.max_pages
        if pages > cap:
            where = "POST /v1/ocr takes" if sync else "a job may hold"
            hint = " Send it to /v1/jobs instead." if sync else " Split it, or choose pages."
            raise ServiceError(413, "too_many_pages", f"The request holds {pages} pages; "
                               f"{where} at most {cap}.{hint}")
        return documents

    def _limits(self) -> Limits:
        return Limits(self.config.queue_size, self.config.sync_queue_size,
                      self.config.quota_bytes)

    def admit(self, path: str, declared: int) -> None:
        """Before an upload is read: is there room for it at all?"""
        sync = path.rstrip("/") == "/v1/ocr"
        if not sync and path.rstrip("/") != "/v1/jobs":
            return
        queue = self.store.queue()
        waiting = queue["queued"] + queue["running"]
        if not sync and waiting >= self.config.queue_size:
            retry = self.store.retry_after_s()
            raise ServiceError(429, "queue_full", f"{waiting} job(s) are waiting or running; "
                               f"the queue is full. Try again in about {retry} s.",
                               {"Retry-After": str(retry)})
        used = self.store.usage_bytes()
        if used + declared > self.config.quota_bytes:
            raise ServiceError(507, "disk_quota", str(QuotaExceeded(used, declared,
                                                                    self.config.quota_bytes)))


def identified(path: Path) -> Identity:
    """Kind and page count: a paged input's from the bounded child, an image's from its
    headers (read here: they are capped before anything is decoded)."""
    if identify(path).is_paged:
        return probe_document(path)
    with open_document(path) as document:
        return Identity(document.kind.value, document.page_count)
