"""The server's worker processes: started at launch, started again when one dies (its page goes
back, or fails after a second death), stopped with the server. With a Ray cluster, one worker
process that sends the pages to the cluster (service/cluster_worker.py). Also the retention
sweep."""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import threading
import time

from service.config import ServiceConfig
from service.database import Database
from service.jobs import JobStore
from service.storage import DataFolder
from service.work_queue import WorkQueue, claim_token

log = logging.getLogger("paperlens.service")
WATCH_S = 0.5
STOP_GRACE_S = 5.0
# A worker that dies this soon after starting, this many times in a row, is not started again
# (a broken installation would otherwise be restarted forever).
QUICK_DEATH_S = 30.0
QUICK_DEATHS = 3


class Supervisor:
    def __init__(self, config: ServiceConfig, folder: DataFolder, epoch: int) -> None:
        self.config = config
        self.folder = folder
        self.epoch = epoch
        self.database = Database(folder.database)
        self._procs: dict[int, tuple[subprocess.Popen, float]] = {}
        self._quick_deaths: dict[int, int] = {}
        self._stop = threading.Event()
        # Workers are started from this one long-lived thread: on Linux a worker is told to die
        # when the thread that started it ends.
        self._thread = threading.Thread(target=self._run, daemon=True, name="supervisor")

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=STOP_GRACE_S + 5)

    def pids(self) -> list[int]:
        return [proc.pid for proc, _ in self._procs.values()]

    def _run(self) -> None:
        for slot in range(self.config.workers):
            self._spawn(slot)
        next_sweep = 0.0
        while not self._stop.wait(WATCH_S):
            for slot, (proc, started) in list(self._procs.items()):
                code = proc.poll()
                if code is not None:
                    self._buried(slot, proc, code, time.monotonic() - started)
            if time.monotonic() >= next_sweep:
                self._sweep()
                next_sweep = time.monotonic() + self.config.cleanup_interval_s
        self._terminate_all()
        self.database.close()

    def _spawn(self, slot: int) -> None:
        command = [sys.executable, "-m", "service.worker"]
        if self.config.ray_address:  # one process that sends the pages to the cluster
            command = [sys.executable, "-m", "service.cluster_worker", "--ray",
                       self.config.ray_address]
            if self.config.cluster_workers:
                command += ["--cluster-workers", str(self.config.cluster_workers)]
        command += ["--data-dir", str(self.folder.root), "--slot", str(slot), "--epoch",
                    str(self.epoch), "--parent", str(os.getpid())]
        proc = subprocess.Popen(command, stdin=subprocess.DEVNULL)
        self._procs[slot] = (proc, time.monotonic())
        log.info("worker %d started (pid %d)", slot, proc.pid)

    def _buried(self, slot: int, proc: subprocess.Popen, code: int, lived_s: float) -> None:
        description = f"signal {-code}" if code < 0 else f"exit code {code}"
        queue = WorkQueue(self.database, claim_token(self.epoch, slot, proc.pid))
        queue.settle_crash(description, self.config.max_crashes)
        del self._procs[slot]
        deaths = self._quick_deaths.get(slot, 0) + 1 if lived_s < QUICK_DEATH_S else 0
        self._quick_deaths[slot] = deaths
        if deaths >= QUICK_DEATHS:
            log.error("worker %d stopped %d times within %.0f s of starting (%s); not started "
                      "again", slot, deaths, QUICK_DEATH_S, description)
            queue.set_worker(slot, proc.pid, "failed", error=f"stopped {deaths} times right "
                             f"after starting ({description}); see the server's log")
            return
        log.warning("worker %d (pid %d) stopped (%s); starting another", slot, proc.pid,
                    description)
        self._spawn(slot)

    def _terminate_all(self) -> None:
        for proc, _ in self._procs.values():
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + STOP_GRACE_S
        for proc, _ in self._procs.values():
            try:
                proc.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()

    def _sweep(self) -> None:
        """Finished jobs past their retention are removed, rows first, then files."""
        store = JobStore(self.database)
        try:
            for job_id in store.expired(time.time() - self.config.retention_s):
                store.delete(job_id)
                self.folder.remove_job(job_id)
                log.info("job %s expired and was removed", job_id)
        except Exception:  # a sweep that fails (disk, lock) is tried again next time
            log.exception("retention sweep failed")
