"""The engine on a Ray cluster as a host like any other (engine.hosting.Converter): convert a
document, read one page of it, say the device, close.

    with ClusterConverter("10.0.0.5:6379", settings) as host:
        result = host.convert(path, options, on_event, cancel)
        outcome = host.read_page(path, 3, options, stem, on_stage, cancel)

It is ClusterPages (the page workers, models loaded once each) with the protocol's calls on
top: `convert` runs the driver's journey (driver.py: pages read on the workers, the document
assembled and written here) for one document, `read_page` sends one page to an idle worker
and waits for it. A lost worker costs a page what it costs in the driver: the page is sent
again, and after MAX_ATTEMPTS losses it is a failed page (WorkerLost). The protocol's calls
run one at a time; a caller that keeps several workers busy itself (the service) uses the
page calls of ClusterPages (send, wait, stages, cancel) instead, not both at once."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any, Callable

from engine import events
from engine.cluster.driver import NO_WORKER_LIMIT_S, Cluster
from engine.cluster.ledger import MAX_ATTEMPTS, lost_message, lost_page
from engine.cluster.pages import ClusterPages, PageDone
from engine.device.status import DeviceStatus
from engine.errors import ClusterUnavailable, PaperlensError
from engine.hosting import StageCallback, cancel_check, decode_error
from engine.options import ConvertOptions
from engine.page import PageOutcome
from engine.types import DocumentResult

WAIT_STEP_S = 0.25
"""How often a page being read is looked at (its cancel flag, whether it came back)."""
STAGE_POLL_S = 1.0
"""How often the worker reading a page is asked which stage it finished."""


class ClusterConverter(ClusterPages):
    """The page workers on the Ray cluster at `address` (see ClusterPages), offering
    engine.hosting.Converter."""

    def __init__(self, address: str | None, settings, **pages_options: Any) -> None:
        super().__init__(address, settings, **pages_options)
        self._one_call = threading.Lock()
        self._calls = 0

    def __enter__(self) -> "ClusterConverter":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def convert(self, path: Any, options: Any, on_event: Callable[[Any], None] | None = None,
                cancel: threading.Event | None = None) -> DocumentResult:
        """As Engine.convert, with the pages read on the cluster: the DocumentResult (written
        when `options` name an output folder), or the typed error that stopped it."""
        with self._one_call:
            driver = Cluster(None, None, pool=self.pool)
            [(_path, outcome)] = driver.convert([(Path(path), options)],
                                                on_event or events.ignore_event, cancel)
        if isinstance(outcome, PaperlensError):
            raise outcome
        return outcome

    def read_page(self, source: Path, number: int, options: ConvertOptions, stem: str,
                  on_stage: StageCallback, cancel: threading.Event) -> PageOutcome:
        """Page `number` of `source` read by an idle worker. `on_stage` hears the stages the
        worker says it finished when asked (each second: a quick one may go unheard); a
        document's typed error is raised here as itself (Cancelled once `cancel` is set)."""
        check = cancel_check(cancel)
        with self._one_call:
            self._calls += 1
            key = ("read_page", self._calls)
            losses: list[str] = []
            while len(losses) < MAX_ATTEMPTS:
                check()
                if not self._idle_worker(check):
                    problems = "; ".join(dict.fromkeys(self.problems[-3:])) or "none came back"
                    return lost_page(number, "No cluster worker was left to read this page "
                                             f"(no worker is left on the cluster: {problems}).")
                self.send(key, source, number, options, stem)
                done = self._follow(key, on_stage, cancel)
                if done.outcome is not None:
                    return done.outcome
                if done.failure is not None:
                    raise decode_error(done.failure)
                losses.append(done.lost or "lost")
            return lost_page(number, lost_message(len(losses), losses[-1]))

    def device_status(self) -> DeviceStatus:
        """The device decision of the first ready worker (each decides on its own node; the
        others are in `workers`). Answers from what the workers said when they were ready."""
        for worker in self.workers:
            if worker.device is not None:
                return DeviceStatus(**worker.device)
        raise ClusterUnavailable("No page worker on the Ray cluster is ready to say its "
                                 "device.")

    def _idle_worker(self, check: Callable[[], None]) -> bool:
        """Wait for an idle worker (the others are coming back); False when none is left."""
        waited = time.monotonic()
        while not self.idle_workers:
            check()
            if self.all_gone() or time.monotonic() - waited > NO_WORKER_LIMIT_S:
                return False
            self.wait(WAIT_STEP_S)  # asks restarting workers again; nothing else is running
        return True

    def _follow(self, key: Any, on_stage: StageCallback, cancel: threading.Event) -> PageDone:
        told = False
        heard: str | None = None
        next_poll = time.monotonic() + STAGE_POLL_S
        while True:
            if cancel.is_set() and not told:
                self.cancel(key)
                told = True
            for done in self.wait(WAIT_STEP_S):
                if done.key == key:
                    return done
            if time.monotonic() >= next_poll:
                next_poll = time.monotonic() + STAGE_POLL_S
                stage = self.stages(WAIT_STEP_S).get(key)
                if stage is not None and stage != heard:
                    heard = stage
                    on_stage(stage)
