"""The document queue: one Job per dropped file, shown as a two-column table model."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any, Iterable

from PySide6.QtCore import (QAbstractTableModel, QCoreApplication, QModelIndex,
                            QPersistentModelIndex, Qt)

translate = QCoreApplication.translate  # lupdate reads translate("Context", "text")


class JobState(str, Enum):
    WAITING = "waiting"
    PARSING = "parsing"
    NEEDS_PASSWORD = "needs_password"
    DONE = "done"
    PARTIAL = "partial"
    """Written, but some pages failed or were read in part (the pages say which and why)."""
    FAILED = "failed"
    CANCELLED = "cancelled"

    @property
    def finished(self) -> bool:
        return self in (JobState.DONE, JobState.PARTIAL, JobState.FAILED, JobState.CANCELLED)

    @property
    def written(self) -> bool:
        """The document's outputs exist (it converted, at least in part)."""
        return self in (JobState.DONE, JobState.PARTIAL)


@dataclass(eq=False)
class Job:
    """One document in the queue and everything the window knows about its conversion."""

    id: int
    path: Path
    output_dir: Path
    output_name: str
    state: JobState = JobState.WAITING
    page_count: int = 0
    pages_done: int = 0
    pages: dict[int, Any] = field(default_factory=dict)
    """PageResult by 0-based position, filled as pages finish (replaced by the final ones)."""
    result: Any = None
    """The DocumentResult once done."""
    message: str = ""
    """Why it failed, in one line; or the last warning while it parses."""
    error_kind: str = ""
    warnings: list[str] = field(default_factory=list)
    password: str | None = None
    cancel: threading.Event = field(default_factory=threading.Event)

    @property
    def markdown_path(self) -> Path | None:
        if self.result is None:
            return None
        for output in self.result.outputs:
            if output.endswith(".md"):
                return Path(output)
        return None

    def reset(self) -> None:
        """Back to waiting, for a retry or after a password was given."""
        self.state = JobState.WAITING
        self.page_count = self.pages_done = 0
        self.pages = {}
        self.result = None
        self.message = self.error_kind = ""
        self.warnings = []
        self.cancel = threading.Event()



def status_text(job: Job) -> str:
    """The status column's words for a job."""
    if job.state is JobState.WAITING:
        return translate("QueueModel", "Waiting")
    if job.state is JobState.PARSING:
        if job.page_count == 0:
            return translate("QueueModel", "Opening…")
        return translate("QueueModel", "Parsing page {0}/{1}").format(
            min(job.pages_done + 1, job.page_count), job.page_count)
    if job.state is JobState.NEEDS_PASSWORD:
        return translate("QueueModel", "Needs a password")
    if job.state is JobState.DONE:
        if job.warnings:
            return translate("QueueModel", "Done with warnings ({0})").format(len(job.warnings))
        return translate("QueueModel", "Done")
    if job.state is JobState.PARTIAL:
        pages = [str(p.page_number) for p in job.pages.values() if p.status.value != "ok"]
        return translate("QueueModel", "Partly done: page(s) {0} not read").format(
            ", ".join(pages))
    if job.state is JobState.CANCELLED:
        return translate("QueueModel", "Cancelled")
    return translate("QueueModel", "Failed: {0}").format(job.message)


def page_problems(job: Job) -> list[str]:
    """One line per page error: which page, which stage, and why."""
    return [translate("QueueModel", "Page {0} ({1}): {2}: {3}").format(
                page.page_number, error.stage, error.kind, error.message)
            for _, page in sorted(job.pages.items()) for error in page.errors]


def unique_output_name(stem: str, folder: Path, taken: Iterable[tuple[Path, str]]) -> str:
    """`stem`, or `stem-2`, `stem-3`... so that two queued documents never share output files."""
    used = {name.casefold() for where, name in taken if where == folder}
    name, n = stem, 1
    while name.casefold() in used:
        n += 1
        name = f"{stem}-{n}"
    return name


