"""`paperlens-cli convert --ray [ADDRESS]`: the same conversion loop, its documents read by
page workers on a Ray cluster (engine/cluster) instead of this process.

`ClusterEngine` is the CLI's host of the engine on a cluster, a Converter like the local one
(engine.cluster.converter.ClusterConverter) whose `convert(path, options, on_event, cancel)`
takes the run's documents in input order, returning each one's result or raising its typed
error, while the cluster reads ahead. Progress events come in page order, so the CLI shows
them as it does for a local run. There is no password prompt: an encrypted document needs
--password-file or the environment variable (the workers must be given the password before
they start)."""

from __future__ import annotations

import re
import threading
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Iterator, TextIO

from engine import events
from engine.cluster.converter import ClusterConverter
from engine.cluster.driver import Cluster
from engine.output.run_names import output_names
from engine.errors import PaperlensError
from engine.options import ConvertOptions
from engine.types import DocumentResult

# host:port (an IPv6 host in brackets), with or without ray://, or Ray's own word "auto".
ADDRESS = re.compile(r"^(auto|(ray://)?(\[[0-9a-fA-F:.]+\]|[\w.-]+):\d{1,5})$")


def split_ray_argument(ray: str | None, inputs: list[str]) -> tuple[str | None, list[str]]:
    """`--ray` takes an optional ADDRESS, so `--ray doc.pdf` would read doc.pdf as one: a value
    that is not host:port (or auto) is the first input, and --ray had no address."""
    if ray is None or ray == "" or ADDRESS.match(ray):
        return ray, inputs
    return "", [ray] + inputs


def is_ray_address(text: str) -> bool:
    return bool(ADDRESS.match(text))


class ClusterEngine(ClusterConverter):
    """The page workers of the cluster at `address` (None or "": RAY_ADDRESS, or a Ray started
    here), with the run's documents queued so that the cluster reads ahead of `convert`."""

    def __init__(self, address: str, settings, paths: list[Path], options: ConvertOptions,
                 output_dir: Path, err: TextIO) -> None:
        super().__init__(address or None, settings)
        self.jobs = [(path, replace(options, output_name=name))
                     for path, name in zip(paths, output_names(paths, output_dir))]
        self._sink: events.EventCallback = events.ignore_event
        self._results: Iterator[tuple[Path, DocumentResult | PaperlensError]] | None = None
        self._done = 0
        hosts = Counter(worker.host for worker in self.workers)
        print(f"cluster: {len(self.workers)} page worker(s) on "
              + ", ".join(f"{host} ({count})" for host, count in sorted(hosts.items())),
              file=err, flush=True)

    def convert(self, path: Path, options: ConvertOptions,
                on_event: events.EventCallback = events.ignore_event,
                cancel: threading.Event | None = None) -> DocumentResult:
        """The next queued document's result (`path` and `options` must be its own), or its
        typed error; the documents after it are being read meanwhile."""
        self._sink = on_event or events.ignore_event
        if self._results is None:
            driver = Cluster(None, None, pool=self.pool)
            self._results = driver.convert(self.jobs, self._forward, cancel)
        _, outcome = next(self._results)
        if (path, options) != self.jobs[self._done]:
            raise RuntimeError(f"the CLI asked for {path} out of the order it queued")
        self._done += 1
        if isinstance(outcome, PaperlensError):
            raise outcome
        return outcome

    def _forward(self, event: events.Event) -> None:
        self._sink(event)
