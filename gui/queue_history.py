"""The queue across restarts: each document with its outputs and status, in a JSON file beside
the settings. Read once when the window opens; written atomically (the settings' write path)
off the UI thread whenever a document finishes or leaves the queue, and at closing."""

from __future__ import annotations

import json
import logging
import threading
from pathlib import Path
from typing import Any

from gui.background import run_in_background
from gui.queue_model import Job, JobState, PageNote
from gui.reading_choices import ReadingChoices
from settings.config_file import write_atomic

log = logging.getLogger(__name__)

HISTORY_FILE_NAME = "queue.json"
FORMAT_VERSION = 1


def job_record(job: Job) -> dict[str, Any]:
    """What outlives the session. A document not finished at quitting comes back cancelled
    (Retry converts it); passwords are never kept."""
    state = job.state if job.state.finished else JobState.CANCELLED
    return {"path": str(job.path), "output_dir": str(job.output_dir),
            "output_name": job.output_name, "state": state.value,
            "outputs": list(job.output_files),
            "page_count": job.page_count, "message": job.message, "error_kind": job.error_kind,
            "warnings": list(job.warnings), "choices": job.choices.record(),
            "page_notes": [{"page": n.page_number, "status": n.status,
                            "errors": [list(e) for e in n.errors]} for n in job.page_notes]}


def job_from_record(record: dict[str, Any]) -> Job:
    """A finished Job from its record (KeyError, TypeError or ValueError when malformed)."""
    state = JobState(record["state"])
    if not state.finished:
        raise ValueError(f"unfinished state {state.value}")
    job = Job(0, Path(record["path"]), Path(record["output_dir"]), str(record["output_name"]),
              state=state, message=str(record.get("message", "")),
              error_kind=str(record.get("error_kind", "")),
              warnings=[str(w) for w in record.get("warnings", [])],
              outputs=tuple(str(o) for o in record.get("outputs", [])),
              choices=ReadingChoices.from_record(record.get("choices")),
              page_notes=tuple(PageNote(int(n["page"]), str(n["status"]),
                                        tuple((str(s), str(k), str(m)) for s, k, m in n["errors"]))
                               for n in record.get("page_notes", [])))
    job.page_count = int(record.get("page_count", 0))
    job.pages_done = job.page_count if state.written else 0
    return job


class QueueHistory:
    """The queue file of one settings file; safe to save from the UI thread at any time."""

    def __init__(self, settings_path: Path) -> None:
        self.path = Path(settings_path).with_name(HISTORY_FILE_NAME)
        self._lock = threading.Lock()
        self._requested = 0  # saves asked for, numbered; only the newest one is written
        self._written = 0
        self._last: list[dict[str, Any]] | None = None
        self._newest: tuple[int, dict[str, Any]] | None = None

    def load(self) -> list[Job]:
        """The jobs of the last session; a missing or unreadable file gives none (and a warning)."""
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            records = data["jobs"] if isinstance(data, dict) else []
        except FileNotFoundError:
            return []
        except (OSError, ValueError, KeyError) as error:
            log.warning("the queue of the last session could not be read from %s: %s",
                        self.path, error)
            return []
        jobs = []
        for record in records:
            try:
                jobs.append(job_from_record(record))
            except (KeyError, TypeError, ValueError) as error:
                log.warning("a document of the last session was skipped: %s", error)
        self._last = [job_record(job) for job in jobs]
        return jobs

    def save(self, jobs: list[Job], wait: bool = False) -> None:
        """Write the queue when it changed; in the background unless `wait`, which also
        finishes a background write still on its way."""
        records = [job_record(job) for job in jobs]
        if records != self._last:
            self._last = records
            self._requested += 1
            self._newest = (self._requested, {"version": FORMAT_VERSION, "jobs": records})
            if not wait:
                number, data = self._newest
                run_in_background(lambda: self._write(number, data), lambda _done: None,
                                  self._report)
                return
        if wait and self._newest is not None:
            try:
                self._write(*self._newest)
            except OSError as error:
                self._report(error)

    def _report(self, error: BaseException) -> None:
        log.warning("the queue could not be saved to %s: %s", self.path, error)

    def _write(self, number: int, data: dict[str, Any]) -> None:
        with self._lock:
            if number <= self._written:  # a newer save got here first
                return
            write_atomic(self.path, data)
            self._written = number
