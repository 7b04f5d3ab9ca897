"""Whether formulas typeset: many per LaTeX run, each in its own marked block of the log.

Each formula becomes `\\setbox0=\\hbox{$\\displaystyle ...$}` between two `\\typeout` markers, in
the Tier-B preamble the formula corpus was checked with (shared/formula/corpus/SOURCES.md), so a
prediction is held to the same standard as the training formulas. A formula compiles when both
its markers reach the log with no error line (`! ...`) between them and it leaves no group open.

A broken formula can damage what follows it (a runaway argument swallows the next markers, an
open group shifts every later one), so a run's verdicts count only up to and including its first
failure: the formulas after it are typeset again in the next run. Every run therefore decides at
least one formula, and no verdict is taken in a state another formula broke. A run that hangs
(some TeX error recoveries loop) is interrupted after a timeout; the formula it was on fails,
and is typeset again only at the front of a run, where a hang can only be its own.
"""

from __future__ import annotations

import re
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

COMPILERS = ("latex", "pdflatex")
"""Tried in this order; `latex` (DVI) and `pdflatex` accept the same formulas."""
PREAMBLE = (
    "\\documentclass{article}\\usepackage[utf8]{inputenc}\\usepackage[T1]{fontenc}\n"
    "\\usepackage{amsmath,amssymb,mathtools,bm,mathrsfs,upgreek,cancel,slashed,nicefrac}\n"
)
BATCH_SIZE = 64
RUN_TIMEOUT_S = 20.0
"""One run of BATCH_SIZE formulas takes 0.2 s on 2 busy cores; only a formula that loops (some
TeX error recoveries do) comes near this."""
_INTERRUPT_GRACE_S = 5.0

_BEGIN = "PLFORMULA-BEGIN"
_END = "PLFORMULA-END"
_MARKER = re.compile(rf"^({_BEGIN}|{_END}) (\d+)\s*$")


class CompileCheckUnavailable(RuntimeError):
    """No formula can be checked here (no LaTeX, or the preamble itself fails); says why."""


def find_compiler() -> str | None:
    """Path of the first of COMPILERS on PATH, or None."""
    for name in COMPILERS:
        path = shutil.which(name)
        if path:
            return path
    return None


def build_document(formulas: Sequence[str]) -> str:
    """The LaTeX source typesetting each formula in a marked block.

    The formula sits on a line of its own, so a `%` in it comments out nothing of the frame."""
    parts = [
        PREAMBLE,
        "\\begin{document}\n",
        "\\edef\\plbaselevel{\\the\\currentgrouplevel}\n",
    ]
    for index, formula in enumerate(formulas):
        one_line = " ".join(formula.splitlines())
        parts.append(
            f"\\typeout{{{_BEGIN} {index}}}\n"
            "\\setbox0=\\hbox{$\\displaystyle\n"
            f"{one_line}\n"
            "$}\n"
            "\\ifnum\\currentgrouplevel=\\plbaselevel\\relax\\else"
            "\\errmessage{formula left a group open}\\fi\n"
            f"\\typeout{{{_END} {index}}}\n"
        )
    parts.append("\\end{document}\n")
    return "".join(parts)


@dataclass(frozen=True)
class LogVerdicts:
    verdicts: list[bool | None]
    """Per formula: True (block complete, no error), False (an error in its block), None (its
    markers did not both arrive: swallowed by a runaway argument, or the run stopped)."""
    last_begun: int | None
    """The last formula whose block began; after a timeout, the one that was running."""


def read_log(log: str, count: int) -> LogVerdicts:
    """The verdict of each of a run's `count` formulas from its log.

    Raises CompileCheckUnavailable when an error comes before the first formula (the preamble)
    or no formula reached the log at all."""
    verdicts: list[bool | None] = [None] * count
    errors = [False] * count
    current: int | None = None
    last_begun: int | None = None
    for line in log.splitlines():
        marker = _MARKER.match(line)
        if marker:
            kind, index = marker.group(1), int(marker.group(2))
            if index >= count:
                continue
            if kind == _BEGIN:
                current = last_begun = index
            elif current == index:
                verdicts[index] = not errors[index]
                current = None
            continue
        if line.startswith("! "):
            if current is not None:
                errors[current] = True
            elif last_begun is None:
                raise CompileCheckUnavailable(f"the preamble does not compile: {line[2:].strip()}")
    if count and last_begun is None:
        raise CompileCheckUnavailable("no formula reached the LaTeX log")
    return LogVerdicts(verdicts, last_begun)


