"""The service's parts without a server: checkpoints that read back exactly, option checks,
the job table's claims and recovery, names and addresses."""

from __future__ import annotations

import json

import numpy as np
import pytest

from engine.content.crops import Crop
from engine.content.formulas import Formula
from engine.errors import InvalidOptions
from engine.content.tables import Table, TableCell
from engine.types import (Block, BlockKind, Box, DocumentResult, Line, PageError, PageResult,
                          Status, TextSource)
from service.checkpoint import (CheckpointError, decode_result, encode_result, failed_result,
                                load_crops, save_crops)
from service.database import Database
from service.jobs import JobStore, Limits, NewDocument, NewJob, NotCancellable, QueueFull, \
    QuotaExceeded
from service.options import convert_options, parse_options, unknown_fields
from service.security import check_exposure, ExposureError, is_loopback, token_matches
from service.storage import safe_name
from service.work_queue import AssemblyWork, PageWork, WorkQueue


def sample_result() -> PageResult:
    line = Line("Total 0.1 + 0.2", Box(10.123456789, 20.5, 300.000001, 40.25), 0.98765432101,
                11.5, bold=True)
    return PageResult(
        page_number=3, width=827, height=400, dpi=200.0, text_source=TextSource.OCR,
        text_source_reason="no text layer",
        blocks=(Block(BlockKind.TITLE, Box(0.1 + 0.2, 1, 2, 3), (line,), "Total", 0.5, level=1),
                Block(BlockKind.FORMULA, Box(1, 2, 3, 4), formula=Formula("x^2"),
                      crop=Crop("images/a-p3-formula2.png")),
                Block(BlockKind.TABLE, Box(1, 5, 3, 9), table=Table(
                    (TableCell(0, 0, "Crop", colspan=2, header=True), TableCell(1, 0, "a\nb"),
                     TableCell(1, 1, "7")), 2, 2, header_rows=1))),
        rotation=90, warnings=("rendered at 150 dpi",), timings_s={"ocr": 1.23456789},
        status=Status.PARTIAL, errors=(PageError("formula", "ModelUnavailable", "no model"),))


def test_a_checkpoint_reads_back_exactly():
    result = sample_result()
    again = decode_result(encode_result(result))
    assert again == result
    assert again.blocks[0].box.x0 == 0.1 + 0.2  # not rounded, unlike the JSON export
    assert type(again.width) is int and type(again.dpi) is float
    exported = [json.dumps(DocumentResult("a.pdf", "pdf", 3, (page,)).to_json())
                for page in (result, again)]
    assert exported[0] == exported[1]


def test_a_damaged_or_foreign_checkpoint_is_refused():
    data = json.loads(encode_result(sample_result()))
    data["colour"] = "blue"
    with pytest.raises(CheckpointError):
        decode_result(json.dumps(data))
    with pytest.raises(CheckpointError):
        decode_result('{"page_number": 1}')


def test_a_page_that_stopped_its_worker_is_a_failed_page():
    result = decode_result(encode_result(failed_result(4, "ocr", "WorkerStopped", "died")))
    assert result.status is Status.FAILED and result.errors[0].kind == "WorkerStopped"


def test_crops_keep_every_pixel(tmp_path):
    rgb = np.random.default_rng(1).integers(0, 256, (17, 23, 3), dtype=np.uint8)
    grey = np.random.default_rng(2).integers(0, 256, (9, 5), dtype=np.uint8)
    names, size = save_crops(tmp_path, (("images/a.png", rgb), ("images/b.png", grey)))
    assert names == ["images/a.png", "images/b.png"] and size > 0
    (a, got_rgb), (b, got_grey) = load_crops(tmp_path, names)
    assert np.array_equal(got_rgb, rgb) and np.array_equal(got_grey, grey)
    with pytest.raises(CheckpointError):
        save_crops(tmp_path, (("../outside.png", grey),))


def test_options_are_checked_and_resolved(settings):
    options = parse_options({"pages": "2-3", "formats": "json", "tables": "markdown",
                             "keep_furniture": "true"}, settings)
    assert options.formats == ("md", "json") and options.layout == str(settings.model.layout)
    engine_options = convert_options(options, settings, "memo", "/tmp/out")
    assert engine_options.pages == (2, 3) and engine_options.write_json
    assert not engine_options.write_content_list and engine_options.table_format == "markdown"
    assert engine_options.output_name == "memo" and engine_options.keep_furniture
    for fields, words in (({"method": "fast"}, "method: Unknown text method"),
                          ({"dpi": "7"}, "dpi: 7 is out of range"),
                          ({"pages": "0"}, "pages:"), ({"formats": ","}, "formats:"),
                          ({"pages": "5-2"}, "'5-2' runs backwards; write it as 2-5")):
        with pytest.raises(InvalidOptions, match=words):
            parse_options(fields, settings)
    assert unknown_fields(["files", "pages", "lang", "password"]) == ["lang", "password"]


