"""The service's SQLite file: schema, connections (WAL, one per thread) and transactions.

Every state a job goes through is a row here, so a server killed at any instant finds its
jobs again: pages are `pending`, `running` (claimed by one worker of one server run) or
`done` (result stored, never read again); documents are `reading`, `assembling`, `done` or
`failed`; jobs are queued, running, done, partial, failed or cancelled."""

from __future__ import annotations

import sqlite3
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

SCHEMA_VERSION = 1
TERMINAL = ("done", "partial", "failed", "cancelled")
ACTIVE = ("queued", "running")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS jobs (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    sync INTEGER NOT NULL DEFAULT 0,
    state TEXT NOT NULL,
    options TEXT NOT NULL,
    error TEXT,
    bytes INTEGER NOT NULL DEFAULT 0,
    created_at REAL NOT NULL,
    started_at REAL,
    finished_at REAL
);
CREATE TABLE IF NOT EXISTS documents (
    job_id TEXT NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    name TEXT NOT NULL,
    stem TEXT NOT NULL,
    kind TEXT NOT NULL,
    page_count INTEGER NOT NULL,
    state TEXT NOT NULL DEFAULT 'reading',
    status TEXT,
    error TEXT,
    outputs TEXT,
    claim TEXT,
    crashes INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (job_id, idx)
);
CREATE TABLE IF NOT EXISTS pages (
    job_id TEXT NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
    doc INTEGER NOT NULL,
    idx INTEGER NOT NULL,
    number INTEGER NOT NULL,
    state TEXT NOT NULL DEFAULT 'pending',
    stage TEXT,
    claim TEXT,
    attempts INTEGER NOT NULL DEFAULT 0,
    crashes INTEGER NOT NULL DEFAULT 0,
    status TEXT,
    errors TEXT,
    result TEXT,
    crops TEXT,
    started_at REAL,
    finished_at REAL,
    seconds REAL,
    PRIMARY KEY (job_id, doc, idx)
);
CREATE INDEX IF NOT EXISTS pages_by_state ON pages (state, job_id);
CREATE INDEX IF NOT EXISTS jobs_by_state ON jobs (state, sync);
CREATE TABLE IF NOT EXISTS workers (
    slot INTEGER PRIMARY KEY,
    pid INTEGER,
    state TEXT NOT NULL,
    device TEXT,
    models TEXT,
    error TEXT,
    started_at REAL,
    ready_at REAL,
    warm_up_s REAL,
    pages INTEGER NOT NULL DEFAULT 0
);
"""


class Database:
    """One SQLite file; each thread gets its own connection (sqlite3 objects stay in their
    thread). Writes go through `write()`, a BEGIN IMMEDIATE transaction, so two processes
    never interleave a read-then-update."""

    def __init__(self, path: Path, synchronous: str = "FULL") -> None:
        self.path = path
        # FULL: a committed page survives a power cut too, not only a killed process. NORMAL
        # (in WAL mode: survives a killed process) for what only shows progress.
        self.synchronous = synchronous
        self._local = threading.local()

    def create(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        # executescript commits on its own; every statement in it may run again harmlessly.
        self.connection().executescript(_SCHEMA)
        with self.write() as db:
            row = db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
            if row is None:
                db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
            elif int(row[0]) != SCHEMA_VERSION:
                raise RuntimeError(f"{self.path} holds jobs of schema {row[0]}; this version of "
                                   f"Paperlens reads schema {SCHEMA_VERSION}. Use another "
                                   "--data-dir, or remove the old one.")

    def connection(self) -> sqlite3.Connection:
        db = getattr(self._local, "db", None)
        if db is None:
            # isolation_level=None: no implicit transactions; every write says BEGIN itself.
            db = sqlite3.connect(self.path, timeout=60.0, isolation_level=None,
                                 check_same_thread=True)
            db.row_factory = sqlite3.Row
            db.execute("PRAGMA journal_mode=WAL")
            db.execute(f"PRAGMA synchronous={self.synchronous}")
            db.execute("PRAGMA foreign_keys=ON")
            self._local.db = db
        return db

    @contextmanager
    def write(self) -> Iterator[sqlite3.Connection]:
        db = self.connection()
        db.execute("BEGIN IMMEDIATE")
        try:
            yield db
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")

    def read(self, sql: str, params: tuple = ()) -> list[sqlite3.Row]:
        return self.connection().execute(sql, params).fetchall()

    def close(self) -> None:
        db = getattr(self._local, "db", None)
        if db is not None:
            db.close()
            self._local.db = None


def next_epoch(database: Database) -> int:
    """A new number for this server run: claims made by an earlier run are void."""
    with database.write() as db:
        row = db.execute("SELECT value FROM meta WHERE key='epoch'").fetchone()
        epoch = int(row[0]) + 1 if row else 1
        db.execute("INSERT OR REPLACE INTO meta VALUES ('epoch', ?)", (str(epoch),))
    return epoch
