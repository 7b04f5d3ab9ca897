"""Reading, setting aside and atomically replacing the JSON settings file."""

from __future__ import annotations

import errno
import json
import os
import stat
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# Errors that mean "this file or folder may not be written", as opposed to a failing disk.
READ_ONLY_ERRNOS = frozenset({errno.EACCES, errno.EPERM, errno.EROFS})
# The settings are a few hundred bytes; a file far larger is not ours to parse (a log written
# to the wrong name, a disk image), and reading it whole would take the memory it holds.
MAX_SETTINGS_BYTES = 1024 * 1024


@dataclass
class FileContent:
    """What reading the settings file found."""

    raw: dict[str, Any] = field(default_factory=dict)
    exists: bool = False
    corrupt: str | None = None  # why the text is not a settings object, when it is not
    unreadable: OSError | None = None  # the file exists but cannot be read


def read_config(path: Path) -> FileContent:
    """Read the file; never raises for a missing, unreadable, oversized or corrupt file.

    Only a regular file is opened: a pipe or a device given as the settings path would block
    or never end, and is left alone as unreadable."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return FileContent(exists=True, unreadable=OSError(errno.EINVAL, "not a regular file"))
        with open(path, "rb") as handle:
            data = handle.read(MAX_SETTINGS_BYTES + 1)
    except FileNotFoundError:
        return FileContent()
    except OSError as error:
        return FileContent(exists=True, unreadable=error)
    if len(data) > MAX_SETTINGS_BYTES:
        return FileContent(exists=True, corrupt=f"larger than {MAX_SETTINGS_BYTES // 1024} KiB, "
                                                "far more than settings take")
    # An empty file holds nothing to lose (e.g. one made with `touch`): it reads as no settings.
    if not data.strip():
        return FileContent(exists=True)
    try:
        raw = json.loads(data.decode("utf-8-sig"))
    except UnicodeDecodeError as error:
        return FileContent(exists=True, corrupt=f"not UTF-8 text: {error.reason}")
    except json.JSONDecodeError as error:
        return FileContent(exists=True, corrupt=f"not valid JSON: {error.msg} at line {error.lineno}")
    if not isinstance(raw, dict):
        return FileContent(exists=True, corrupt=f"the top level is a JSON {type(raw).__name__}, not an object")
    return FileContent(raw=raw, exists=True)


def move_aside(path: Path, now: float | None = None) -> Path:
    """Rename a corrupt file to `<name>.corrupt-<YYYYmmdd-HHMMSS>` beside it and return the new path."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(now))
    target = path.with_name(f"{path.name}.corrupt-{stamp}")
    counter = 1
    while target.exists():  # two corrupt files within one second: keep both
        counter += 1
        target = path.with_name(f"{path.name}.corrupt-{stamp}-{counter}")
    os.rename(path, target)
    return target


def may_write(path: Path) -> bool:
    """False when the existing file is marked read-only.

    An atomic replace only needs the folder to be writable, so without this check a file the
    person made read-only would still be overwritten.
    """
    try:
        return os.access(path, os.W_OK) if path.exists() else True
    except OSError:
        return True


def encode(raw: dict[str, Any]) -> str:
    return json.dumps(raw, indent=2, ensure_ascii=False) + "\n"


def write_atomic(path: Path, raw: dict[str, Any]) -> None:
    """Write `raw` to a temp file in the same folder, flush + fsync, then os.replace over `path`."""
    text = encode(raw)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        _copy_mode(path, tmp_name)
        _replace(tmp_name, path)
    except BaseException:
        try:
            os.unlink(tmp_name)
        except OSError:
            pass
        raise
    _fsync_folder(path.parent)


def _copy_mode(source: Path, target: str) -> None:
    # mkstemp makes the file 0600; keep the mode the person gave the existing file.
    try:
        os.chmod(target, stat.S_IMODE(os.stat(source).st_mode))
    except OSError:
        pass


def _replace(tmp_name: str, path: Path) -> None:
    # On Windows a reader or a virus scanner holding the file open makes replace fail briefly.
    attempts = 5 if sys.platform == "win32" else 1
    for attempt in range(attempts):
        try:
            os.replace(tmp_name, path)
            return
        except PermissionError:
            if attempt == attempts - 1:
                raise
            time.sleep(0.05 * (attempt + 1))


def _fsync_folder(folder: Path) -> None:
    # Makes the rename itself durable on POSIX; folders cannot be opened this way on Windows.
    if sys.platform == "win32":
        return
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def is_read_only_error(error: OSError) -> bool:
    return isinstance(error, PermissionError) or error.errno in READ_ONLY_ERRNOS
