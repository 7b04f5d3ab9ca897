"""Identification in a child process: a paged input (PDF, XPS, EPUB, CBZ) is opened and its
pages counted by MuPDF (an Office document read whole, engine/office) in a process of its own, under a memory limit (RLIMIT_AS) and a time
limit, before the caller opens it itself. A file built to make MuPDF lay it out for ever, or
without bound, costs the child and never the caller: the service's HTTP process, a CLI that
must still answer Ctrl+C and SIGTERM while MuPDF is busy."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from engine import errors
from engine.errors import CorruptDocument, PaperlensError, UnsupportedInput

CHILD_MODULE = "engine.input.probe_child"


@dataclass(frozen=True)
class ProbeLimits:
    """What identifying one input may cost."""

    memory_mib: int = 2048
    """Address space of the child (RLIMIT_AS): the interpreter and MuPDF take ~0.3 GiB; laying
    out a 1,000-page EPUB stays well below the rest."""
    time_s: float = 30.0
    """Opening and counting the pages of a long EPUB takes seconds; a layout that has not ended
    after this is taken as one that never will."""
    poll_s: float = 0.05


PROBE_LIMITS = ProbeLimits()
# An Office document is read whole in the child: a workbook of 500,000 cells took 16 s on a
# busy 2-core machine (screening and openpyxl), the 1,000,000 a sheet may hold twice that.
OFFICE_PROBE_LIMITS = ProbeLimits(time_s=120.0)
# The typed errors a child may report, by name (never a class the child could choose freely).
_TYPED = {name: value for name, value in vars(errors).items()
          if isinstance(value, type) and issubclass(value, PaperlensError)}


@dataclass(frozen=True)
class Identity:
    kind: str
    page_count: int
    office: dict | None = None
    """Office documents: their pages as read in the child (engine/office/model.py, as JSON)."""


def probe_document(path: Path, password: str | None = None,
                   check_cancel: Callable[[], None] | None = None,
                   limits: ProbeLimits = PROBE_LIMITS) -> Identity:
    """The input's kind and page count, found in a bounded child; its failures are raised
    here as the same typed errors, and a child that runs out of memory or time is an
    UnsupportedInput naming the file. `check_cancel` is asked between polls: a stop request
    ends the child at once."""
    command = [sys.executable, "-m", CHILD_MODULE, str(path), str(limits.memory_mib)]
    env = dict(os.environ)
    root = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
    child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, env=env)
    try:
        child.stdin.write(json.dumps({"password": password}).encode() + b"\n")
        child.stdin.close()
    except OSError:
        pass  # the child ended already; its answer (or its absence) says why
    deadline = time.monotonic() + limits.time_s
    # Read while the child runs: an Office document's answer is larger than a pipe holds.
    answer_parts: list[bytes] = []
    reader = threading.Thread(target=lambda: answer_parts.append(child.stdout.read()),
                              daemon=True)
    reader.start()
    try:
        while child.poll() is None:
            if check_cancel is not None:
                check_cancel()
            if time.monotonic() > deadline:
                raise UnsupportedInput(
                    f"{path.name} was still being laid out after {limits.time_s:.0f} s, only to "
                    "count its pages (the file may be built never to finish); Paperlens does not "
                    "read it.")
            time.sleep(limits.poll_s)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
        reader.join()
        child.stdout.close()
    return _identity(path, child.returncode, b"".join(answer_parts), limits)


def _identity(path: Path, code: int, answer: bytes, limits: ProbeLimits) -> Identity:
    try:
        data = json.loads(answer.decode("utf-8").strip().splitlines()[-1])
    except (ValueError, IndexError, UnicodeDecodeError):
        data = None
    if isinstance(data, dict) and "kind" in data:
        return Identity(str(data["kind"]), int(data["pages"]), data.get("office"))
    if isinstance(data, dict) and data.get("error") in _TYPED:
        raise _TYPED[data["error"]](str(data.get("message", "")))
    if isinstance(data, dict) and data.get("error") == "memory":
        raise UnsupportedInput(
            f"{path.name} needs more than {limits.memory_mib} MiB only to be opened (the file "
            "may be built to exhaust memory); Paperlens does not read it.")
    raise CorruptDocument(f"{path.name} could not be opened: the reader stopped "
                          f"({_ended(code)}).")


def _ended(code: int) -> str:
    return f"signal {-code}" if code < 0 else f"exit {code}"
