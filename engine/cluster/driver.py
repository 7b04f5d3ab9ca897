"""Cluster: documents in, results out in input order, with the CLI's progress events.

The driver reads no page. It opens each document only to choose its pages (the same checks
and typed errors as a single process), puts its bytes in the cluster's object store once,
and queues its pages as ranges for the workers, looking a few documents ahead so no worker
waits at a document's end. Each document is then assembled by `recipe.assemble_document`, the
single-process code path: its pages are taken in order as they come back (events and images
in page order), furniture across pages, Markdown and the atomic commit happen here, so the
files are the ones a single process writes.

    with Cluster("10.0.0.5:6379", settings) as cluster:
        for path, outcome in cluster.convert([(path, options)], on_event, cancel):
            ...  # a DocumentResult, or the PaperlensError that stopped the document
"""

from __future__ import annotations

import itertools
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Iterator, Sequence

from engine import events
from engine.cluster.ledger import PageLedger
from engine.cluster.pool import Finished, WorkerPool
from engine.cluster.worker import DocumentBytes, WorkerInfo
from engine.errors import Cancelled, CorruptDocument, PaperlensError
from engine.hosting import RemoteError, cancel_check, decode_error
from engine.input.document import Document, open_document
from engine.models.store import ModelStore
from engine.options import ConvertOptions, options_from_settings
from engine.page import PageOutcome
from engine.recipe import assemble_document, select_pages
from engine.structure.hyphens import WordLists, word_lists_loader
from engine.types import DocumentResult

WAIT_STEP_S = 0.25
"""How often the driver looks at the cancel flag while pages are being read."""
AHEAD_PER_WORKER = 4
"""Pages read ahead of the document being assembled, per worker (bounds the driver's memory)."""
NO_WORKER_LIMIT_S = 300.0
"""How long pages wait for a worker to come back when none is left, before they are failed."""

Job = tuple[Path, ConvertOptions]


@dataclass
class _Plan:
    path: Path
    options: ConvertOptions
    key: int
    numbers: list[int] | None = None
    stem: str = ""
    document: DocumentBytes | None = None


class Cluster:
    """A connection to a Ray cluster (`address`; None: RAY_ADDRESS, or a Ray started on this
    machine) and its page workers, models loaded once each. Reusable for many conversions
    (a service keeps one); one conversion at a time."""

    def __init__(self, address: str | None, settings, *, cpus_per_worker: int = 1,
                 workers: int | None = None, pages_per_task: int = 1,
                 pool: WorkerPool | None = None) -> None:
        """`pool`: workers started elsewhere (anything with WorkerPool's methods); by default
        one worker per `cpus_per_worker` CPUs of the cluster at `address`."""
        if pool is None:
            layout = options_from_settings(settings).layout_model
            pool = WorkerPool(address, settings, layout, cpus_per_worker, workers)
        self.pool = pool
        self.pages_per_task = pages_per_task
        self.word_lists = (word_lists_loader(ModelStore(Path(settings.model.base_dir),
                                                        settings.model.index_url))
                           if settings is not None else None)
        """The store's word lists, loaded the first time a document needs them (its Markdown
        is assembled here, engine/structure/hyphens.py); none without settings (a pool
        started elsewhere and no store named: hyphens at a paragraph's breaks are then read as
        words broken in two)."""
        self._keys = itertools.count()
        self._busy = threading.Lock()

    def __enter__(self) -> "Cluster":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def workers(self) -> list[WorkerInfo]:
        return self.pool.workers

    def close(self) -> None:
        self.pool.close()

    def convert(self, jobs: Iterable[Job], on_event: events.EventCallback = events.ignore_event,
                cancel: threading.Event | None = None
                ) -> Iterator[tuple[Path, DocumentResult | PaperlensError]]:
        """Each document's result (written when its options name an output folder) or the
        typed error that stopped it, in input order. After a cancellation the cancelled
        document is reported with `Cancelled` and nothing more is converted."""
        if not self._busy.acquire(blocking=False):
            raise RuntimeError("this Cluster is already converting; use one conversion at a time")
        try:
            run = _Run(self.pool, list(jobs), self._keys, self.pages_per_task, on_event,
                       cancel or threading.Event(), self.word_lists)
            yield from run.documents()
        finally:
            self._busy.release()


def convert_on_cluster(address: str | None, settings, jobs: Sequence[Job],
                       on_event: events.EventCallback = events.ignore_event,
                       cancel: threading.Event | None = None, **cluster_options
                       ) -> list[tuple[Path, DocumentResult | PaperlensError]]:
    """Connect, convert `jobs` and disconnect: for one batch; keep a Cluster for many."""
    with Cluster(address, settings, **cluster_options) as cluster:
        return list(cluster.convert(jobs, on_event, cancel))


