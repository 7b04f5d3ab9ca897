"""The worker process of a server started with `--ray ADDRESS`: it reads no page itself.

Its host of the engine is the Ray cluster's (engine.api.ClusterConverter, chosen by
service.converter.open_converter: page workers with one Engine each, models loaded once per
worker), and it keeps each page worker busy with one page claimed from the job table. A page
that comes back is checkpointed as a local worker's is; a page whose cluster worker was lost
waits to be claimed again by another, and is a failed page (WorkerLost) after its second loss;
cancelling a job stops its pages at their next stage; documents are assembled here by the local
workers' own code (service.worker.assemble), so the outputs are the CLI's bytes.

    python -m service.cluster_worker --ray ADDRESS --data-dir DIR --slot 0 --epoch E --parent PID

Started by the server's supervisor in place of the local workers, and dies with its server as
they do; Ray then ends the page workers it started (they belong to this process)."""

from __future__ import annotations

import logging
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from engine.api import ClusterUnavailable, PaperlensError, device_facts
from service.checkpoint import save_crops
from service.converter import model_report, open_converter
from service.database import ACTIVE
from service.options import JobOptions, convert_options
from service.storage import DataFolder
from service.work_queue import PageWork, WorkQueue
from service.worker import (assemble, internal_failure, record_page, settle_failure,
                            start_worker, worker_parser)

if TYPE_CHECKING:
    from engine.api import ClusterConverter

log = logging.getLogger("paperlens.worker")
WAIT_S = 0.2
"""The longest wait for a page to come back before the table is looked at again."""
STAGE_POLL_S = 0.25
"""How often the workers are asked which stage their page is at (progress events): a page
read here takes about a second, and a busy worker may answer a round late."""
RECONNECT_S = 10.0
"""Pause before trying the cluster again when it cannot be used (jobs wait meanwhile)."""


@dataclass
class Running:
    work: PageWork
    started: float
    stage: str | None = None
    cancelled: bool = False


class ClusterWorker:
    """Claims pages for the idle cluster workers and settles what comes back."""

    def __init__(self, folder: DataFolder, queue: WorkQueue, pages: ClusterConverter,
                 slot: int, settings) -> None:
        from engine.api import MAX_ATTEMPTS

        self.folder = folder
        self.queue = queue
        self.pages = pages
        self.slot = slot
        self.settings = settings
        self.max_losses = MAX_ATTEMPTS
        self.running: dict[tuple[str, int, int], Running] = {}
        self._next_stage_poll = 0.0

    def step(self) -> None:
        """One round: settle what came back, stop the pages of cancelled jobs, show stages,
        assemble a document whose pages are all read, fill the idle workers."""
        for done in self.pages.wait(WAIT_S if self.running else 0.0):
            self._settle(done)
        self._watch_cancel()
        self._show_stages()
        work = self.queue.claim_assembly()
        if work is not None:
            assemble(self.folder, self.queue, self.settings, work)
        while self.pages.idle_workers:
            page = self.queue.claim_page()
            if page is None:
                break
            self._send(page)
        if not self.running and work is None:
            time.sleep(WAIT_S)

    def release_all(self) -> None:
        """The cluster is being given up: the pages sent to it wait again."""
        for running in self.running.values():
            self.queue.release_page(running.work)
        self.running.clear()

    def _send(self, work: PageWork) -> None:
        try:
            options = convert_options(JobOptions.from_json(work.options), self.settings,
                                      work.stem)
            source = self.folder.input_dir(work.job_id, work.doc) / work.name
            self.pages.send(_key(work), source, work.number, options, work.stem)
        except PaperlensError as exc:
            settle_failure(self.queue, work, exc)
            return
        except Exception as exc:  # the input cannot be read, or a fault in Paperlens
            internal_failure(self.queue, work, exc)
            return
        self.running[_key(work)] = Running(work, time.perf_counter())

    def _settle(self, done) -> None:
        running = self.running.pop(done.key, None)
        if running is None:
            return
        work = running.work
        if done.outcome is not None:
            try:
                names, written = save_crops(self.folder.pages_dir(work.job_id, work.doc),
                                            done.outcome.crops)
            except Exception as exc:  # the disk, or a fault in Paperlens
                internal_failure(self.queue, work, exc)
                return
            record_page(self.queue, self.slot, work, done.outcome.result, names, written,
                        time.perf_counter() - running.started)
        elif done.failure is not None:
            settle_failure(self.queue, work, done.failure.error())
        else:
            failed = self.queue.lose_page(work, done.lost or "lost", self.max_losses)
            log.warning("page %d of %s: its cluster worker was lost (%s); %s", work.number,
                        work.name, done.lost, "the page is failed" if failed
                        else "it will be read again")

    def _watch_cancel(self) -> None:
        """A cancelled (or removed) job's pages stop at their next stage."""
        jobs = {key[0] for key, r in self.running.items() if not r.cancelled}
        for job_id in jobs:
            if self.queue.job_state(job_id) in ACTIVE:
                continue
            for key, running in self.running.items():
                if key[0] == job_id and not running.cancelled:
                    self.pages.cancel(key)
                    running.cancelled = True

    def _show_stages(self) -> None:
        if not self.running or time.monotonic() < self._next_stage_poll:
            return
        self._next_stage_poll = time.monotonic() + STAGE_POLL_S
        for key, stage in self.pages.stages(timeout_s=WAIT_S).items():
            running = self.running.get(key)
            if running is not None and stage != running.stage:
                running.stage = stage
                self.queue.mark_stage(running.work, stage)


