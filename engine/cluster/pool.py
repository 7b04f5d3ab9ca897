"""The page workers on a Ray cluster: connecting, starting one worker per `cpus_per_worker`
CPUs of the cluster (spread over its nodes), sending a task to an idle worker, and telling
apart what came back from a worker that was lost.

Each worker runs one task at a time, so a lost worker loses exactly the task it was running.
Ray restarts a worker whose process died (`max_restarts`; its models are loaded again before
it gets more work); the lost task is not retried by Ray on that same worker but handed back to
the driver (`max_task_retries=0`), which sends it to whichever worker is free first, so the
pages of a machine that is gone are read elsewhere instead of waiting for it."""

from __future__ import annotations

import itertools
import socket
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from engine.cluster.ledger import Task
from engine.cluster.worker import DocumentBytes, PageWorker, WorkerInfo, paperlens_version
from engine.errors import ClusterUnavailable
from engine.hosting import RemoteError
from engine.options import ConvertOptions
from engine.page import PageOutcome

MAX_RESTARTS = 8
"""Restarts of one worker process; a worker that keeps dying is given up on after that."""
RETRY_PAUSE_S = 1.0
"""Wait before asking a restarting worker again whether it is back."""
CONTROL = "control"
"""The concurrency group of `cancel`, `stage` and `info`, which answer while a page is read."""


def import_ray():
    try:
        import ray
    except ImportError:
        raise ClusterUnavailable("Ray is not installed; install Paperlens with the cluster "
                                 "extra: pip install 'paperlens[cluster]'.") from None
    return ray


def describe_loss(exc: BaseException, ray) -> str:
    """One short line for why a worker call did not come back: for a worker that stopped,
    Ray's long explanation says no more than its kind; other errors keep their first line."""
    if isinstance(exc, ray.exceptions.RayActorError):
        return f"its process or node stopped: {type(exc).__name__}"
    cause = getattr(exc, "cause", None) or exc
    text = str(cause).strip().splitlines()
    first = text[0][:160] if text else ""
    return f"{type(cause).__name__}: {first}" if first else type(cause).__name__


def check_reachable(address: str | None, timeout_s: float = 5.0) -> None:
    """Ray waits minutes for a head that is not there; a host:port that refuses a connection
    is said at once."""
    if not address or address == "auto":
        return
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not port.isdigit():
        raise ClusterUnavailable(f"{address} is not a Ray address; give host:port of the head "
                                 "node, e.g. 10.0.0.5:6379.")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout_s).close()
    except OSError as exc:
        raise ClusterUnavailable(f"Nothing answers at {address} ({exc.strerror or exc}); is "
                                 "`ray start --head` running there, and is the port open?") \
            from None


@dataclass(frozen=True)
class Finished:
    """What became of one task: its pages, an error about its whole document, or the reason
    its worker was lost."""

    task: Task
    outcomes: list[PageOutcome] | None = None
    failure: RemoteError | None = None
    lost: str | None = None


@dataclass
class _Slot:
    handle: Any
    state: str = "warming"
    """warming (loading models, or back after a restart), idle, busy, gone."""
    ref: Any = None
    task: Task | None = None
    call: int = 0
    info: WorkerInfo | None = None
    retry_at: float = 0.0
    warming_since: float = field(default_factory=time.monotonic)
    stage_ask: tuple[Any, int] | None = None
    """An unanswered `stage` question and the call it asked about: a worker busy reading may
    answer after the asker stopped waiting, and its answer is taken the next time."""


