"""A whole node lost in the middle of a conversion: the second node's raylet is killed with
SIGKILL (as when its machine goes away), its page worker with it; the pages it was reading are
read again on the node that is left, and the files are still the ones one process writes.

The cluster is this test's own (two `ray start` nodes of one CPU): the session's is not broken
for the tests after it."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from cluster_helpers import ARCHIVE_PAGES, files_of

pytestmark = [pytest.mark.cluster, pytest.mark.model, pytest.mark.slow]


def raylet_of(node) -> int:
    """The raylet among the processes a `ray start` node started."""
    for pid in node.pids():
        try:
            if Path(f"/proc/{pid}/comm").read_text().strip() == "raylet":
                return pid
        except OSError:
            continue
    raise AssertionError(f"no raylet among the processes of {node.log}")


def test_document_completes_when_a_node_is_lost(cluster_settings, archive, tmp_path,
                                                single_process_output):
    import ray

    from engine import events
    from engine.cluster.driver import Cluster
    from engine.options import options_from_settings
    from engine.types import DocumentResult, Status
    from tools.local_ray import LocalRayCluster

    out = tmp_path / "out"
    seen: list[events.Event] = []
    at_kill: dict[str, int] = {}
    with LocalRayCluster(nodes=2, cpus_per_node=1) as nodes:
        head, second = nodes.started
        with Cluster(nodes.address, cluster_settings) as cluster:
            workers = {w.pid: w.node for w in cluster.workers}
            [head_node] = {workers[pid] for pid in head.pids() if pid in workers}
            [lost_node] = {workers[pid] for pid in second.pids() if pid in workers}
            # The driver is attached to the head (Ray prefers it), so losing the second node
            # loses a page worker and never the driver.
            assert ray.get_runtime_context().get_node_id() == head_node

            def on_event(event: events.Event) -> None:
                seen.append(event)
                if at_kill or not isinstance(event, events.PageDone):
                    return
                busy = [s for s in cluster.pool._slots
                        if s.state == "busy" and s.info.node == lost_node]
                if busy:  # the second node is in the middle of a page: it goes away
                    at_kill.update(cluster.pool.pages_by_node)
                    os.kill(raylet_of(second), signal.SIGKILL)

            options = options_from_settings(cluster_settings, output_dir=str(out))
            [(_, result)] = list(cluster.convert([(archive, options)], on_event))
            sent = dict(cluster.pool.pages_by_node)
            left = {w.node for w in cluster.workers}
    assert at_kill, "the second node never held a page when one was done"
    assert isinstance(result, DocumentResult), result
    assert result.status is Status.OK
    assert [p.page_number for p in result.pages] == list(range(1, ARCHIVE_PAGES + 1))
    lost = [e for e in seen if isinstance(e, events.Warning) and "was lost" in e.message]
    assert lost and all("read again" in e.message for e in lost)
    # Nothing more went to the lost node; every page after the loss, the lost ones again
    # included, was read on the head.
    assert sent[lost_node] == at_kill[lost_node]
    assert sent[head_node] == ARCHIVE_PAGES + len(lost) - at_kill[lost_node]
    assert left == {head_node}
    assert files_of(out) == single_process_output