def _key(work: PageWork) -> tuple[str, int, int]:
    return (work.job_id, work.doc, work.idx)


def cluster_facts(address: str, pages: ClusterConverter) -> dict:
    """What /health shows of the cluster: where, and each page worker's place and device."""
    return {"address": address, "page_workers": [
        {"host": w.host, "pid": w.pid, "node": w.node,
         "device": (w.device or {}).get("effective")} for w in pages.workers]}


def connect(address: str, workers: int | None, settings, queue: WorkQueue, slot: int,
            pid: int) -> ClusterConverter:
    """Page workers on the cluster, models loaded; until then the worker row says `warming`,
    or `failed` with the reason while the cluster cannot be used (tried again and again)."""
    while True:
        started = time.perf_counter()
        queue.set_worker(slot, pid, "warming", started_at=time.time(), error=None)
        try:
            pages = open_converter(settings, address, workers)
        except ClusterUnavailable as exc:
            queue.set_worker(slot, pid, "failed", error=exc.message)
            log.error("%s (trying again in %.0f s)", exc.message, RECONNECT_S)
            time.sleep(RECONNECT_S)
            continue
        seconds = round(time.perf_counter() - started, 3)
        device = device_facts(pages.device_status().to_json())
        device["cluster"] = cluster_facts(address, pages)
        queue.set_worker(slot, pid, "ready", device=device,
                         models=_models(settings), ready_at=time.time(), warm_up_s=seconds)
        log.info("%d page worker(s) ready on the Ray cluster at %s in %.1f s",
                 len(pages.workers), address, seconds)
        return pages


def _models(settings) -> list[dict]:
    from engine.api import ModelStore, default_model_dir

    base = settings.model.base_dir
    store = ModelStore(Path(base) if base else default_model_dir(), settings.model.index_url)
    return model_report(store, str(settings.model.layout))


def main(argv: list[str] | None = None) -> int:
    parser = worker_parser("python -m service.cluster_worker")
    parser.add_argument("--ray", required=True, metavar="ADDRESS")
    parser.add_argument("--cluster-workers", type=int, help="page workers (default: one per "
                        "CPU of the cluster)")
    args = parser.parse_args(argv)
    folder, pid, queue = start_worker(args, "cluster worker")
    from settings import SettingsStore

    settings = SettingsStore().load()
    while True:
        pages = connect(args.ray, args.cluster_workers, settings, queue, args.slot, pid)
        worker = ClusterWorker(folder, queue, pages, args.slot, settings)
        while not pages.all_gone():
            worker.step()
        problems = "; ".join(dict.fromkeys(pages.problems[-3:])) or "none came back"
        log.error("no page worker is left on the cluster (%s); starting them again", problems)
        worker.release_all()
        pages.close()


if __name__ == "__main__":
    sys.exit(main())
