"""A worker process: one host of the engine (one engine, models loaded once), claiming pages and
documents from the job table until its server is gone.

    python -m service.worker --data-dir DIR --slot N --epoch E --parent PID

Started by the server's supervisor, never by hand. It dies with its server (Linux: the kernel
sends it SIGKILL; elsewhere it notices within half a second), so a server killed with -9
leaves no worker behind to race the next one."""

from __future__ import annotations

import argparse
import ctypes
import logging
import os
import shutil
import signal
import sys
import threading
import time
import traceback
from contextlib import contextmanager
from dataclasses import asdict
from pathlib import Path
from typing import Callable, Iterator

from engine.api import (Cancelled, Converter, CorruptDocument, DocumentFailed, ModelStore,
                        PageResult, PaperlensError, PasswordRequired, UnsupportedInput,
                        assemble_document, ignore_event, word_lists_loader)
from service.checkpoint import CheckpointError, encode_result, save_crops, stored_outcomes
from service.converter import open_converter
from service.database import Database
from service.options import JobOptions, convert_options
from service.storage import DataFolder, tree_bytes
from service.work_queue import AssemblyWork, PageWork, WorkQueue, claim_token

log = logging.getLogger("paperlens.worker")
IDLE_POLL_S = 0.2
CANCEL_POLL_S = 0.2
# Errors about one document (not the run): the job's other documents go on.
DOCUMENT_ERRORS = (UnsupportedInput, CorruptDocument, PasswordRequired)


class Worker:
    def __init__(self, folder: DataFolder, queue: WorkQueue, converter: Converter,
                 slot: int, settings) -> None:
        self.settings = settings
        self.folder = folder
        self.queue = queue
        self.converter = converter
        self.slot = slot
        self.word_lists = word_lists_loader(ModelStore(Path(settings.model.base_dir),
                                                       settings.model.index_url))
        """The store's word lists, loaded the first time a document needs them."""

    def run_once(self) -> bool:
        """Claim and do one piece of work; False when there was none."""
        work = self.queue.claim()
        if work is None:
            return False
        if isinstance(work, AssemblyWork):
            self.assemble(work)
        else:
            self.read(work)
        return True

    def read(self, work: PageWork) -> None:
        options = convert_options(JobOptions.from_json(work.options), self.settings, work.stem)
        source = self.folder.input_dir(work.job_id, work.doc) / work.name
        cancel = threading.Event()
        watch = threading.Thread(target=self._watch_cancel, args=(work.job_id, cancel),
                                 daemon=True, name="cancel-watch")
        watch.start()
        started = time.perf_counter()
        try:
            outcome = self.converter.read_page(source, work.number, options, work.stem,
                                               lambda stage: self.queue.mark_stage(work, stage),
                                               cancel)
            seconds = time.perf_counter() - started
            names, written = save_crops(self.folder.pages_dir(work.job_id, work.doc),
                                        outcome.crops)
        except PaperlensError as exc:
            settle_failure(self.queue, work, exc)
            return
        except Exception as exc:  # a fault in Paperlens: the job says so, the worker goes on
            internal_failure(self.queue, work, exc)
            return
        finally:
            cancel.set()  # also ends the watch
            watch.join()
        record_page(self.queue, self.slot, work, outcome.result, names, written, seconds)

    def assemble(self, work: AssemblyWork) -> None:
        assemble(self.folder, self.queue, self.settings, work, self.word_lists)

    def _watch_cancel(self, job_id: str, cancel: threading.Event) -> None:
        """Cancelling a job (or its removal) stops its page at the next stage."""
        while not cancel.wait(CANCEL_POLL_S):
            if self.queue.job_state(job_id) not in ("queued", "running"):
                cancel.set()
        self.queue.db.close()


def record_page(queue: WorkQueue, slot: int, work: PageWork, result: PageResult,
                crops: list[str], crop_bytes: int, seconds: float) -> None:
    """A page read: its result stored with its crops' names (the crops are on disk already)."""
    if queue.finish_page(work, result.status.value, [asdict(e) for e in result.errors],
                         encode_result(result), crops, crop_bytes, seconds):
        queue.count_page(slot)


def settle_failure(queue: WorkQueue, work: PageWork, exc: PaperlensError) -> None:
    """A page stopped by a typed error: cancelled (it waits again, its job is over), an error
    about its document (that document fails, the job's others go on), or about the run (a
    model that cannot be loaded: the job fails)."""
    if isinstance(exc, Cancelled):
        queue.release_page(work)
    elif isinstance(exc, DOCUMENT_ERRORS):
        queue.release_page(work)
        queue.finish_document(work.job_id, work.doc, "failed", "failed", exc.message, [], 0,
                              claimed=False)
    else:
        queue.fail_job(work.job_id, exc.message)


def internal_failure(queue: WorkQueue, work: PageWork, exc: Exception) -> None:
    log.error("page %s of %s: %s", work.number, work.name, traceback.format_exc())
    queue.fail_job(work.job_id, f"An internal error in Paperlens stopped the job "
                   f"({type(exc).__name__}: {str(exc)[:200]}); please report it.")