def test_inline_math_is_on_unless_a_job_turns_it_off(settings):
    assert convert_options(parse_options({}, settings), settings, "memo").inline_math
    off = parse_options({"inline_math": "off"}, settings)
    assert not convert_options(off, settings, "memo").inline_math
    # a job stored before the option existed reads as on
    stored = {k: v for k, v in off.to_json().items() if k != "inline_math"}
    assert type(off).from_json(stored).inline_math


def test_tables_across_pages_are_joined_unless_a_job_keeps_them_apart(settings):
    from engine.options import TablesAcrossPages

    joined = parse_options({}, settings)
    assert convert_options(joined, settings, "memo").tables_across_pages is TablesAcrossPages.JOIN
    kept = parse_options({"tables_across_pages": "keep"}, settings)
    assert convert_options(kept, settings, "memo").tables_across_pages is TablesAcrossPages.KEEP
    with pytest.raises(InvalidOptions, match="tables_across_pages: Unknown choice 'split'"):
        parse_options({"tables_across_pages": "split"}, settings)
    # a job stored before the option existed joins them
    stored = {k: v for k, v in kept.to_json().items() if k != "tables_across_pages"}
    assert type(kept).from_json(stored).tables_across_pages == "join"


@pytest.mark.parametrize("raw, name", [("../../etc/passwd", "passwd"), ("C:\\x\\a.pdf", "a.pdf"),
                                       ("", "upload"), ("..", "upload"), ("a\x00b.pdf", "a_b.pdf"),
                                       ("x" * 300 + ".pdf", "x" * 116 + ".pdf")])
def test_uploaded_names_are_never_paths(raw, name):
    assert safe_name(raw) == name


def test_loopback_and_tokens():
    assert all(map(is_loopback, ["127.0.0.1", "::1", "[::1]", "localhost", "127.8.0.1"]))
    assert not any(map(is_loopback, ["0.0.0.0", "192.168.1.2", "example.com", ""]))
    check_exposure("127.0.0.1", None)
    check_exposure("0.0.0.0", "x" * 16)
    with pytest.raises(ExposureError):
        check_exposure("::", None)
    assert token_matches("s" * 20, "Bearer " + "s" * 20)
    assert not token_matches("s" * 20, "Bearer " + "s" * 19)
    assert not token_matches("s" * 20, "s" * 20) and not token_matches("s" * 20, None)


def new_job(job_id: str, pages: int, sync: bool = False, size: int = 10) -> NewJob:
    doc = NewDocument("a.pdf", "a", "pdf", pages, tuple(range(1, pages + 1)))
    return NewJob(job_id, {"formats": ["md"]}, (doc,), size, sync)


@pytest.fixture
def store(tmp_path):
    database = Database(tmp_path / "jobs.sqlite3")
    database.create()
    return JobStore(database)


LIMITS = Limits(queue_size=2, sync_queue_size=1, quota_bytes=100)


def test_claims_go_quick_requests_first_then_in_order(store):
    store.submit(new_job("a" * 32, 2), LIMITS)
    store.submit(new_job("b" * 32, 1, sync=True), LIMITS)
    queue = WorkQueue(store.db, "1.0.100")
    first = queue.claim()
    assert isinstance(first, PageWork) and first.job_id == "b" * 32
    assert queue.finish_page(first, "ok", [], encode_result(sample_result()), [], 0, 1.0)
    assert isinstance(queue.claim(), AssemblyWork)  # its only page is read: assemble it
    second = queue.claim()
    assert (second.job_id, second.number) == ("a" * 32, 1)
    assert store.state("a" * 32) == "running"


