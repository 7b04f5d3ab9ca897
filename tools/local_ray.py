"""A real Ray cluster of several nodes on this one machine, for the cluster tests and benchmark.

Each node is its own `ray start` (the head, then nodes joining its address), as on separate
machines, with its own CPUs, ports and processes; all share one short temporary folder (Ray's
socket paths must stay short), never Ray's default /tmp/ray. Every node runs `ray start
--block` in a session of its own, so stopping a node ends exactly the processes it started (by
their ids, never `ray stop`, which would end every Ray process on the machine).

    with LocalRayCluster(nodes=2, cpus_per_node=1) as cluster:
        print(cluster.address)
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

START_TIMEOUT_S = 90.0
WORKER_PORTS = 24
"""Ports per node for worker processes (one each); a node starts a few at most."""


def free_ports(count: int, taken: frozenset[int] = frozenset()) -> list[int]:
    """Ports free on the loopback now and not in `taken` (held together, so they are
    distinct)."""
    sockets = []
    try:
        while len(sockets) < count + len(taken):
            s = socket.socket()
            s.bind(("127.0.0.1", 0))
            sockets.append(s)
            chosen = [p for p in (h.getsockname()[1] for h in sockets) if p not in taken]
            if len(chosen) == count:
                return chosen
        raise RuntimeError(f"no {count} free ports on the loopback")
    finally:
        for s in sockets:
            s.close()


def free_port_range(width: int, taken: frozenset[int] = frozenset()) -> int:
    """The first port of `width` consecutive ports that are free now and not in `taken`."""
    for _ in range(200):
        start = free_ports(1)[0]
        if start + width > 65535 or taken.intersection(range(start, start + width)):
            continue
        try:
            holders = []
            for port in range(start, start + width):
                s = socket.socket()
                holders.append(s)
                s.bind(("127.0.0.1", port))
            return start
        except OSError:
            continue
        finally:
            for s in holders:
                s.close()
    raise RuntimeError(f"no {width} consecutive free ports on the loopback")


def _children(pid: int) -> list[int]:
    """Every process below `pid` (from /proc), deepest last."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents.setdefault(int(fields[1]), []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        for child in parents.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


@dataclass
class RayNode:
    """One `ray start --block` and what it started."""

    process: subprocess.Popen
    log: Path
    head: bool

    def pids(self) -> list[int]:
        return [self.process.pid] + _children(self.process.pid)

    def stop(self, sig: int = signal.SIGTERM, wait_s: float = 3.0) -> None:
        """End this node's processes (the ones it started, by id): `sig`, then SIGKILL for
        those still there after `wait_s` (Ray's own orderly stop takes half a minute)."""
        pids = self.pids()
        for pid in reversed(pids):
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                pass
        deadline = time.monotonic() + wait_s
        while time.monotonic() < deadline and any(_alive(pid) for pid in pids):
            time.sleep(0.2)
        for pid in pids:
            if _alive(pid):
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@dataclass
class LocalRayCluster:
    nodes: int = 2
    cpus_per_node: int = 1
    object_store_bytes: int = 300 * 1024 * 1024
    ray: Path = field(default_factory=lambda: Path(sys.executable).with_name("ray"))
    started: list[RayNode] = field(default_factory=list)
    address: str = ""
    folder: Path | None = None
    ports: set[int] = field(default_factory=set)
    """Every port handed to a node so far: Ray refuses to start a node whose ports clash with
    ones it already knows (a port closed here is free again to the next choice)."""

    def __enter__(self) -> "LocalRayCluster":
        try:
            self.start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="plray-", dir="/tmp"))
        gcs_port, dashboard_port = free_ports(2, frozenset(self.ports))
        self.ports.update((gcs_port, dashboard_port))
        self.address = f"127.0.0.1:{gcs_port}"
        self.started.append(self._start_node(
            ["--head", f"--port={gcs_port}", f"--dashboard-port={dashboard_port}",
             "--include-dashboard=false",
             f"--temp-dir={self.folder / 'ray'}"], "head"))
        self._wait_for_nodes(1)
        for number in range(1, self.nodes):
            self.add_node(f"node{number}")

    def add_node(self, name: str) -> RayNode:
        node = self._start_node([f"--address={self.address}"], name)
        self.started.append(node)
        self._wait_for_nodes(len(self.started))
        return node

    def _start_node(self, role: list[str], name: str) -> RayNode:
        ports = free_ports(6, frozenset(self.ports))
        self.ports.update(ports)
        workers = free_port_range(WORKER_PORTS, frozenset(self.ports))
        self.ports.update(range(workers, workers + WORKER_PORTS))
        command = [str(self.ray), "start", "--block", *role, "--node-ip-address=127.0.0.1",
                   f"--num-cpus={self.cpus_per_node}", "--num-gpus=0",
                   f"--object-store-memory={self.object_store_bytes}",
                   f"--node-manager-port={ports[0]}", f"--object-manager-port={ports[1]}",
                   f"--runtime-env-agent-port={ports[2]}",
                   f"--dashboard-agent-listen-port={ports[3]}",
                   f"--dashboard-agent-grpc-port={ports[4]}",
                   f"--metrics-export-port={ports[5]}",
                   f"--min-worker-port={workers}", f"--max-worker-port={workers + WORKER_PORTS - 1}",
                   "--disable-usage-stats", "--log-style=record", "--log-color=false"]
        log = self.folder / f"{name}.log"
        env = dict(os.environ, RAY_USAGE_STATS_ENABLED="0")
        with open(log, "wb") as out:
            process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env,
                                       start_new_session=True)
        return RayNode(process, log, head=not self.started)

    def _wait_for_nodes(self, count: int) -> None:
        """Until the cluster lists `count` live nodes (asked in a separate interpreter, so this
        process stays free to connect to the cluster as a driver later)."""
        probe = ("import ray, sys; ray.init(address=sys.argv[1], logging_level='ERROR', "
                 "log_to_driver=False); print(sum(1 for n in ray.nodes() if n['Alive']))")
        deadline = time.monotonic() + START_TIMEOUT_S
        host, port = self.address.rsplit(":", 1)
        while time.monotonic() < deadline:
            for node in self.started:
                if node.process.poll() is not None:
                    raise RuntimeError(f"a Ray node exited at start; see {node.log}:\n"
                                       f"{node.log.read_text(errors='replace')[-2000:]}")
            try:  # a driver started before the head listens waits a long time for it
                socket.create_connection((host, int(port)), timeout=1.0).close()
            except OSError:
                time.sleep(0.5)
                continue
            done = subprocess.run([sys.executable, "-c", probe, self.address],
                                  capture_output=True, text=True, timeout=START_TIMEOUT_S)
            if done.returncode == 0 and done.stdout.strip().isdigit() \
                    and int(done.stdout.strip()) >= count:
                return
            time.sleep(1.0)
        raise RuntimeError(f"the local Ray cluster did not reach {count} node(s) in "
                           f"{START_TIMEOUT_S:.0f} s; logs in {self.folder}")

    def stop(self) -> None:
        for node in reversed(self.started):
            node.stop()
        self.started.clear()
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)
            self.folder = None
