"""The page ledger (no Ray): ranges, retries of a lost worker's pages one by one at the front of
the queue, a page lost twice failed with a typed error, and documents dropped."""

from __future__ import annotations

import pytest

from engine.cli.cluster import split_ray_argument
from engine.cluster.ledger import PageLedger, Task
from engine.hosting import HostError, RemoteError, encode_error
from engine.errors import Cancelled, ModelUnavailable, WorkerLost
from engine.page import PageOutcome
from engine.types import PageResult, Status, TextSource


def read(number: int) -> PageOutcome:
    return PageOutcome(PageResult(page_number=number, width=10, height=10, dpi=200.0,
                                  text_source=TextSource.OCR, text_source_reason="no text layer"))


def test_pages_are_queued_as_ranges_in_order():
    ledger = PageLedger(pages_per_task=3)
    ledger.add(0, [1, 2, 3, 4, 5, 6, 7])
    ledger.add(1, [2, 9])
    tasks = [ledger.next_task() for _ in range(4)]
    assert [(t.document, t.pages) for t in tasks] == [(0, (1, 2, 3)), (0, (4, 5, 6)), (0, (7,)),
                                                      (1, (2, 9))]
    assert ledger.next_task() is None


def test_a_lost_range_is_read_again_page_by_page_before_anything_else():
    ledger = PageLedger(pages_per_task=2)
    ledger.add(0, [1, 2, 3, 4])
    first = ledger.next_task()
    assert ledger.lost(first, "process 7 on a, its process or node stopped") == []
    assert [(t.pages, t.attempt) for t in (ledger.next_task(), ledger.next_task())] == \
        [((1,), 2), ((2,), 2)]
    assert ledger.next_task() == Task(0, (3, 4))


def test_a_page_lost_twice_is_a_failed_page_and_its_neighbours_are_read():
    ledger = PageLedger(pages_per_task=2)
    ledger.add(0, [1, 2])
    ledger.lost(ledger.next_task(), "first")
    retry_1, retry_2 = ledger.next_task(), ledger.next_task()
    assert ledger.lost(retry_1, "process 9 on b, its process or node stopped") == [1]
    ledger.read(retry_2, [read(2)])
    failed, done = ledger.take(0, 1), ledger.take(0, 2)
    assert failed.result.status is Status.FAILED
    [error] = failed.result.errors
    assert (error.stage, error.kind) == ("cluster", WorkerLost.__name__)
    assert "lost twice" in error.message and "process 9 on b" in error.message
    assert done.result.status is Status.OK
    assert ledger.take(0, 2) is None  # handed over once


def test_results_of_a_dropped_document_are_ignored():
    ledger = PageLedger()
    ledger.add(0, [1, 2])
    ledger.add(1, [1])
    task = ledger.next_task()
    ledger.drop(0)
    ledger.read(task, [read(1)])
    assert ledger.lost(task, "gone") == []
    assert ledger.take(0, 1) is None
    assert ledger.next_task() == Task(1, (1,))


def test_giving_up_fails_every_queued_page():
    ledger = PageLedger()
    ledger.add(0, [1, 2])
    ledger.give_up("no worker is left on the cluster")
    for number in (1, 2):
        [error] = ledger.take(0, number).result.errors
        assert error.kind == WorkerLost.__name__
        assert "no worker is left" in error.message
    assert ledger.next_task() is None


def test_a_worker_returning_other_pages_is_refused():
    ledger = PageLedger(pages_per_task=2)
    ledger.add(0, [1, 2])
    with pytest.raises(ValueError, match="returned pages"):
        ledger.read(ledger.next_task(), [read(2), read(1)])


def test_errors_from_a_worker_are_raised_again_as_their_own_type():
    assert isinstance(encode_error(ModelUnavailable("no det model")).error(), ModelUnavailable)
    assert isinstance(RemoteError("Cancelled", "stop").error(), Cancelled)
    unknown = RemoteError("SomethingElse", "odd").error()
    assert type(unknown) is HostError and (unknown.kind, unknown.message) == ("SomethingElse",
                                                                              "odd")


@pytest.mark.parametrize("ray, inputs, expected", [
    ("10.0.0.5:6379", ["a.pdf"], ("10.0.0.5:6379", ["a.pdf"])),
    ("head.example:6379", ["a.pdf"], ("head.example:6379", ["a.pdf"])),
    ("auto", ["a.pdf"], ("auto", ["a.pdf"])),
    ("", ["a.pdf"], ("", ["a.pdf"])),
    ("a.pdf", ["b.pdf"], ("", ["a.pdf", "b.pdf"])),  # `--ray a.pdf b.pdf`: no address given
    ("scans/", [], ("", ["scans/"])),
])
def test_ray_address_or_first_input(ray, inputs, expected):
    assert split_ray_argument(ray, inputs) == expected
