"""Which pages of which documents wait, run, are read or given up on.

Plain bookkeeping, no Ray: the pool asks for the next task, reports what came back or that
the worker running it was lost, and each document takes its pages in order. A page whose
worker is lost goes back to the front of the queue on its own (so a page that kills its
worker takes no neighbour down with it the second time); after `max_attempts` losses it is a
failed page with a WorkerLost error, and the document goes on without it."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from engine.errors import WorkerLost
from engine.page import PageOutcome
from engine.types import PageError, PageResult, Status, TextSource

MAX_ATTEMPTS = 2
"""A page is read at most twice: once, and once more elsewhere after its worker was lost."""


@dataclass(frozen=True)
class Task:
    """A range of consecutive chosen pages of one document, for one worker call."""

    document: int
    """The document's key in the ledger (its position in the run)."""
    pages: tuple[int, ...]
    attempt: int = 1


def lost_message(times: int, reason: str) -> str:
    """Why a page that lost its worker `times` times was not read."""
    said = {1: "once", 2: "twice"}.get(times, f"{times} times")
    return f"The worker reading this page was lost {said} ({reason}); the page was not read."


def lost_page(number: int, message: str) -> PageOutcome:
    """A failed page that no worker could finish: the typed error says why."""
    error = PageError(stage="cluster", kind=WorkerLost.__name__, message=message)
    result = PageResult(page_number=number, width=0, height=0, dpi=0.0,
                        text_source=TextSource.OCR, text_source_reason="failed",
                        status=Status.FAILED, errors=(error,))
    return PageOutcome(result)


class PageLedger:
    def __init__(self, pages_per_task: int = 1, max_attempts: int = MAX_ATTEMPTS) -> None:
        if pages_per_task < 1 or max_attempts < 1:
            raise ValueError("pages_per_task and max_attempts must be at least 1")
        self.pages_per_task = pages_per_task
        self.max_attempts = max_attempts
        self._queue: deque[Task] = deque()
        self._read: dict[tuple[int, int], PageOutcome] = {}
        self._documents: set[int] = set()

    def add(self, document: int, numbers: list[int]) -> None:
        """Queue a document's chosen pages as ranges of `pages_per_task`, in order."""
        if document in self._documents:
            raise ValueError(f"document {document} is already in the ledger")
        self._documents.add(document)
        size = self.pages_per_task
        for start in range(0, len(numbers), size):
            self._queue.append(Task(document, tuple(numbers[start:start + size])))

    def next_task(self) -> Task | None:
        return self._queue.popleft() if self._queue else None

    @property
    def queued_pages(self) -> int:
        return sum(len(task.pages) for task in self._queue)

    @property
    def held_pages(self) -> int:
        """Pages read and not yet taken."""
        return len(self._read)

    def holds(self, document: int) -> bool:
        return document in self._documents

    def read(self, task: Task, outcomes: list[PageOutcome]) -> None:
        """A worker read the task's pages."""
        if task.document not in self._documents:
            return  # the document was dropped (failed or cancelled) meanwhile
        numbers = tuple(o.result.page_number for o in outcomes)
        if numbers != task.pages:
            raise ValueError(f"a worker returned pages {numbers} for {task.pages}")
        for outcome in outcomes:
            self._read[(task.document, outcome.result.page_number)] = outcome

    def lost(self, task: Task, reason: str) -> list[int]:
        """The worker running `task` was lost. Each page goes back to the front of the queue
        alone, or is failed when it has had its attempts; returns the pages failed now."""
        if task.document not in self._documents:
            return []
        failed = []
        retries = []
        for number in task.pages:
            if task.attempt >= self.max_attempts:
                self._read[(task.document, number)] = lost_page(
                    number, lost_message(task.attempt, reason))
                failed.append(number)
            else:
                retries.append(Task(task.document, (number,), task.attempt + 1))
        self._queue.extendleft(reversed(retries))
        return failed

    def give_up(self, reason: str) -> None:
        """No worker is left: every queued page is failed with `reason`."""
        while self._queue:
            task = self._queue.popleft()
            for number in task.pages:
                self._read[(task.document, number)] = lost_page(
                    number, f"No cluster worker was left to read this page ({reason}).")

    def take(self, document: int, number: int) -> PageOutcome | None:
        """The page's outcome once read (handed over once), else None."""
        return self._read.pop((document, number), None)

    def drop(self, document: int) -> None:
        """Forget a document: its queued tasks, the pages read, what is still running."""
        self._documents.discard(document)
        self._queue = deque(t for t in self._queue if t.document != document)
        for key in [k for k in self._read if k[0] == document]:
            del self._read[key]
