"""Every typed error through Ray's hosts of the engine and back as the same type: a page worker
on the two-node cluster answering single pages (engine.cluster.pages, what the service on Ray
uses), the driver converting documents (engine.cluster.driver, `paperlens-cli --ray`), and the
cluster as a Converter (engine.cluster.converter: convert, read_page, device_status, close).
The worker's engine fails on purpose (tests/hosting_samples.py), so no model is loaded."""

from __future__ import annotations

import threading

import cv2
import numpy as np
import pytest

from engine.errors import PaperlensError
from tests.hosting_samples import (FailingEngine, error_kinds, make_error, protocol_gaps,
                                   same_error)

pytestmark = [pytest.mark.cluster]


def page_named(folder, kind: str):
    """A small page named for the error it stands for, its bytes its own (a worker knows a
    document by its digest)."""
    path = folder / f"{kind}.png"
    page = np.full((40, 400, 3), 255, dtype=np.uint8)
    cv2.putText(page, kind, (4, 28), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (0, 0, 0), 1)
    cv2.imwrite(str(path), page)
    return path


def test_every_typed_error_from_a_ray_page_worker_comes_back_as_itself(two_nodes,
                                                                       cluster_settings,
                                                                       tmp_path):
    from engine.cluster.converter import ClusterConverter
    from engine.cluster.driver import Cluster
    from engine.cluster.pages import ClusterPages
    from engine.cluster.pool import WorkerPool
    from engine.options import options_from_settings

    options = options_from_settings(cluster_settings, output_dir=str(tmp_path / "out"))
    pool = WorkerPool(two_nodes.address, cluster_settings, None, workers=1,
                      make_engine=FailingEngine)
    try:
        pages = ClusterPages(None, cluster_settings, pool=pool)
        for kind in error_kinds():
            pages.send(kind, page_named(tmp_path, kind), 1, options, kind)
            done = []
            while not done:
                done = pages.wait(1.0)
            [page] = done
            assert page.key == kind and page.failure is not None, page
            assert same_error(page.failure.error(), make_error(kind)), kind

        # The driver's own documents: a worker's Cancelled only ever answers the driver's own
        # cancel (tests/cluster/test_cluster_two_nodes.py), so it is left out here.
        kinds = [kind for kind in error_kinds() if kind != "Cancelled"]
        jobs = [(page_named(tmp_path, kind), options) for kind in kinds]
        outcomes = list(Cluster(None, cluster_settings, pool=pool).convert(jobs))
        assert [path.stem for path, _ in outcomes] == kinds
        for kind, (_path, outcome) in zip(kinds, outcomes):
            assert isinstance(outcome, PaperlensError), (kind, outcome)
            assert same_error(outcome, make_error(kind)), kind

        # The same workers as a Converter: every typed error raised by read_page and convert.
        host = ClusterConverter(None, cluster_settings, pool=pool)
        assert protocol_gaps(ClusterConverter) == []
        assert host.device_status().effective == "cpu"  # what FailingEngine's workers said
        for kind in error_kinds():
            with pytest.raises(PaperlensError) as raised:
                host.read_page(page_named(tmp_path, kind), 1, options, kind,
                               lambda _stage: None, threading.Event())
            assert same_error(raised.value, make_error(kind)), kind
        for kind in kinds:
            with pytest.raises(PaperlensError) as raised:
                host.convert(page_named(tmp_path, kind), options)
            assert same_error(raised.value, make_error(kind)), kind
        host.close()  # the pool's workers end with it
        assert pool.workers == []
    finally:
        pool.close()
