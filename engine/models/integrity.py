"""Which model files this process has hashed, and the verification records kept beside them.

A model file is hashed in full before its first load in a process; the result is kept for the
life of the process under the file's identity (device, inode, size, mtime and ctime), so a file
changed in place, even with its mtime put back, is hashed again (writing it moves the ctime,
which no one can set back). The records beside the files carry the same identity: they let
`models list` say "verified" without hashing, and never vouch for a load.
"""

from __future__ import annotations

import json
import os
import threading
import uuid
from pathlib import Path
from typing import Any

from engine.models import sources

_lock = threading.Lock()
_hashed: dict[tuple, str] = {}


def identity(path: Path, stat: os.stat_result) -> tuple:
    return (str(path), stat.st_dev, stat.st_ino, stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns)


def file_sha256(path: Path, *, rehash: bool = False) -> str | None:
    """The file's SHA-256, hashed once per process per identity (always when `rehash`); None
    when it cannot be read."""
    try:
        key = identity(path, path.stat())
        with _lock:
            known = None if rehash else _hashed.get(key)
        if known is not None:
            return known
        digest = sources.sha256_file(path)
        after = identity(path, path.stat())
    except OSError:
        return None
    if after == key:
        # A file that changed while it was read is not remembered: the next call hashes it again.
        with _lock:
            _hashed[key] = digest
    return digest


def forget_hashes() -> None:
    """Drop every remembered hash, as a new process starts (tests)."""
    with _lock:
        _hashed.clear()


def record_fields(stat: os.stat_result) -> dict[str, int]:
    """What a record remembers of the file it vouches for."""
    return {"size": stat.st_size, "mtime_ns": stat.st_mtime_ns, "ctime_ns": stat.st_ctime_ns,
            "inode": stat.st_ino}


def read_record(record_path: Path) -> dict[str, Any] | None:
    try:
        record = json.loads(record_path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return record if isinstance(record, dict) else None


def record_matches(record_path: Path, path: Path, **expected: Any) -> bool:
    """The record exists, holds `expected`, and the file is still the one it was written for."""
    record = read_record(record_path)
    try:
        stat = path.stat()
    except OSError:
        return False
    if record is None:
        return False
    wanted = {**expected, **record_fields(stat)}
    return all(record.get(key) == value for key, value in wanted.items())


def write_record(record_path: Path, path: Path, **fields: Any) -> None:
    """Write the record for `path` atomically; OSError when the folder is not writable."""
    record = {**fields, **record_fields(path.stat())}
    tmp = record_path.with_name(f"{record_path.name}.{os.getpid()}-{uuid.uuid4().hex[:8]}.tmp")
    try:
        tmp.write_text(json.dumps(record), encoding="utf-8")
        os.replace(tmp, record_path)
    finally:
        tmp.unlink(missing_ok=True)
