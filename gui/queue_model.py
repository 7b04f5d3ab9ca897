"""The document queue: one Job per dropped file, shown as a two-column table model."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any, Iterable

from PySide6.QtCore import (QAbstractTableModel, QCoreApplication, QModelIndex,
                            QPersistentModelIndex, Qt)

from gui.reading_choices import ReadingChoices

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


@dataclass(frozen=True)
class PageNote:
    """A page that was not read fully: its number, status and errors (stage, kind, message)."""

    page_number: int
    status: str
    errors: tuple[tuple[str, str, str], ...] = ()


def page_note(page: Any) -> PageNote | None:
    """The note for a PageResult, or None when it was read fully."""
    status = str(getattr(page.status, "value", page.status))
    if status == "ok":
        return None
    return PageNote(page.page_number, status,
                    tuple((e.stage, e.kind, e.message) for e in page.errors))


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
    live: dict[int, Any] = field(default_factory=dict)
    """gui.live_page.LivePage by 0-based position: the page being read, until it is done."""
    started_s: float | None = None
    page_times_s: list[float] = field(default_factory=list)
    """When the parse started and when each page finished (time.monotonic)."""
    result: Any = None
    """The DocumentResult once done (None for a document converted in an earlier session)."""
    outputs: tuple[str, ...] = ()
    """The files written, kept across restarts."""
    page_notes: tuple[PageNote, ...] = ()
    """Pages not read fully, kept across restarts."""
    message: str = ""
    """Why it failed, in one line; or the last warning while it parses."""
    error_kind: str = ""
    warnings: list[str] = field(default_factory=list)
    password: str | None = None
    cancel: threading.Event = field(default_factory=threading.Event)
    choices: ReadingChoices = field(default_factory=ReadingChoices)
    """Its pages and reading switches, fixed when it was queued (Read Again With… changes them)."""

    @property
    def output_files(self) -> tuple[str, ...]:
        """The files written: the result's, or those kept from an earlier session."""
        return tuple(self.result.outputs) if self.result is not None else self.outputs

    @property
    def markdown_path(self) -> Path | None:
        for output in self.output_files:
            if output.endswith(".md"):
                return Path(output)
        return None

    @property
    def seconds_left(self) -> float | None:
        """The rest of the document at the pace of its pages so far (the first page, which
        also loads the models, counts only until a second one is done)."""
        done = len(self.page_times_s)
        if self.started_s is None or done == 0 or done >= self.page_count:
            return None
        if done == 1:
            per_page = self.page_times_s[0] - self.started_s
        else:
            per_page = (self.page_times_s[-1] - self.page_times_s[0]) / (done - 1)
        return max(0.0, per_page) * (self.page_count - done)

    def reset(self) -> None:
        """Back to waiting, for a retry or after a password was given."""
        self.state = JobState.WAITING
        self.page_count = self.pages_done = 0
        self.pages, self.live = {}, {}
        self.started_s, self.page_times_s = None, []
        self.result = None
        self.outputs, self.page_notes = (), ()
        self.message = self.error_kind = ""
        self.warnings = []
        self.cancel = threading.Event()



def time_left_text(seconds: float) -> str:
    minutes = round(seconds / 60)
    if minutes < 1:
        return translate("QueueModel", "under 1 min left")
    if minutes < 60:
        return translate("QueueModel", "~{0} min left").format(minutes)
    return translate("QueueModel", "~{0} h {1} min left").format(minutes // 60, minutes % 60)


def status_text(job: Job) -> str:
    """The status column's words for a job."""
    if job.state is JobState.WAITING:
        return translate("QueueModel", "Waiting")
    if job.state is JobState.PARSING:
        if job.page_count == 0:
            return translate("QueueModel", "Opening…")
        text = translate("QueueModel", "Page {0} of {1}").format(
            min(job.pages_done + 1, job.page_count), job.page_count)
        left = job.seconds_left
        return text if left is None else f"{text} · {time_left_text(left)}"
    if job.state is JobState.NEEDS_PASSWORD:
        return translate("QueueModel", "Needs a password")
    if job.state is JobState.DONE:
        if job.warnings:
            return translate("QueueModel", "Done with warnings ({0})").format(len(job.warnings))
        return translate("QueueModel", "Done")
    if job.state is JobState.PARTIAL:
        pages = [str(note.page_number) for note in job.page_notes]
        return translate("QueueModel", "Partly done: page(s) {0} not read").format(
            ", ".join(pages))
    if job.state is JobState.CANCELLED:
        return translate("QueueModel", "Cancelled")
    return translate("QueueModel", "Failed: {0}").format(job.message)


LAYOUT_NAMES = {"doclaynet": "DocLayNet", "cdla": "CDLA"}


def name_text(job: Job) -> str:
    """The document column's words: the file's name, and the pages read when not all."""
    if job.choices.pages is None:
        return job.path.name
    return translate("QueueModel", "{0} · pages {1}").format(job.path.name,
                                                              job.choices.pages_text)


def choices_text(choices: ReadingChoices) -> str:
    """The reading choices in one line, for the row's tooltip."""
    parts = [translate("QueueModel", "pages {0}").format(choices.pages_text) if choices.pages
             else translate("QueueModel", "every page"),
             translate("QueueModel", "tables as Markdown") if choices.table_format == "markdown"
             else translate("QueueModel", "tables as HTML"),
             translate("QueueModel", "headers and footers kept") if choices.keep_furniture
             else translate("QueueModel", "headers and footers left out"),
             translate("QueueModel", "formulas in text as $…$") if choices.inline_math
             else translate("QueueModel", "formulas in text as printed"),
             translate("QueueModel", "no layout model") if choices.layout == "none"
             else translate("QueueModel", "layout by {0}").format(LAYOUT_NAMES[choices.layout]),
             translate("QueueModel", "photos straightened") if choices.dewarp
             else translate("QueueModel", "photos read as taken"),
             translate("QueueModel", "languages {0}").format(choices.languages_text)
             if choices.languages else translate("QueueModel", "scripts found line by line")]
    return translate("QueueModel", "Read with: {0}").format(", ".join(parts))


def page_problems(job: Job) -> list[str]:
    """One line per page error: which page, which stage, and why."""
    return [translate("QueueModel", "Page {0} ({1}): {2}: {3}").format(
                note.page_number, stage, kind, message)
            for note in job.page_notes for stage, kind, message in note.errors]


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

    def add(self, path: Path, output_dir: Path,
            choices: ReadingChoices | None = None) -> Job | None:
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
            # A re-run asks for its earlier name; while its earlier files are there, the
            # writer takes the next free one (engine/output/writer.py): nothing is replaced.
            name = same[-1].output_name
        job = Job(self._next_id, path, output_dir, name, choices=choices or ReadingChoices())
        self._next_id += 1
        row = len(self._jobs)
        self.beginInsertRows(QModelIndex(), row, row)
        self._jobs.append(job)
        self.endInsertRows()
        return job

    def restore(self, jobs: list[Job]) -> None:
        """Put back the documents of an earlier session, in their order; they get new ids."""
        if not jobs:
            return
        row = len(self._jobs)
        self.beginInsertRows(QModelIndex(), row, row + len(jobs) - 1)
        for job in jobs:
            job.id = self._next_id
            self._next_id += 1
            self._jobs.append(job)
        self.endInsertRows()

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
            return name_text(job) if index.column() == self.NAME else status_text(job)
        if role == Qt.ItemDataRole.ToolTipRole:
            lines = [str(job.path), status_text(job), choices_text(job.choices)]
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
