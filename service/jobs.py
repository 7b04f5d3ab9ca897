"""The front end's side of the job table: submit, look up, list, cancel, recover, expire."""

from __future__ import annotations

import json
import statistics
import time
from dataclasses import dataclass, field
from typing import Any

from service.database import ACTIVE, TERMINAL, Database, next_epoch


@dataclass(frozen=True)
class NewDocument:
    name: str
    """The uploaded file's name (what the JSON output calls the document)."""
    stem: str
    """Output name: `<stem>.md`, `<stem>.json`, images/<stem>-p<n>-..."""
    kind: str
    page_count: int
    numbers: tuple[int, ...]
    """The pages to read (1-based, in order)."""


@dataclass(frozen=True)
class NewJob:
    id: str
    options: dict[str, Any]
    documents: tuple[NewDocument, ...]
    bytes: int
    sync: bool = False


@dataclass(frozen=True)
class Limits:
    queue_size: int
    """Jobs waiting or running at once; one more is answered 429."""
    sync_queue_size: int
    quota_bytes: int
    """Everything the jobs keep on disk (inputs, checkpoints, outputs)."""


class QueueFull(Exception):
    def __init__(self, waiting: int, retry_after_s: int) -> None:
        super().__init__(f"{waiting} job(s) are waiting or running; the queue is full.")
        self.waiting = waiting
        self.retry_after_s = retry_after_s


class QuotaExceeded(Exception):
    def __init__(self, used: int, incoming: int, quota: int) -> None:
        super().__init__(
            f"The service's disk quota is full: jobs keep {used / 2**20:.1f} MiB of "
            f"{quota / 2**20:.1f} MiB and this upload needs {incoming / 2**20:.1f} MiB more. "
            "Fetch and wait for older results to expire, or start the service with a larger "
            "--disk-quota-mb.")


class NotCancellable(Exception):
    def __init__(self, state: str) -> None:
        super().__init__(f"The job is already {state}; there is nothing to cancel (its results "
                         "are kept until they expire).")
        self.state = state


@dataclass
class Recovery:
    epoch: int
    pages_released: int = 0
    documents_released: int = 0
    sync_dropped: list[str] = field(default_factory=list)


