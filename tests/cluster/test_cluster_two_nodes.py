"""A scanned archive converted on a real two-node Ray cluster: the same files as one process
writes, pages read on both nodes, and the document complete after a worker is killed."""

from __future__ import annotations

import os
import signal

import pytest

from cluster_helpers import ARCHIVE_PAGES, cli, files_of

pytestmark = [pytest.mark.cluster, pytest.mark.model, pytest.mark.slow]


def test_cli_on_two_nodes_writes_what_one_process_writes(two_nodes, archive, cli_env,
                                                         single_process_output, tmp_path):
    out = tmp_path / "out"
    done = cli("convert", "--ray", two_nodes.address, str(archive), "-o", str(out), env=cli_env)
    assert done.returncode == 0, done.stderr
    assert "cluster: 2 page worker(s)" in done.stderr
    # Progress as in the CLI: one line per page, in page order.
    lines = [line for line in done.stderr.splitlines() if ": page " in line]
    assert lines == [f"{archive.name}: page {n}/{ARCHIVE_PAGES} (ocr)"
                     for n in range(1, ARCHIVE_PAGES + 1)]
    written = files_of(out)
    assert sorted(written) == sorted(single_process_output)
    assert any(name.startswith("images/") for name in written)  # the figures' crops too
    for name, data in single_process_output.items():
        assert written[name] == data, f"{name} differs from the single-process output"


def test_document_completes_when_a_busy_worker_is_killed(two_nodes, archive, cluster_settings,
                                                         single_process_output, tmp_path):
    from engine import events
    from engine.cluster.driver import Cluster
    from engine.options import options_from_settings
    from engine.types import DocumentResult, Status

    out = tmp_path / "out"
    seen: list[events.Event] = []
    killed: list[int] = []
    with Cluster(two_nodes.address, cluster_settings) as cluster:
        assert len({worker.node for worker in cluster.workers}) == 2

        def on_event(event: events.Event) -> None:
            seen.append(event)
            if isinstance(event, events.PageDone) and not killed:
                # A worker in the middle of a page: its process dies as in a crash.
                busy = [s.info.pid for s in cluster.pool._slots if s.state == "busy"]
                assert busy, "no worker was reading when the first page was done"
                os.kill(busy[0], signal.SIGKILL)
                killed.append(busy[0])

        options = options_from_settings(cluster_settings, output_dir=str(out))
        [(path, result)] = list(cluster.convert([(archive, options)], on_event))
        nodes_used = dict(cluster.pool.pages_by_node)
        workers_after = cluster.workers
    assert path == archive
    assert isinstance(result, DocumentResult), result
    assert result.status is Status.OK
    assert [p.page_number for p in result.pages] == list(range(1, ARCHIVE_PAGES + 1))
    lost = [e for e in seen if isinstance(e, events.Warning) and "was lost" in e.message]
    assert lost and all("read again" in e.message for e in lost)
    assert len(nodes_used) == 2  # the archive was split across both nodes
    assert sum(nodes_used.values()) == ARCHIVE_PAGES + len(lost)
    assert killed[0] not in {w.pid for w in workers_after}
    assert files_of(out) == single_process_output


def test_a_cancelled_conversion_writes_nothing_and_the_workers_go_on(two_nodes, archive,
                                                                     cluster_settings, tmp_path):
    import threading

    from engine import events
    from engine.cluster.driver import Cluster
    from engine.errors import Cancelled
    from engine.options import options_from_settings
    from engine.types import DocumentResult

    cancel = threading.Event()

    def on_event(event: events.Event) -> None:
        if isinstance(event, events.PageDone):
            cancel.set()

    with Cluster(two_nodes.address, cluster_settings) as cluster:
        pids = {worker.pid for worker in cluster.workers}
        options = options_from_settings(cluster_settings, output_dir=str(tmp_path / "first"))
        [(_, outcome)] = list(cluster.convert([(archive, options)], on_event, cancel))
        assert isinstance(outcome, Cancelled)
        assert not (tmp_path / "first").exists() or not any((tmp_path / "first").iterdir())
        # The same workers (models loaded once) convert the next document.
        again = options_from_settings(cluster_settings, output_dir=str(tmp_path / "second"),
                                      pages=(1,))
        [(_, result)] = list(cluster.convert([(archive, again)]))
        assert isinstance(result, DocumentResult) and len(result.pages) == 1
        assert {worker.pid for worker in cluster.workers} == pids
