"""Where the service keeps things in its data folder, and what they cost on disk.

    <data>/jobs.sqlite3          the job table (WAL: also -wal and -shm beside it)
    <data>/service.lock          held by the running server: one server per data folder
    <data>/incoming/             uploads being received and checked (emptied at start)
    <data>/jobs/<id>/input/<n>/  the job's n-th uploaded file, under its own name
    <data>/jobs/<id>/pages/<n>/  crops of finished pages until the document is assembled
    <data>/jobs/<id>/output/     the results, as the CLI writes them
"""

from __future__ import annotations

import os
import re
import shutil
import unicodedata
from pathlib import Path

from engine.api import CONTROL_CHARACTERS

# File names are kept (the outputs are named after them) but never trusted as paths.
MAX_NAME_CHARS = 120
# Control characters (engine/names.py, the same set the CLI escapes on the terminal) and the
# characters a path on any system reads as something else.
_UNSAFE = re.compile(f"[{CONTROL_CHARACTERS}/\\\\:*?\"<>|]")


class DataFolder:
    def __init__(self, root: Path) -> None:
        self.root = root

    @property
    def database(self) -> Path:
        return self.root / "jobs.sqlite3"

    @property
    def lock(self) -> Path:
        return self.root / "service.lock"

    @property
    def incoming(self) -> Path:
        return self.root / "incoming"

    @property
    def jobs(self) -> Path:
        return self.root / "jobs"

    def job(self, job_id: str) -> Path:
        if not re.fullmatch(r"[0-9a-f]{32}", job_id):
            raise ValueError(f"not a job id: {job_id!r}")
        return self.jobs / job_id

    def input_dir(self, job_id: str, doc: int) -> Path:
        return self.job(job_id) / "input" / str(doc)

    def pages_dir(self, job_id: str, doc: int) -> Path:
        return self.job(job_id) / "pages" / str(doc)

    def output_dir(self, job_id: str) -> Path:
        return self.job(job_id) / "output"

    def prepare(self) -> None:
        for folder in (self.root, self.jobs):
            folder.mkdir(parents=True, exist_ok=True)
        shutil.rmtree(self.incoming, ignore_errors=True)
        self.incoming.mkdir()

    def remove_job(self, job_id: str) -> None:
        shutil.rmtree(self.job(job_id), ignore_errors=True)

    def sweep(self, known: set[str]) -> list[str]:
        """Remove job folders the table no longer knows (a removal cut short by a stop)."""
        removed = []
        for entry in os.scandir(self.jobs):
            if entry.is_dir(follow_symlinks=False) and entry.name not in known:
                shutil.rmtree(entry.path, ignore_errors=True)
                removed.append(entry.name)
        return removed

    def sweep_checkpoints(self, settled: set[tuple[str, int]]) -> dict[str, int]:
        """Remove the page checkpoints of documents already assembled or failed (a stop came
        between the document's end and its tidy-up); the bytes freed, by job."""
        freed: dict[str, int] = {}
        for job_id, doc in settled:
            folder = self.pages_dir(job_id, doc)
            if folder.is_dir():
                freed[job_id] = freed.get(job_id, 0) + tree_bytes(folder)
                shutil.rmtree(folder, ignore_errors=True)
        return freed

    def free_bytes(self) -> int:
        return shutil.disk_usage(self.root).free


def private_files() -> None:
    """Everything this process and its workers make is theirs alone: folders 0700, files 0600
    (uploaded documents and their results are nobody else's to read on this computer)."""
    os.umask(0o077)


def safe_name(raw: str | None, fallback: str = "upload") -> str:
    """The last part of an uploaded file's name, without characters a path or a terminal would
    read as something else; names that say nothing become `fallback`."""
    name = re.split(r"[/\\]", raw or "")[-1]
    name = _UNSAFE.sub("_", unicodedata.normalize("NFC", name)).strip(" .")
    if len(name) > MAX_NAME_CHARS:
        stem, dot, suffix = name.rpartition(".")
        keep = MAX_NAME_CHARS - len(suffix) - 1
        name = f"{stem[:keep]}.{suffix}" if dot and 0 < len(suffix) < 16 else name[:MAX_NAME_CHARS]
    return name or fallback


def tree_bytes(folder: Path) -> int:
    total = 0
    for dirpath, _dirnames, filenames in os.walk(folder):
        for filename in filenames:
            try:
                total += os.lstat(os.path.join(dirpath, filename)).st_size
            except OSError:
                pass
    return total
