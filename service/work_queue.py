"""The workers' side of the job table: claim the next page (or a document whose pages are all
read), record it done, give it back. Every update names the claim it holds, so a worker of a
server run that has ended can never record anything."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

from service.database import ACTIVE, Database


@dataclass(frozen=True)
class PageWork:
    job_id: str
    doc: int
    idx: int
    number: int
    name: str
    stem: str
    options: dict[str, Any]


@dataclass(frozen=True)
class AssemblyWork:
    job_id: str
    doc: int
    name: str
    stem: str
    options: dict[str, Any]


def claim_token(epoch: int, slot: int, pid: int) -> str:
    return f"{epoch}.{slot}.{pid}"


class WorkQueue:
    def __init__(self, database: Database, token: str, marks: Database | None = None) -> None:
        self.db = database
        self.token = token
        # Stage marks only show progress: written without waiting for the disk (a few per
        # page, each a synced commit otherwise).
        self.marks = marks or database

    def claim(self) -> PageWork | AssemblyWork | None:
        """Quick requests first, then jobs in the order they came; a document whose pages are
        all read is assembled before another page is started."""
        return self.claim_assembly() or self.claim_page()

    def claim_assembly(self) -> AssemblyWork | None:
        """The first document (quick requests first, then jobs in order) whose pages are all
        read."""
        with self.db.write() as db:
            row = db.execute(
                f"SELECT d.job_id, d.idx, d.name, d.stem, j.options FROM documents d "
                f"JOIN jobs j ON j.id = d.job_id WHERE d.state='reading' AND j.state IN {ACTIVE} "
                f"AND NOT EXISTS (SELECT 1 FROM pages p WHERE p.job_id=d.job_id AND p.doc=d.idx "
                f"AND p.state != 'done') ORDER BY j.sync DESC, j.seq, d.idx LIMIT 1").fetchone()
            if row is None:
                return None
            db.execute("UPDATE documents SET state='assembling', claim=? "
                       "WHERE job_id=? AND idx=?", (self.token, row[0], row[1]))
            return AssemblyWork(row[0], row[1], row[2], row[3], json.loads(row[4]))

    def claim_page(self) -> PageWork | None:
        """The next page waiting (quick requests first, then jobs in order, pages in order)."""
        now = time.time()
        with self.db.write() as db:
            row = db.execute(
                f"SELECT p.job_id, p.doc, p.idx, p.number, d.name, d.stem, j.options FROM pages p "
                f"JOIN jobs j ON j.id = p.job_id JOIN documents d ON d.job_id = p.job_id "
                f"AND d.idx = p.doc WHERE p.state='pending' AND d.state='reading' "
                f"AND j.state IN {ACTIVE} ORDER BY j.sync DESC, j.seq, p.doc, p.idx "
                f"LIMIT 1").fetchone()
            if row is None:
                return None
            db.execute("UPDATE pages SET state='running', claim=?, stage=NULL, "
                       "attempts=attempts+1, started_at=? WHERE job_id=? AND doc=? AND idx=?",
                       (self.token, now, row[0], row[1], row[2]))
            db.execute("UPDATE jobs SET state='running', started_at=COALESCE(started_at, ?) "
                       "WHERE id=? AND state='queued'", (now, row[0]))
            return PageWork(row[0], row[1], row[2], row[3], row[4], row[5], json.loads(row[6]))

    def mark_stage(self, work: PageWork, stage: str) -> None:
        with self.marks.write() as db:
            db.execute("UPDATE pages SET stage=? WHERE job_id=? AND doc=? AND idx=? AND claim=?",
                       (stage, work.job_id, work.doc, work.idx, self.token))

    def finish_page(self, work: PageWork, status: str, errors: list[dict[str, str]],
                    result: str, crops: list[str], crop_bytes: int, seconds: float) -> bool:
        """Record the page done; False when the claim was lost (nothing recorded)."""
        with self.db.write() as db:
            done = db.execute(
                "UPDATE pages SET state='done', status=?, errors=?, result=?, crops=?, "
                "finished_at=?, seconds=?, claim=NULL, stage=NULL "
                "WHERE job_id=? AND doc=? AND idx=? AND claim=? AND state='running'",
                (status, json.dumps(errors), result, json.dumps(crops), time.time(), seconds,
                 work.job_id, work.doc, work.idx, self.token)).rowcount
            if done:
                db.execute("UPDATE jobs SET bytes = bytes + ? WHERE id=?",
                           (crop_bytes, work.job_id))
        return bool(done)

    def lose_page(self, work: PageWork, reason: str, max_losses: int) -> bool:
        """The cluster worker reading the page was lost: the page waits to be read again (the
        next claim takes it first), unless it has now been lost `max_losses` times, when it is
        a failed page (WorkerLost) and the document goes on. True when it failed now."""
        from engine.api import lost_message, lost_page
        from service.checkpoint import encode_result

        key = (work.job_id, work.doc, work.idx, self.token)
        with self.db.write() as db:
            row = db.execute("SELECT crashes FROM pages WHERE job_id=? AND doc=? AND idx=? "
                             "AND claim=? AND state='running'", key).fetchone()
            if row is None:
                return False
            if row[0] + 1 < max_losses:
                db.execute("UPDATE pages SET state='pending', claim=NULL, stage=NULL, "
                           "crashes=crashes+1 WHERE job_id=? AND doc=? AND idx=? AND claim=?",
                           key)
                return False
            result = lost_page(work.number, lost_message(row[0] + 1, reason)).result
            errors = [{"stage": e.stage, "kind": e.kind, "message": e.message}
                      for e in result.errors]
            db.execute("UPDATE pages SET state='done', status='failed', errors=?, result=?, "
                       "crops='[]', finished_at=?, claim=NULL, stage=NULL, crashes=crashes+1 "
                       "WHERE job_id=? AND doc=? AND idx=? AND claim=?",
                       (json.dumps(errors), encode_result(result), time.time(), *key))
        return True

    def release_page(self, work: PageWork) -> None:
        with self.db.write() as db:
            db.execute("UPDATE pages SET state='pending', claim=NULL, stage=NULL "
                       "WHERE job_id=? AND doc=? AND idx=? AND claim=?",
                       (work.job_id, work.doc, work.idx, self.token))

    def stored_pages(self, work: AssemblyWork) -> list[tuple[int, str, str]]:
        """(page number, result JSON, crop names JSON) of the document, in reading order."""
        return [(r[0], r[1], r[2]) for r in self.db.read(
            "SELECT number, result, crops FROM pages WHERE job_id=? AND doc=? AND state='done' "
            "ORDER BY idx", (work.job_id, work.doc))]

    def finish_document(self, job_id: str, doc: int, state: str, status: str | None,
                        error: str | None, outputs: list[str], output_bytes: int,
                        claimed: bool = True) -> None:
        """Record the document's end; when it was the job's last, the job ends too: done when
        every page of every document is ok, failed when every document failed, else partial."""
        now = time.time()
        with self.db.write() as db:
            condition = "claim=?" if claimed else "state IN ('reading', 'assembling')"
            params = (self.token,) if claimed else ()
            changed = db.execute(
                f"UPDATE documents SET state=?, status=?, error=?, outputs=?, claim=NULL "
                f"WHERE job_id=? AND idx=? AND {condition}",
                (state, status, error, json.dumps(outputs), job_id, doc, *params)).rowcount
            if not changed:
                return
            db.execute("UPDATE jobs SET bytes = bytes + ? WHERE id=?", (output_bytes, job_id))
            docs = db.execute("SELECT state, status FROM documents WHERE job_id=?",
                              (job_id,)).fetchall()
            if any(d[0] in ("reading", "assembling") for d in docs):
                return
            if all(d[0] == "failed" for d in docs):
                final = "failed"
            elif all(d[0] == "done" and d[1] == "ok" for d in docs):
                final = "done"
            else:
                final = "partial"
            db.execute(f"UPDATE jobs SET state=?, finished_at=? WHERE id=? AND state IN {ACTIVE}",
                       (final, now, job_id))

    def fail_job(self, job_id: str, message: str) -> None:
        """Something about the whole run (a model that cannot be loaded) stops the job."""
        with self.db.write() as db:
            db.execute(f"UPDATE jobs SET state='failed', error=?, finished_at=? "
                       f"WHERE id=? AND state IN {ACTIVE}", (message, time.time(), job_id))
            db.execute("UPDATE pages SET state='pending', claim=NULL, stage=NULL "
                       "WHERE job_id=? AND claim=?", (job_id, self.token))

    def job_state(self, job_id: str) -> str | None:
        rows = self.db.read("SELECT state FROM jobs WHERE id=?", (job_id,))
        return rows[0][0] if rows else None

    # ------------------------------------------------------------------ the worker itself

    def set_worker(self, slot: int, pid: int, state: str, **values: Any) -> None:
        columns = {"pid": pid, "state": state, **values}
        for name in ("device", "models"):
            if columns.get(name) is not None:
                columns[name] = json.dumps(columns[name])
        names = ", ".join(columns)
        marks = ", ".join("?" for _ in columns)
        updates = ", ".join(f"{name}=excluded.{name}" for name in columns)
        with self.db.write() as db:
            db.execute(f"INSERT INTO workers (slot, {names}) VALUES (?, {marks}) "
                       f"ON CONFLICT(slot) DO UPDATE SET {updates}", (slot, *columns.values()))

    def count_page(self, slot: int) -> None:
        with self.db.write() as db:
            db.execute("UPDATE workers SET pages = pages + 1 WHERE slot=?", (slot,))

    def settle_crash(self, description: str, max_crashes: int) -> list[int]:
        """The claims of a worker process that died: each page goes back to be read again,
        unless it has now stopped a worker `max_crashes` times, when it is a failed page (the
        document goes on without it). Returns the documents whose assembly it held, which
        are given back the same way."""
        from service.checkpoint import encode_result, failed_result

        now = time.time()
        with self.db.write() as db:
            for row in db.execute("SELECT job_id, doc, idx, number, stage, crashes FROM pages "
                                  "WHERE claim=? AND state='running'", (self.token,)).fetchall():
                job_id, doc, idx, number, stage, crashes = row
                key = (job_id, doc, idx)
                if crashes + 1 < max_crashes:
                    db.execute("UPDATE pages SET state='pending', claim=NULL, stage=NULL, "
                               "crashes=crashes+1 WHERE job_id=? AND doc=? AND idx=?", key)
                    continue
                message = (f"the worker process reading this page stopped ({description}) "
                           f"{crashes + 1} times; the page is left out")
                error = {"stage": stage or "render", "kind": "WorkerStopped", "message": message}
                result = failed_result(number, error["stage"], error["kind"], message)
                db.execute("UPDATE pages SET state='done', status='failed', errors=?, result=?, "
                           "crops='[]', finished_at=?, claim=NULL, stage=NULL, "
                           "crashes=crashes+1 WHERE job_id=? AND doc=? AND idx=?",
                           (json.dumps([error]), encode_result(result), now, *key))
            held = db.execute("SELECT job_id, idx, crashes FROM documents WHERE claim=?",
                              (self.token,)).fetchall()
            db.execute("UPDATE documents SET state='reading', claim=NULL, crashes=crashes+1 "
                       "WHERE claim=?", (self.token,))
        failed = []
        for job_id, doc, crashes in held:
            if crashes + 1 >= max_crashes:
                self.finish_document(job_id, doc, "failed", "failed",
                                     f"assembling the document stopped the worker process "
                                     f"({description}) {crashes + 1} times", [], 0,
                                     claimed=False)
                failed.append(doc)
        return failed
