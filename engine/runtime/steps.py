"""Where a page's time goes inside its stages: seconds per named step of the models and tools
that read it (the text detector, the recognisers, the layout model, Tesseract, the script
reader), each second counted once, under the chain of steps it was spent in."""

from __future__ import annotations

import functools
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")

ONNX_PREFIX = "onnx_"
"""A page's timings (PageResult.timings_s) key: pure session.run seconds of a model role
(`onnx_det`), overlapping the stage that ran it."""
STEP_PREFIX = "step_"
"""A page's timings key: seconds in a step of a StepClock (`step_det`,
`step_script_reading.tesseract_lines`), overlapping the stage that ran it. The other keys are
the page's stages (engine/recipe.PAGE_STAGES)."""
CHAIN = "."
"""Joins the steps of a chain: `script_reading.rec` is the PP-OCR recogniser run by the
script reader."""


@dataclass
class _Open:
    name: str
    chain: str
    started: float
    inner: float = 0.0
    """Seconds of the steps run inside this one, counted under their own chains."""


class StepClock:
    """Per-chain seconds of named steps, shared by the threads of a process like the
    InferenceClock (engine/runtime/sessions.py). A step run inside another is counted under
    both names joined (`script_reading.rec`) and taken out of the outer step's own seconds, so
    the chains add up to the time spent in any step; a step run inside one of the same name is
    part of it. Each thread keeps its own open steps."""

    def __init__(self, now: Callable[[], float] = time.perf_counter) -> None:
        self._now = now
        self._lock = threading.Lock()
        self._seconds: dict[str, float] = defaultdict(float)
        self._local = threading.local()

    @contextmanager
    def step(self, name: str) -> Iterator[None]:
        """Times the block as the step `name` (no CHAIN in it)."""
        if CHAIN in name:
            raise ValueError(f"a step's name holds no {CHAIN!r}: {name!r}")
        stack: list[_Open] = self._local.__dict__.setdefault("open", [])
        if any(step.name == name for step in stack):
            yield
            return
        chain = f"{stack[-1].chain}{CHAIN}{name}" if stack else name
        step = _Open(name, chain, self._now())
        stack.append(step)
        try:
            yield
        finally:
            stack.pop()
            spent = self._now() - step.started
            if stack:
                stack[-1].inner += spent
            with self._lock:
                self._seconds[chain] += spent - step.inner

    def snapshot(self) -> dict[str, float]:
        """Seconds per chain so far, in this process."""
        with self._lock:
            return dict(self._seconds)


def advance(before: dict[str, float], after: dict[str, float]) -> dict[str, float]:
    """What a clock's snapshot gained between two snapshots, the keys that gained only."""
    return {key: seconds - before.get(key, 0.0) for key, seconds in after.items()
            if seconds - before.get(key, 0.0) > 0}


def chain_end(chain: str) -> str:
    """The step a chain's seconds were spent in itself (`rec` for `script_reading.rec`)."""
    return chain.rpartition(CHAIN)[2]


def timed_step(name: str) -> Callable[[Callable[..., T]], Callable[..., T]]:
    """A method timed as the step `name` on its object's `steps` clock (a StepClock)."""
    def wrap(method: Callable[..., T]) -> Callable[..., T]:
        @functools.wraps(method)
        def timed(self, *args, **kwargs) -> T:
            with self.steps.step(name):
                return method(self, *args, **kwargs)
        return timed
    return wrap