class WorkerPool:
    def __init__(self, address: str | None, settings, layout_model: str | None,
                 cpus_per_worker: int = 1, workers: int | None = None,
                 start_timeout_s: float = 600.0, make_engine: Any = None) -> None:
        """`make_engine(settings, threads=...)`: what each worker reads with (an Engine when
        None; a picklable callable)."""
        self.ray = import_ray()
        self._owns_ray = not self.ray.is_initialized()
        if self._owns_ray:
            check_reachable(address)
            try:
                self.ray.init(address=address, logging_level="ERROR", log_to_driver=False)
            except (ConnectionError, RuntimeError, ValueError) as exc:
                where = f"at {address}" if address else "on this machine"
                raise ClusterUnavailable(f"Cannot use the Ray cluster {where}: "
                                         f"{describe_loss(exc, self.ray)}") from None
        self.layout_model = layout_model
        self.problems: list[str] = []
        self.pages_by_node: Counter[str] = Counter()
        """Pages sent to the workers of each node (retries included)."""
        self._calls = itertools.count(1)
        cpus = int(self.ray.cluster_resources().get("CPU", 0))
        count = workers or cpus // cpus_per_worker
        if count < 1:
            self.close()
            raise ClusterUnavailable(f"The Ray cluster offers {cpus} CPU(s); a page worker "
                                     f"needs {cpus_per_worker}.")
        remote = self.ray.remote(num_cpus=cpus_per_worker, max_restarts=MAX_RESTARTS,
                                 max_task_retries=0, concurrency_groups={CONTROL: 1},
                                 scheduling_strategy="SPREAD")(PageWorker)
        made_by = () if make_engine is None else (make_engine,)
        self._slots = [_Slot(remote.remote(settings, cpus_per_worker, *made_by))
                       for _ in range(count)]
        for slot in self._slots:
            slot.ref = slot.handle.warm_up.remote(layout_model)
        self._wait_for_warm_up(start_timeout_s)

    @property
    def workers(self) -> list[WorkerInfo]:
        """The workers that are ready now."""
        return [s.info for s in self._slots if s.state in ("idle", "busy") and s.info]

    @property
    def size(self) -> int:
        return sum(1 for s in self._slots if s.state != "gone")

    def idle(self) -> list[_Slot]:
        return [s for s in self._slots if s.state == "idle"]

    def all_gone(self) -> bool:
        return all(s.state == "gone" for s in self._slots)

    def put(self, data: bytes):
        return self.ray.put(data)

    def send(self, slot: _Slot, task: Task, document: DocumentBytes, options: ConvertOptions,
             stem: str) -> None:
        slot.call = next(self._calls)
        slot.task = task
        slot.state = "busy"
        self.pages_by_node[slot.info.node] += len(task.pages)
        slot.ref = slot.handle.read.remote(slot.call, document, list(task.pages), options, stem)

    def cancel_running(self) -> None:
        """Ask every busy worker to stop its task before the task's next page stage."""
        for slot in self._slots:
            if slot.state == "busy":
                slot.handle.cancel.options(concurrency_group=CONTROL).remote(slot.call)

    def cancel(self, task: Task) -> bool:
        """Ask the worker running `task` to stop it before its next page stage; False when no
        worker is running it (any more)."""
        for slot in self._slots:
            if slot.state == "busy" and slot.task is task:
                slot.handle.cancel.options(concurrency_group=CONTROL).remote(slot.call)
                return True
        return False

    def stages(self, timeout_s: float) -> dict[Task, str]:
        """The last page stage each running task finished (`<page number>:<stage>`), from the
        workers that answer within `timeout_s`, or that answered an earlier question since."""
        for slot in self._slots:
            if slot.state == "busy" and (slot.stage_ask is None or slot.stage_ask[1] != slot.call):
                ref = slot.handle.stage.options(concurrency_group=CONTROL).remote(slot.call)
                slot.stage_ask = (ref, slot.call)
        asked = {slot.stage_ask[0]: slot for slot in self._slots if slot.stage_ask is not None}
        if not asked:
            return {}
        ready, _ = self.ray.wait(list(asked), num_returns=len(asked), timeout=timeout_s)
        found = {}
        for ref in ready:
            slot = asked[ref]
            call = slot.stage_ask[1]
            slot.stage_ask = None
            try:
                stage = self.ray.get(ref)
            except self.ray.exceptions.RayError:  # its worker was lost: wait() will say so
                continue
            if stage is not None and slot.state == "busy" and slot.call == call:
                found[slot.task] = stage
        return found

    def wait(self, timeout_s: float) -> list[Finished]:
        """What finished within `timeout_s` (at least one thing, unless time ran out)."""
        now = time.monotonic()
        for slot in self._slots:
            if slot.state == "warming" and slot.ref is None and now >= slot.retry_at:
                slot.ref = slot.handle.warm_up.remote(self.layout_model)
        refs = [s.ref for s in self._slots if s.ref is not None]
        if not refs:
            time.sleep(min(timeout_s, RETRY_PAUSE_S))
            return []
        ready, rest = self.ray.wait(refs, num_returns=1, timeout=timeout_s)
        if ready and rest:
            more, _ = self.ray.wait(rest, num_returns=len(rest), timeout=0)
            ready += more
        by_ref = {s.ref: s for s in self._slots if s.ref is not None}
        finished = []
        for ref in ready:
            outcome = self._settle(by_ref[ref], ref)
            if outcome is not None:
                finished.append(outcome)
        return finished

    def warming_for_s(self) -> float:
        """How long the longest-waiting worker has been coming back (0 when none is)."""
        now = time.monotonic()
        return max((now - s.warming_since for s in self._slots if s.state == "warming"),
                   default=0.0)

    def close(self, timeout_s: float = 10.0) -> None:
        """Stop the workers: each removes its copies of the documents first (briefly waited
        for; one that is stuck or gone leaves them to the next worker on its machine)."""
        live = [s for s in getattr(self, "_slots", []) if s.state != "gone"]
        closing = [s.handle.close.options(concurrency_group=CONTROL).remote() for s in live]
        if closing:
            self.ray.wait(closing, num_returns=len(closing), timeout=timeout_s)
        for slot in live:
            try:
                self.ray.kill(slot.handle, no_restart=True)
            except Exception:  # already gone with its node: nothing left to stop
                pass
        self._slots = []
        if self._owns_ray and self.ray.is_initialized():
            self.ray.shutdown()

    def _settle(self, slot: _Slot, ref) -> Finished | None:
        slot.ref = None
        try:
            value = self.ray.get(ref)
        except self.ray.exceptions.RayError as exc:
            return self._lost(slot, exc)
        if slot.state == "warming":
            if isinstance(value, RemoteError):
                self._give_up(slot, value.message)
            elif value.version != paperlens_version():
                self._give_up(slot, f"the worker on {value.host} runs Paperlens {value.version}, "
                                    f"this computer {paperlens_version()}")
            else:
                slot.info, slot.state = value, "idle"
            return None
        task, slot.task, slot.state = slot.task, None, "idle"
        if isinstance(value, RemoteError):
            return Finished(task, failure=value)
        return Finished(task, outcomes=value)

    def _lost(self, slot: _Slot, exc: BaseException) -> Finished | None:
        """A call did not come back. A worker that dies while coming back (its restarts used
        up, its node gone) is given up on; one lost while reading is asked again until it is
        back, while its task goes to another worker."""
        task, slot.task = slot.task, None
        if slot.state == "warming" and isinstance(exc, self.ray.exceptions.ActorDiedError):
            self._give_up(slot, describe_loss(exc, self.ray))
        elif slot.state != "warming":
            slot.state, slot.warming_since = "warming", time.monotonic()
        slot.retry_at = time.monotonic() + RETRY_PAUSE_S
        if task is None:
            return None
        where = f"process {slot.info.pid} on {slot.info.host}, " if slot.info else ""
        return Finished(task, lost=f"{where}{describe_loss(exc, self.ray)}")

    def _give_up(self, slot: _Slot, reason: str) -> None:
        slot.state = "gone"
        self.problems.append(reason)
        try:
            self.ray.kill(slot.handle, no_restart=True)
        except Exception:  # its node is gone already
            pass

    def _wait_for_warm_up(self, timeout_s: float) -> None:
        deadline = time.monotonic() + timeout_s
        while any(s.state == "warming" for s in self._slots) and time.monotonic() < deadline:
            self.wait(min(1.0, max(0.0, deadline - time.monotonic())))
        for slot in self._slots:
            if slot.state == "warming":  # no room for it on the cluster (yet)
                self._give_up(slot, "a worker could not be started in time")
        if not self.workers:
            reasons = "; ".join(dict.fromkeys(self.problems)) or "no worker started"
            self.close()
            raise ClusterUnavailable(f"No page worker could be started on the Ray cluster: "
                                     f"{reasons}.")