def test_a_lost_claim_records_nothing_and_recovery_gives_pages_back(store):
    store.submit(new_job("c" * 32, 2), LIMITS)
    old = WorkQueue(store.db, "1.0.100")
    work = old.claim()
    recovery = store.recover()  # the server restarted: the old run's claims are void
    assert recovery.epoch >= 1 and recovery.pages_released == 1
    assert not old.finish_page(work, "ok", [], encode_result(sample_result()), [], 0, 1.0)
    again = WorkQueue(store.db, "2.0.200").claim()
    assert (again.job_id, again.number) == ("c" * 32, 1)
    assert store.view("c" * 32)["documents"][0]["pages"][0]["attempts"] == 2


def test_a_page_that_stops_two_workers_fails_alone(store):
    store.submit(new_job("d" * 32, 2), LIMITS)
    for attempt in range(2):
        queue = WorkQueue(store.db, f"1.0.{attempt}")
        work = queue.claim()
        assert work.number == 1
        queue.settle_crash("signal 11", max_crashes=2)
    page = store.view("d" * 32)["documents"][0]["pages"][0]
    assert page["state"] == "done" and page["status"] == "failed"
    assert "signal 11" in page["errors"][0]["message"]
    assert WorkQueue(store.db, "1.0.9").claim().number == 2  # the document goes on


def test_a_page_whose_cluster_worker_is_lost_twice_fails_alone(store):
    """With --ray: a page lost once is claimed again first; lost twice, it is a failed page
    (WorkerLost) and the document goes on."""
    from service.checkpoint import decode_result

    store.submit(new_job("7" * 32, 2), LIMITS)
    queue = WorkQueue(store.db, "1.0.1")
    first = queue.claim_page()
    assert not queue.lose_page(first, "its node stopped", max_losses=2)
    again = queue.claim_page()
    assert (again.number, again.idx) == (1, 0)
    assert queue.lose_page(again, "its node stopped", max_losses=2)
    page = store.view("7" * 32)["documents"][0]["pages"][0]
    assert (page["state"], page["status"], page["attempts"]) == ("done", "failed", 2)
    [error] = page["errors"]
    assert error["kind"] == "WorkerLost" and "lost twice (its node stopped)" in error["message"]
    [(_number, stored, _crops)] = [row for row in queue.stored_pages(again) if row[0] == 1]
    assert decode_result(stored).errors[0].kind == "WorkerLost"
    assert queue.claim_page().number == 2  # the document goes on
    assert not queue.lose_page(first, "late", max_losses=2)  # a settled claim: nothing


def test_queue_quota_and_cancel(store):
    store.submit(new_job("e" * 32, 1), LIMITS)
    store.submit(new_job("f" * 32, 1), LIMITS)
    with pytest.raises(QueueFull) as full:
        store.submit(new_job("9" * 32, 1), LIMITS)
    assert full.value.retry_after_s >= 1
    assert store.cancel("e" * 32) and not store.cancel("0" * 32)
    with pytest.raises(NotCancellable):
        store.cancel("e" * 32)
    with pytest.raises(QuotaExceeded):
        store.submit(new_job("8" * 32, 1, size=90), LIMITS)
    assert [j["id"] for j in store.list(None, 10, 0)] == ["f" * 32, "e" * 32]
    assert store.expired(float("inf")) == ["e" * 32]


def test_a_restart_removes_checkpoints_a_stop_left_behind_its_document(store, tmp_path):
    """The server stopped between a document's end and the removal of its page checkpoints:
    the next start removes them (and gives their bytes back), and keeps those still needed."""
    from service.server import resume
    from service.storage import DataFolder

    folder = DataFolder(tmp_path / "data")
    folder.prepare()
    store.submit(new_job("1" * 32, 1, size=60), LIMITS)
    store.submit(new_job("2" * 32, 1, size=10), LIMITS)
    queue = WorkQueue(store.db, "1.0.1")
    page = queue.claim()
    assert queue.finish_page(page, "ok", [], encode_result(sample_result()), [], 40, 1.0)
    assembly = queue.claim()
    assert isinstance(assembly, AssemblyWork) and assembly.job_id == "1" * 32
    queue.finish_document("1" * 32, 0, "done", "ok", None, ["a.md"], 5)
    for job_id in ("1" * 32, "2" * 32):
        folder.pages_dir(job_id, 0).mkdir(parents=True)
        (folder.pages_dir(job_id, 0) / "p1-crop.png").write_bytes(b"x" * 40)
    resume(folder, store)
    assert not folder.pages_dir("1" * 32, 0).exists()
    assert (folder.pages_dir("2" * 32, 0) / "p1-crop.png").exists()  # still being read
    assert store.usage_bytes() < 60 + 10 + 40
