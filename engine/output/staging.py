"""Staging folders: each names the process that owns it, and those left behind by a process
that is gone (killed, or its machine restarted) are removed by the next run into the folder."""

from __future__ import annotations

import json
import os
import shutil
import socket
import sys
import time
from pathlib import Path

STAGING_MARK = ".paperlens-"
"""Staging folders are `.<stem>.paperlens-<random>`, hidden beside the outputs."""
OWNER_FILE = ".owner.json"
# A staging folder without a readable owner (one made by an older version, or one whose owner
# is writing it this instant) is only removed once nothing has changed in it for this long.
UNOWNED_GRACE_S = 24 * 3600.0


def owner_record() -> dict[str, object]:
    """Who this process is, in terms that survive PID reuse: host, boot and start time."""
    pid = os.getpid()
    start = _windows_process(pid)[1] if sys.platform == "win32" else _start_ticks(pid)
    return {"pid": pid, "host": socket.gethostname(), "boot": _boot_id(), "start": start}


def write_owner(staging: Path) -> None:
    with open(staging / OWNER_FILE, "w", encoding="utf-8") as fh:
        json.dump(owner_record(), fh)


def owner_alive(record: dict[str, object]) -> bool:
    """False only when the owner is certainly gone; an owner on another machine, or one this
    platform cannot check, counts as alive."""
    if record.get("host") != socket.gethostname():
        return True  # a shared folder: that machine's processes are not ours to judge
    pid = record.get("pid")
    if not isinstance(pid, int) or pid <= 0:
        return True
    boot = _boot_id()
    if boot is not None and record.get("boot") not in (None, boot):
        return False  # the machine has restarted since
    if sys.platform.startswith("linux"):
        start = _start_ticks(pid)
        return start is not None and start == record.get("start")
    if sys.platform == "win32":
        exists, start = _windows_process(pid)
        # A PID Windows has given to a newer process is not the owner; an owner whose start
        # could not be read (another user's process) is given the benefit of the doubt.
        return exists and (start is None or record.get("start") in (None, start))
    if os.name == "posix":
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except OSError:
            return True
        return True
    return True  # no safe way to ask here: keep the folder


def remove_stale_staging(folder: Path) -> list[Path]:
    """Remove the staging folders in `folder` whose owner is gone; returns what was removed."""
    removed = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for entry in entries:
        if not (entry.name.startswith(".") and STAGING_MARK in entry.name):
            continue
        try:
            if not entry.is_dir(follow_symlinks=False) or not _stale(Path(entry.path)):
                continue
        except OSError:
            continue
        shutil.rmtree(entry.path, ignore_errors=True)
        if not os.path.lexists(entry.path):
            removed.append(Path(entry.path))
    return removed


def _stale(staging: Path) -> bool:
    try:
        record = json.loads((staging / OWNER_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        record = None
    if isinstance(record, dict):
        return not owner_alive(record)
    return time.time() - staging.stat().st_mtime > UNOWNED_GRACE_S


def _boot_id() -> str | None:
    try:
        return Path("/proc/sys/kernel/random/boot_id").read_text().strip() or None
    except OSError:
        return None


def _start_ticks(pid: int) -> int | None:
    """The process's start time in clock ticks since boot (Linux), or None."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    # The command name (field 2) may hold spaces and parentheses: count from its last ")".
    fields = stat[stat.rfind(")") + 2:].split()
    try:
        return int(fields[19])
    except (IndexError, ValueError):
        return None


# Windows: the process's creation time (100 ns since 1601) stands in for Linux's start ticks.
_PROCESS_QUERY_LIMITED_INFORMATION = 0x1000
_ERROR_INVALID_PARAMETER = 87  # OpenProcess's answer for a PID no process has
_STILL_ACTIVE = 259


def _windows_process(pid: int) -> tuple[bool, int | None]:
    """(whether a running process has this PID, its creation time when it can be read)."""
    import ctypes
    from ctypes import wintypes

    kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)
    kernel32.OpenProcess.restype = wintypes.HANDLE
    handle = kernel32.OpenProcess(_PROCESS_QUERY_LIMITED_INFORMATION, False, pid)
    if not handle:
        return ctypes.get_last_error() != _ERROR_INVALID_PARAMETER, None
    try:
        code = wintypes.DWORD()
        if kernel32.GetExitCodeProcess(handle, ctypes.byref(code)) and code.value != _STILL_ACTIVE:
            return False, None  # exited; someone still holds a handle to it
        times = [wintypes.FILETIME() for _ in range(4)]
        if not kernel32.GetProcessTimes(handle, *(ctypes.byref(t) for t in times)):
            return True, None
        return True, (times[0].dwHighDateTime << 32) | times[0].dwLowDateTime
    finally:
        kernel32.CloseHandle(handle)