@dataclass(frozen=True)
class RunResult:
    log: str
    timed_out: bool


def run_latex(compiler: str, source: str, timeout_s: float) -> RunResult:
    """Typesets `source` in a scratch folder and returns its log.

    A run past `timeout_s` is interrupted the way Ctrl-C would (TeX then ends the run and
    flushes its log, so the markers so far are kept), and killed if that does not stop it."""
    with tempfile.TemporaryDirectory(prefix="paperlens-latex-") as scratch:
        folder = Path(scratch)
        (folder / "f.tex").write_text(source, encoding="utf-8")
        command = [compiler, "-interaction=nonstopmode", "-no-shell-escape", "f.tex"]
        process = subprocess.Popen(command, cwd=folder, stdin=subprocess.DEVNULL,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        timed_out = False
        try:
            process.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            timed_out = True
            process.send_signal(getattr(signal, "SIGINT", signal.SIGTERM))
            try:
                process.wait(timeout=_INTERRUPT_GRACE_S)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        log_path = folder / "f.log"
        log = log_path.read_text(encoding="latin-1") if log_path.is_file() else ""
    return RunResult(log, timed_out)


def _next_batch(pending: list[int], size: int, suspects: set[int]) -> list[int]:
    """Up to `size` pending formulas, stopping before a suspect unless it comes first, so a
    formula that once hung is only ever typeset first, where a hang can only be its own."""
    batch = pending[:1]
    for index in pending[1:size]:
        if index in suspects:
            break
        batch.append(index)
    return batch


def check_formulas(
    formulas: Sequence[str],
    compiler: str | None = None,
    batch_size: int = BATCH_SIZE,
    timeout_s: float = RUN_TIMEOUT_S,
) -> list[bool]:
    """Whether each formula typesets as `$\\displaystyle ...$` in the Tier-B preamble.

    Raises CompileCheckUnavailable when no LaTeX is installed or the preamble fails."""
    compiler = compiler or find_compiler()
    if compiler is None:
        raise CompileCheckUnavailable(f"none of {', '.join(COMPILERS)} is on PATH")
    unique = list(dict.fromkeys(formulas))  # the same reading of several images is typeset once
    verdicts = dict(zip(unique, _check_unique(unique, compiler, batch_size, timeout_s)))
    return [verdicts[formula] for formula in formulas]


def _check_unique(formulas: Sequence[str], compiler: str, batch_size: int,
                  timeout_s: float) -> list[bool]:
    """check_formulas over distinct formulas, run after run (see the module docstring)."""
    verdicts: list[bool] = [False] * len(formulas)
    pending = list(range(len(formulas)))
    suspects: set[int] = set()
    size = batch_size
    while pending:
        batch = _next_batch(pending, size, suspects)
        result = run_latex(compiler, build_document([formulas[i] for i in batch]), timeout_s)
        try:
            read = read_log(result.log, len(batch))
        except CompileCheckUnavailable:
            if not result.timed_out:
                raise
            # Killed before its log said anything: find the formula that hangs by halving.
            outcome: list[bool | None] = [None] if len(batch) == 1 else []
            size = max(1, len(batch) // 2)
        else:
            outcome = read.verdicts
            size = batch_size
            if result.timed_out and read.last_begun is not None:
                suspects.add(batch[read.last_begun])
        decided = 0
        for index, verdict in zip(batch, outcome):
            decided += 1
            verdicts[index] = verdict is True
            if verdict is not True:
                break  # what follows ran in a state this formula may have broken
        pending = pending[decided:]
    return verdicts