class JobStore:
    def __init__(self, database: Database) -> None:
        self.db = database

    # ------------------------------------------------------------------ start-up

    def recover(self) -> Recovery:
        """At start: claims of the previous run are void (its workers are gone), so running
        pages and assemblies go back to be done again; pages already done stay done. A quick
        (synchronous) request of the previous run has nobody waiting for it: dropped."""
        recovery = Recovery(next_epoch(self.db))
        with self.db.write() as db:
            recovery.pages_released = db.execute(
                "UPDATE pages SET state='pending', claim=NULL, stage=NULL "
                "WHERE state='running'").rowcount
            recovery.documents_released = db.execute(
                "UPDATE documents SET state='reading', claim=NULL "
                "WHERE state='assembling'").rowcount
            recovery.sync_dropped = [r[0] for r in db.execute("SELECT id FROM jobs WHERE sync=1")]
            db.execute("DELETE FROM jobs WHERE sync=1")
            db.execute("DELETE FROM workers")
        return recovery

    # ------------------------------------------------------------------ submit

    def submit(self, job: NewJob, limits: Limits) -> None:
        """Queue the job with every page pending, unless the queue or the quota is full."""
        now = time.time()
        with self.db.write() as db:
            waiting = db.execute(
                f"SELECT COUNT(*) FROM jobs WHERE state IN {ACTIVE} AND sync=?",
                (int(job.sync),)).fetchone()[0]
            capacity = limits.sync_queue_size if job.sync else limits.queue_size
            if waiting >= capacity:
                raise QueueFull(waiting, self._retry_after_s(db))
            used = db.execute("SELECT COALESCE(SUM(bytes), 0) FROM jobs").fetchone()[0]
            if used + job.bytes > limits.quota_bytes:
                raise QuotaExceeded(used, job.bytes, limits.quota_bytes)
            db.execute("INSERT INTO jobs (id, sync, state, options, bytes, created_at) "
                       "VALUES (?, ?, 'queued', ?, ?, ?)",
                       (job.id, int(job.sync), json.dumps(job.options), job.bytes, now))
            for index, doc in enumerate(job.documents):
                db.execute("INSERT INTO documents (job_id, idx, name, stem, kind, page_count) "
                           "VALUES (?, ?, ?, ?, ?, ?)",
                           (job.id, index, doc.name, doc.stem, doc.kind, doc.page_count))
                db.executemany("INSERT INTO pages (job_id, doc, idx, number) VALUES (?, ?, ?, ?)",
                               [(job.id, index, i, n) for i, n in enumerate(doc.numbers)])

    def retry_after_s(self) -> int:
        return self._retry_after_s(self.db.connection())

    @staticmethod
    def _retry_after_s(db) -> int:
        """Seconds until a place is likely free: the pages ahead times a recent page's time."""
        ahead = db.execute(f"SELECT COUNT(*) FROM pages p JOIN jobs j ON j.id = p.job_id "
                           f"WHERE j.state IN {ACTIVE} AND p.state != 'done'").fetchone()[0]
        recent = [r[0] for r in db.execute("SELECT seconds FROM pages WHERE seconds IS NOT NULL "
                                           "ORDER BY finished_at DESC LIMIT 50")]
        workers = max(1, db.execute("SELECT COUNT(*) FROM workers WHERE state='ready'")
                      .fetchone()[0])
        per_page = statistics.median(recent) if recent else 2.0
        # The first job in line frees a place when it ends; about one job's worth of the queue.
        jobs = max(1, db.execute(f"SELECT COUNT(*) FROM jobs WHERE state IN {ACTIVE}")
                   .fetchone()[0])
        return int(min(3600, max(1, round(ahead / jobs * per_page / workers))))

    # ------------------------------------------------------------------ look up

    def state(self, job_id: str) -> str | None:
        rows = self.db.read("SELECT state FROM jobs WHERE id=?", (job_id,))
        return rows[0]["state"] if rows else None

    def view(self, job_id: str, with_pages: bool = True) -> dict[str, Any] | None:
        rows = self.db.read("SELECT * FROM jobs WHERE id=?", (job_id,))
        if not rows:
            return None
        job = rows[0]
        docs = self.db.read("SELECT * FROM documents WHERE job_id=? ORDER BY idx", (job_id,))
        pages = self.db.read("SELECT doc, number, state, stage, status, errors, seconds, "
                             "attempts FROM pages WHERE job_id=? ORDER BY doc, idx", (job_id,))
        by_doc: dict[int, list] = {}
        for page in pages:
            by_doc.setdefault(page["doc"], []).append(page)
        documents = []
        for doc in docs:
            mine = by_doc.get(doc["idx"], [])
            entry = {"index": doc["idx"], "name": doc["name"], "output_name": doc["stem"],
                     "kind": doc["kind"], "page_count": doc["page_count"], "state": doc["state"],
                     "status": doc["status"], "error": doc["error"],
                     "outputs": json.loads(doc["outputs"]) if doc["outputs"] else [],
                     "pages_done": sum(p["state"] == "done" for p in mine),
                     "pages_total": len(mine)}
            if with_pages:
                entry["pages"] = [_page_view(p) for p in mine]
            documents.append(entry)
        return {"id": job["id"], "state": job["state"], "error": job["error"],
                "created_at": job["created_at"], "started_at": job["started_at"],
                "finished_at": job["finished_at"], "options": json.loads(job["options"]),
                "pages_done": sum(d["pages_done"] for d in documents),
                "pages_total": sum(d["pages_total"] for d in documents),
                "documents": documents}

    def list(self, state: str | None, limit: int, offset: int) -> list[dict[str, Any]]:
        where, params = "sync=0", []
        if state is not None:
            where += " AND state=?"
            params.append(state)
        rows = self.db.read(
            "SELECT j.id, j.state, j.created_at, j.finished_at, "
            "(SELECT COUNT(*) FROM pages p WHERE p.job_id=j.id AND p.state='done') AS done, "
            "(SELECT COUNT(*) FROM pages p WHERE p.job_id=j.id) AS total, "
            "(SELECT group_concat(name, '\n') FROM documents d WHERE d.job_id=j.id) AS names "
            f"FROM jobs j WHERE {where} ORDER BY seq DESC LIMIT ? OFFSET ?",
            (*params, limit, offset))
        return [{"id": r["id"], "state": r["state"], "created_at": r["created_at"],
                 "finished_at": r["finished_at"], "pages_done": r["done"],
                 "pages_total": r["total"], "documents": (r["names"] or "").split("\n")}
                for r in rows]

    def page_marks(self, job_id: str) -> list[dict[str, Any]]:
        """Where every page of the job stands: what progress events are made of."""
        return [{"document": r["doc"], **_page_view(r)} for r in self.db.read(
            "SELECT doc, number, state, stage, status, errors, seconds, attempts FROM pages "
            "WHERE job_id=? ORDER BY doc, idx", (job_id,))]

    def summary(self, job_id: str) -> dict[str, Any] | None:
        rows = self.db.read(
            "SELECT j.id, j.state, j.error, (SELECT COUNT(*) FROM pages p WHERE p.job_id=j.id "
            "AND p.state='done') AS done, (SELECT COUNT(*) FROM pages p WHERE p.job_id=j.id) "
            "AS total FROM jobs j WHERE j.id=?", (job_id,))
        if not rows:
            return None
        r = rows[0]
        return {"id": r["id"], "state": r["state"], "error": r["error"],
                "pages_done": r["done"], "pages_total": r["total"]}

    def cancel(self, job_id: str) -> bool:
        """True when cancelled now; False for an unknown job; NotCancellable when finished."""
        with self.db.write() as db:
            row = db.execute("SELECT state FROM jobs WHERE id=?", (job_id,)).fetchone()
            if row is None:
                return False
            if row[0] in TERMINAL:
                raise NotCancellable(row[0])
            db.execute("UPDATE jobs SET state='cancelled', finished_at=? WHERE id=?",
                       (time.time(), job_id))
        return True

    def add_bytes(self, job_id: str, size: int) -> None:
        with self.db.write() as db:
            db.execute("UPDATE jobs SET bytes = bytes + ? WHERE id=?", (size, job_id))

    def delete(self, job_id: str) -> None:
        with self.db.write() as db:
            db.execute("DELETE FROM jobs WHERE id=?", (job_id,))

    # ------------------------------------------------------------------ house-keeping

    def expired(self, finished_before: float) -> list[str]:
        return [r[0] for r in self.db.read(
            f"SELECT id FROM jobs WHERE state IN {TERMINAL} AND finished_at < ?",
            (finished_before,))]

    def known_ids(self) -> set[str]:
        return {r[0] for r in self.db.read("SELECT id FROM jobs")}

    def settled_documents(self) -> set[tuple[str, int]]:
        """Documents whose reading is over (assembled or failed): their checkpoints are spent."""
        return {(r[0], r[1]) for r in self.db.read(
            "SELECT job_id, idx FROM documents WHERE state IN ('done', 'failed')")}

    def release_bytes(self, freed: dict[str, int]) -> None:
        with self.db.write() as db:
            db.executemany("UPDATE jobs SET bytes = MAX(0, bytes - ?) WHERE id=?",
                           [(size, job_id) for job_id, size in freed.items()])

    def usage_bytes(self) -> int:
        return int(self.db.read("SELECT COALESCE(SUM(bytes), 0) FROM jobs")[0][0])

    def queue(self) -> dict[str, int]:
        counts = {r[0]: r[1] for r in self.db.read(
            "SELECT state, COUNT(*) FROM jobs WHERE sync=0 GROUP BY state")}
        pending = self.db.read(f"SELECT COUNT(*) FROM pages p JOIN jobs j ON j.id=p.job_id "
                               f"WHERE j.state IN {ACTIVE} AND p.state != 'done'")[0][0]
        return {"queued": counts.get("queued", 0), "running": counts.get("running", 0),
                "pages_waiting": pending}

    def workers(self) -> list[dict[str, Any]]:
        return [{"slot": r["slot"], "pid": r["pid"], "state": r["state"],
                 "device": json.loads(r["device"]) if r["device"] else None,
                 "models": json.loads(r["models"]) if r["models"] else None,
                 "error": r["error"], "warm_up_s": r["warm_up_s"], "pages": r["pages"]}
                for r in self.db.read("SELECT * FROM workers ORDER BY slot")]


def _page_view(page) -> dict[str, Any]:
    return {"page": page["number"], "state": page["state"], "status": page["status"],
            "stage": page["stage"], "errors": json.loads(page["errors"]) if page["errors"] else [],
            "seconds": page["seconds"], "attempts": page["attempts"]}
