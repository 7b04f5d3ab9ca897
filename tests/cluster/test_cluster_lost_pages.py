"""The driver's side of lost workers, with pages read for real in this process by a pool whose
worker is lost on chosen pages: a page lost once is read again and the output is the one a
single process writes; a page lost twice is a failed page of a written, partial document.
The cluster's Converter (ClusterConverter.read_page) keeps the same rule for a single page."""

from __future__ import annotations

import tempfile
import threading
from dataclasses import replace
from pathlib import Path

import pytest

from cluster_helpers import files_of
from engine.cluster.driver import Cluster
from engine.cluster.ledger import Task
from engine.cluster.pool import Finished
from engine.cluster.worker import DocumentBytes, WorkerInfo
from engine.input.document import open_document
from engine.options import ConvertOptions
from engine.recipe import read_pages
from engine.types import DocumentResult, Status

pytestmark = [pytest.mark.model, pytest.mark.slow]


class LosingPool:
    """One worker reading in this process; its call is lost while it holds a page of
    `lose` (each page as many times as listed)."""

    def __init__(self, engine, lose: list[int]) -> None:
        self.engine = engine
        self.lose = list(lose)
        self.problems: list[str] = []
        self.pending: tuple[Task, DocumentBytes, ConvertOptions, str] | None = None
        self.sent: list[Task] = []
        self.workers = [WorkerInfo("here", 1, "node-1", "test", 1)]
        self.size = 1
        self._folder = Path(tempfile.mkdtemp(prefix="losing-pool-"))
        self._data: dict[int, bytes] = {}

    def idle(self):
        return [] if self.pending else [self]

    def put(self, data: bytes) -> int:
        self._data[len(self._data)] = data
        return len(self._data) - 1

    def send(self, slot, task, document, options, stem) -> None:
        self.sent.append(task)
        self.pending = (task, document, options, stem)

    def wait(self, timeout_s: float) -> list[Finished]:
        task, document, options, stem = self.pending
        self.pending = None
        for number in task.pages:
            if number in self.lose:
                self.lose.remove(number)
                return [Finished(task, lost=f"process 1 on here, page {number} crashed it")]
        path = self._folder / document.name
        path.write_bytes(self._data[document.data[0]])
        with open_document(path, options.password) as opened:
            outcomes = list(read_pages(opened, list(task.pages), options, stem,
                                       self.engine.models, lambda: None))
        return [Finished(task, outcomes=outcomes)]

    def all_gone(self) -> bool:
        return False

    def warming_for_s(self) -> float:
        return 0.0

    def cancel_running(self) -> None:
        pass

    def cancel(self, task) -> bool:
        return False

    def stages(self, timeout_s: float) -> dict:
        return {}

    def close(self) -> None:
        pass


@pytest.fixture(scope="module")
def three_pages(tmp_path_factory, eval_dev_dir_module) -> Path:
    from tools.scanned_archive import build_scanned_pdf

    return build_scanned_pdf(tmp_path_factory.mktemp("archive") / "three.pdf", 3,
                             items_dir=eval_dev_dir_module / "items",
                             sources=("tesseract-phototest",))


@pytest.fixture(scope="module")
def eval_dev_dir_module():
    from tests.conftest import EVAL_DEV_DIR

    if not EVAL_DEV_DIR.is_dir():
        pytest.skip(f"evaluation documents not found at {EVAL_DEV_DIR}")
    return EVAL_DEV_DIR


def convert(engine, archive: Path, out: Path, lose: list[int], pages_per_task: int = 2):
    pool = LosingPool(engine, lose)
    options = ConvertOptions(output_dir=str(out))
    with Cluster(None, None, pool=pool, pages_per_task=pages_per_task) as cluster:
        [(_, result)] = list(cluster.convert([(archive, options)]))
    return result, pool


def test_a_page_lost_once_is_read_again_alone(engine, three_pages, tmp_path):
    single = tmp_path / "single"
    engine.convert(three_pages, ConvertOptions(output_dir=str(single)))
    result, pool = convert(engine, three_pages, tmp_path / "cluster", lose=[2])
    assert isinstance(result, DocumentResult) and result.status is Status.OK
    # (1, 2) lost, then 1 and 2 again on their own before the rest.
    assert [t.pages for t in pool.sent] == [(1, 2), (1,), (2,), (3,)]
    assert files_of(tmp_path / "cluster") == files_of(single)


def test_a_page_lost_twice_is_failed_and_the_document_written(engine, three_pages, tmp_path):
    out = tmp_path / "cluster"
    result, _ = convert(engine, three_pages, out, lose=[2, 2])
    assert isinstance(result, DocumentResult)
    assert result.status is Status.PARTIAL
    assert [p.status for p in result.pages] == [Status.OK, Status.FAILED, Status.OK]
    [error] = result.pages[1].errors
    assert error.kind == "WorkerLost" and "lost twice" in error.message
    written = (out / "three.json").read_text()
    assert "WorkerLost" in written and (out / "three.md").exists()


def test_a_single_page_read_by_the_clusters_converter_keeps_the_drivers_rule(engine,
                                                                              three_pages):
    from engine.cluster.converter import ClusterConverter
    from engine.hosting import LocalConverter

    pool = LosingPool(engine, lose=[2, 2, 2])
    host = ClusterConverter(None, None, pool=pool)
    options = ConvertOptions()
    stages: list[str] = []

    def read() -> object:
        return host.read_page(three_pages, 2, options, "three", stages.append,
                              threading.Event())

    failed = read()  # lost twice: a failed page, as in a document
    assert failed.result.status is Status.FAILED and failed.result.page_number == 2
    [error] = failed.result.errors
    assert error.kind == "WorkerLost" and "lost twice" in error.message
    read_again = read()  # lost once, then read by the next idle worker
    assert [t.pages for t in pool.sent] == [(2,), (2,), (2,), (2,)]
    here = LocalConverter(engine)
    try:
        local = here.read_page(three_pages, 2, options, "three", stages.append,
                               threading.Event())
    finally:
        here.close()
    assert replace(read_again.result, timings_s={}) == replace(local.result, timings_s={})
    assert read_again.result.blocks