class _Run:
    """One conversion: the plans of its documents, the ledger of their pages."""

    def __init__(self, pool: WorkerPool, jobs: list[Job], keys: Iterator[int],
                 pages_per_task: int, on_event: events.EventCallback,
                 cancel: threading.Event, word_lists: Callable[[], WordLists] | None = None
                 ) -> None:
        self.pool = pool
        self.word_lists = word_lists
        self.plans = [_Plan(path, options, next(keys)) for path, options in jobs]
        self.ledger = PageLedger(pages_per_task)
        self.on_event = on_event
        self.check_cancel = cancel_check(cancel)
        self.failures: dict[int, RemoteError] = {}
        self.planned = 0
        self.by_key = {plan.key: plan for plan in self.plans}

    def documents(self) -> Iterator[tuple[Path, DocumentResult | PaperlensError]]:
        for index, plan in enumerate(self.plans):
            while self.planned <= index:
                self._plan_next(force=True)
            try:
                outcome: DocumentResult | PaperlensError = assemble_document(
                    plan.path, plan.options, self._reader(plan), self.on_event,
                    self.check_cancel, self.word_lists)
            except Cancelled as exc:
                self.pool.cancel_running()
                for later in self.plans[index:]:
                    self.ledger.drop(later.key)
                yield plan.path, exc
                return
            except PaperlensError as exc:
                outcome = exc
            finally:
                self.ledger.drop(plan.key)
                plan.document = None  # its bytes leave the object store with the last reference
            yield plan.path, outcome

    def _reader(self, plan: _Plan):
        def read(document: Document, numbers: list[int], stem: str) -> Iterator[PageOutcome]:
            if numbers != plan.numbers or stem != plan.stem:
                raise CorruptDocument(f"{plan.path.name} changed while it was being "
                                      "converted; convert it again.")
            for number in numbers:
                yield self._page(plan.key, number)
        return read

    def _page(self, key: int, number: int) -> PageOutcome:
        while True:
            self.check_cancel()
            outcome = self.ledger.take(key, number)
            if outcome is not None:
                return outcome
            failure = self.failures.pop(key, None)
            if failure is not None:
                raise decode_error(failure)
            self._dispatch()
            for finished in self.pool.wait(WAIT_STEP_S):
                self._settle(finished)
            if not self.pool.workers and (self.pool.all_gone()
                                          or self.pool.warming_for_s() > NO_WORKER_LIMIT_S):
                problems = "; ".join(dict.fromkeys(self.pool.problems[-3:])) or "none came back"
                self.ledger.give_up(f"no worker is left on the cluster: {problems}")

    def _dispatch(self) -> None:
        for slot in self.pool.idle():
            task = self.ledger.next_task()
            while task is None and self._plan_next():
                task = self.ledger.next_task()
            if task is None:
                return
            plan = self.by_key[task.document]
            self.pool.send(slot, task, plan.document, plan.options, plan.stem)

    def _settle(self, finished: Finished) -> None:
        task = finished.task
        plan = self.by_key.get(task.document)
        if plan is None or not self.ledger.holds(task.document):
            return  # a task of a document already finished, failed or cancelled
        if finished.outcomes is not None:
            self.ledger.read(task, finished.outcomes)
        elif finished.failure is not None:
            if not finished.failure.cancelled:
                self.failures[task.document] = finished.failure
                self.ledger.drop(task.document)
        else:
            failed = self.ledger.lost(task, finished.lost or "lost")
            for number in task.pages:
                again = "" if number in failed else "; the page is read again"
                self.on_event(events.Warning(str(plan.path), f"the cluster worker reading "
                                             f"this page was lost ({finished.lost}){again}",
                                             number))

    def _plan_next(self, force: bool = False) -> bool:
        """Plan the next document (when reading ahead is allowed, or `force`d because its turn
        has come); False when there was none to plan."""
        if self.planned >= len(self.plans):
            return False
        ahead = self.ledger.held_pages + self.ledger.queued_pages
        if not force and ahead >= AHEAD_PER_WORKER * max(1, self.pool.size):
            return False
        plan = self.plans[self.planned]
        self.planned += 1
        try:
            with open_document(plan.path, plan.options.password) as document:
                numbers = select_pages(plan.options.pages, document.page_count, plan.path.name)
            data = plan.path.read_bytes()
        except (PaperlensError, OSError):
            return True  # assemble_document opens it again and reports the same error
        plan.numbers = numbers
        plan.stem = plan.options.output_name or plan.path.stem
        plan.document = DocumentBytes(plan.path.name, DocumentBytes.digest_of(data),
                                      [self.pool.put(data)])
        self.ledger.add(plan.key, numbers)
        return True