def assemble(folder: DataFolder, queue: WorkQueue, settings, work: AssemblyWork,
             word_lists: Callable[[], object] | None = None) -> None:
    """A document whose pages are all read: recipe.assemble_document over its checkpoints,
    written to the job's output folder as the CLI writes it (`word_lists`: as for
    assemble_document)."""
    options = JobOptions.from_json(work.options)
    output = folder.output_dir(work.job_id)
    pages_dir = folder.pages_dir(work.job_id, work.doc)
    stored = queue.stored_pages(work)
    numbers = [number for number, _result, _crops in stored]

    def from_checkpoints(_document, wanted: list[int], _stem: str):
        if list(wanted) != numbers:
            raise CheckpointError(f"the stored pages {numbers} are not the pages asked for")
        return stored_outcomes([(r, c) for _n, r, c in stored], pages_dir)

    try:
        # The JSON names the document as it was given, like the CLI run in the file's own
        # folder: the upload's name, never a folder of this server.
        with working_directory(folder.input_dir(work.job_id, work.doc)):
            result = assemble_document(Path(work.name),
                                       convert_options(options, settings, work.stem,
                                                       str(output)),
                                       from_checkpoints, ignore_event, lambda: None,
                                       word_lists)
    except DocumentFailed as exc:
        queue.finish_document(work.job_id, work.doc, "failed", "failed", exc.message, [], 0)
        return
    except (PaperlensError, CheckpointError) as exc:
        queue.finish_document(work.job_id, work.doc, "failed", None,
                              getattr(exc, "message", None) or str(exc), [], 0)
        return
    except Exception as exc:  # a fault in Paperlens, said as such
        log.error("assembling %s: %s", work.name, traceback.format_exc())
        queue.finish_document(work.job_id, work.doc, "failed", None,
                              f"An internal error in Paperlens stopped this document "
                              f"({type(exc).__name__}: {str(exc)[:200]}); please "
                              "report it.", [], 0)
        return
    outputs = [Path(path).relative_to(output).as_posix() for path in result.outputs]
    size = sum((output / name).stat().st_size for name in outputs)
    # An export asked for and not made (no table for a workbook) leaves the document partial,
    # with the reason where the job is read, as the CLI says it on the terminal with exit 3.
    left_out = [line for line in result.warnings if " not written: " in line]
    status = "partial" if left_out and result.status.value == "ok" else result.status.value
    queue.finish_document(work.job_id, work.doc, "done", status,
                          "; ".join(left_out) or None, outputs, size)
    removed = tree_bytes(pages_dir)
    shutil.rmtree(pages_dir, ignore_errors=True)
    with queue.db.write() as db:
        db.execute("UPDATE jobs SET bytes = MAX(0, bytes - ?) WHERE id=?",
                   (removed, work.job_id))


@contextmanager
def working_directory(folder: Path) -> Iterator[None]:
    previous = os.getcwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(previous)


def die_with_parent(parent: int) -> None:
    """The worker ends when its server ends, however the server ended."""
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:  # the server ended before the line above took effect
        os._exit(0)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, daemon=True, name="parent-watch").start()


def worker_parser(prog: str) -> argparse.ArgumentParser:
    """What the supervisor gives every worker process it starts (this one and
    service/cluster_worker.py)."""
    parser = argparse.ArgumentParser(prog=prog)
    parser.add_argument("--data-dir", required=True, type=Path)
    parser.add_argument("--slot", required=True, type=int)
    parser.add_argument("--epoch", required=True, type=int)
    parser.add_argument("--parent", required=True, type=int)
    return parser


def start_worker(args: argparse.Namespace, name: str) -> tuple[DataFolder, int, WorkQueue]:
    """A worker process's start: it dies with its server, logs under `name`, and claims work
    from the data folder's table under its own token. Returns (folder, pid, queue)."""
    die_with_parent(args.parent)
    logging.basicConfig(level=logging.INFO, format=f"%(levelname)s: {name}: %(message)s")
    folder = DataFolder(args.data_dir)
    pid = os.getpid()
    queue = WorkQueue(Database(folder.database), claim_token(args.epoch, args.slot, pid),
                      marks=Database(folder.database, synchronous="NORMAL"))
    return folder, pid, queue


def main(argv: list[str] | None = None) -> int:
    args = worker_parser("python -m service.worker").parse_args(argv)
    folder, pid, queue = start_worker(args, f"worker {args.slot}")
    from settings import SettingsStore

    queue.set_worker(args.slot, pid, "warming", started_at=time.time(), error=None)
    settings = SettingsStore().load()
    converter = open_converter(settings)  # the engine here (--ray: service/cluster_worker.py)
    try:
        warm = converter.warm_up()
        queue.set_worker(args.slot, pid, "ready", device=warm.device, models=warm.models,
                         ready_at=time.time(), warm_up_s=warm.seconds)
        log.info("ready in %.1f s on %s", warm.seconds, warm.device.get("effective"))
    except PaperlensError as exc:
        # Jobs still run, and each fails with this same sentence.
        queue.set_worker(args.slot, pid, "failed", error=exc.message)
        log.error("warm-up failed: %s", exc.message)
    worker = Worker(folder, queue, converter, args.slot, settings)
    while True:
        if not worker.run_once():
            time.sleep(IDLE_POLL_S)


if __name__ == "__main__":
    sys.exit(main())