class QueueModel(QAbstractTableModel):
    """Jobs in the order they were added; the order in which they are parsed."""

    NAME, STATUS = range(2)
    JobIdRole = Qt.ItemDataRole.UserRole + 1
    ProgressRole = Qt.ItemDataRole.UserRole + 2
    StateRole = Qt.ItemDataRole.UserRole + 3

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._jobs: list[Job] = []
        self._next_id = 1

    # -- the jobs -----------------------------------------------------------------------------

    @property
    def jobs(self) -> list[Job]:
        return list(self._jobs)

    def add(self, path: Path, output_dir: Path) -> Job | None:
        """Queue a document; None when the same file is already waiting or parsing."""
        path = Path(path)
        if any(j.path == path and j.state in (JobState.WAITING, JobState.PARSING)
               for j in self._jobs):
            return None
        name = unique_output_name(path.stem, output_dir,
                                  ((j.output_dir, j.output_name) for j in self._jobs
                                   if j.path != path))
        same = [j for j in self._jobs if j.path == path and j.output_dir == output_dir]
        if same:
            name = same[-1].output_name  # a re-run replaces its own earlier results
        job = Job(self._next_id, path, output_dir, name)
        self._next_id += 1
        row = len(self._jobs)
        self.beginInsertRows(QModelIndex(), row, row)
        self._jobs.append(job)
        self.endInsertRows()
        return job

    def job(self, job_id: int) -> Job | None:
        for job in self._jobs:
            if job.id == job_id:
                return job
        return None

    def job_at(self, row: int) -> Job | None:
        return self._jobs[row] if 0 <= row < len(self._jobs) else None

    def row_of(self, job_id: int) -> int:
        for row, job in enumerate(self._jobs):
            if job.id == job_id:
                return row
        return -1

    def next_waiting(self) -> Job | None:
        return next((j for j in self._jobs if j.state is JobState.WAITING), None)

    def remove(self, job_id: int) -> bool:
        """Drop a job that is not being parsed."""
        row = self.row_of(job_id)
        if row < 0 or self._jobs[row].state is JobState.PARSING:
            return False
        self.beginRemoveRows(QModelIndex(), row, row)
        del self._jobs[row]
        self.endRemoveRows()
        return True

    def changed(self, job_id: int) -> None:
        """Tell the views a job's state or progress changed."""
        row = self.row_of(job_id)
        if row >= 0:
            self.dataChanged.emit(self.index(row, 0), self.index(row, self.columnCount() - 1))

    def progress(self) -> tuple[float, int]:
        """(finished documents + fraction of the one parsing, number of documents)."""
        done = 0.0
        for job in self._jobs:
            if job.state.finished:
                done += 1
            elif job.state is JobState.PARSING and job.page_count:
                done += job.pages_done / job.page_count
        return done, len(self._jobs)

    # -- Qt model -----------------------------------------------------------------------------

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._jobs)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else 2

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation is Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            if section == self.NAME:
                return translate("QueueModel", "Document")
            return translate("QueueModel", "Status")
        return None

    def data(self, index: QModelIndex | QPersistentModelIndex,
             role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        job = self.job_at(index.row()) if index.isValid() else None
        if job is None:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return job.path.name if index.column() == self.NAME else status_text(job)
        if role == Qt.ItemDataRole.ToolTipRole:
            lines = [str(job.path), status_text(job)]
            if job.markdown_path is not None:
                lines.append(translate("QueueModel", "Markdown: {0}").format(job.markdown_path))
            lines.extend(page_problems(job)[:10])
            lines.extend(job.warnings[:10])
            return "\n".join(lines)
        if role == self.JobIdRole:
            return job.id
        if role == self.StateRole:
            return job.state.value
        if role == self.ProgressRole:
            if job.state is JobState.PARSING:
                return (job.pages_done, job.page_count)
            return None
        return None
