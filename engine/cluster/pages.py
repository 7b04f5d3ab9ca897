"""Single pages on a Ray cluster, for a caller that keeps its own queue of pages (the service,
whose queue is a table that outlives it): send one page to an idle page worker, hear what
became of it, ask where it stands, cancel it.

Cluster (driver.py) owns the whole journey of its documents; this only reads pages. The caller
stores each outcome, assembles documents itself (recipe.assemble_document, as the driver does)
and decides what a lost page becomes: sent again, or failed with `lost_page` (ledger.py) after
`MAX_ATTEMPTS` losses, the driver's rule.

    pages = ClusterPages("10.0.0.5:6379", settings)
    while pages.idle_workers:
        pages.send(key, path, number, options, stem)
    for done in pages.wait(0.5):
        ...  # done.key with done.outcome, done.failure (a RemoteError) or done.lost
"""

from __future__ import annotations

import itertools
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Hashable

from engine.cluster.ledger import Task
from engine.cluster.pool import WorkerPool
from engine.cluster.worker import DocumentBytes, WorkerInfo
from engine.hosting import RemoteError
from engine.options import ConvertOptions, options_from_settings
from engine.page import PageOutcome

KEPT_DOCUMENTS = 8
"""Documents whose bytes stay in the cluster's object store for their next pages."""


@dataclass(frozen=True)
class PageDone:
    """What became of one page sent: its outcome, an error about its whole document (a damaged
    file, a cancellation, a model that cannot be loaded), or why its worker was lost."""

    key: Hashable
    outcome: PageOutcome | None = None
    failure: RemoteError | None = None
    lost: str | None = None


class ClusterPages:
    """Page workers on the Ray cluster at `address` (one per `cpus_per_worker` CPUs, or
    `workers`), models loaded once each; one page per worker at a time."""

    def __init__(self, address: str | None, settings, *, cpus_per_worker: int = 1,
                 workers: int | None = None, pool: WorkerPool | None = None) -> None:
        if pool is None:
            layout = options_from_settings(settings).layout_model
            pool = WorkerPool(address, settings, layout, cpus_per_worker, workers)
        self.pool = pool
        self._ids = itertools.count()
        self._keys: dict[Task, Hashable] = {}
        self._tasks: dict[Hashable, Task] = {}
        self._documents: OrderedDict[tuple[Path, int, int], DocumentBytes] = OrderedDict()

    @property
    def workers(self) -> list[WorkerInfo]:
        """The workers that are ready now."""
        return self.pool.workers

    @property
    def idle_workers(self) -> int:
        return len(self.pool.idle())

    @property
    def running(self) -> int:
        return len(self._tasks)

    def all_gone(self) -> bool:
        """Every worker was given up on (its restarts used up, or it could not come back)."""
        return self.pool.all_gone()

    @property
    def problems(self) -> list[str]:
        return self.pool.problems

    def send(self, key: Hashable, path: Path, number: int, options: ConvertOptions,
             stem: str) -> None:
        """Page `number` of the document at `path` to an idle worker. The document's bytes go
        to the cluster once (kept for its next pages); OSError when it cannot be read."""
        if key in self._tasks:
            raise ValueError(f"page {key!r} is already being read")
        idle = self.pool.idle()
        if not idle:
            raise RuntimeError("no page worker is idle; send when idle_workers is above 0")
        task = Task(next(self._ids), (number,))
        self.pool.send(idle[0], task, self._document(path), options, stem)
        self._keys[task] = key
        self._tasks[key] = task

    def cancel(self, key: Hashable) -> None:
        """Stop the page before its next stage; it comes back from wait() as a Cancelled
        failure (or read, when it was at its last stage)."""
        task = self._tasks.get(key)
        if task is not None:
            self.pool.cancel(task)

    def stages(self, timeout_s: float = 0.5) -> dict[Hashable, str]:
        """The last stage each page being read has finished, from the workers that answer
        within `timeout_s`."""
        return {self._keys[task]: stage.partition(":")[2]
                for task, stage in self.pool.stages(timeout_s).items() if task in self._keys}

    def wait(self, timeout_s: float) -> list[PageDone]:
        """The pages that came back within `timeout_s` (also waits while none is running, so
        workers that are coming back are asked again)."""
        done = []
        for finished in self.pool.wait(timeout_s):
            key = self._keys.pop(finished.task, None)
            if key is None:
                continue
            del self._tasks[key]
            outcome = None
            if finished.outcomes is not None:
                (outcome,) = finished.outcomes
            done.append(PageDone(key, outcome, finished.failure, finished.lost))
        return done

    def close(self) -> None:
        self._documents.clear()
        self.pool.close()

    def _document(self, path: Path) -> DocumentBytes:
        facts = path.stat()
        known = (path, facts.st_mtime_ns, facts.st_size)  # a file changed is sent again
        document = self._documents.get(known)
        if document is not None:
            self._documents.move_to_end(known)
            return document
        data = path.read_bytes()
        document = DocumentBytes(path.name, DocumentBytes.digest_of(data), [self.pool.put(data)])
        self._documents[known] = document
        while len(self._documents) > KEPT_DOCUMENTS:
            self._documents.popitem(last=False)  # its bytes leave with the last reference
        return document
