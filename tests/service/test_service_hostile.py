"""The service under hostile or damaged input: a PDF cut in half is a partial document with its
pages' CorruptDocument errors, an export asked for and not made leaves the job partial with the
reason, and the data folder is its owner's alone."""

from __future__ import annotations

import stat
import sys
from pathlib import Path

import pytest

from service.security import token_matches

pytestmark = [pytest.mark.model, pytest.mark.service]

ENGINE_TESTS = str(Path(__file__).resolve().parents[1] / "engine")
if ENGINE_TESTS not in sys.path:
    sys.path.insert(0, ENGINE_TESTS)


def finished(server, client, name: str, data: bytes, **fields) -> dict:
    job_id = client.post("/v1/jobs", files={"files": (name, data)}, data=fields).json()["id"]
    return server.wait_job(client, job_id)


def test_a_pdf_cut_in_half_is_a_partial_document_naming_its_pages(server, client, tmp_path):
    from engine_samples import numbered_pages, write_text_pdf
    from fault_samples import cut_in_half

    full = write_text_pdf(tmp_path / "full.pdf", numbered_pages(3), garbage=3, deflate=True)
    data = cut_in_half(full, tmp_path / "report.pdf").read_bytes()
    view = finished(server, client, "report.pdf", data, method="txt", formats="md,json")
    assert view["state"] == "partial", view
    [doc] = view["documents"]
    assert doc["status"] == "partial"
    pages = {page["page"]: page for page in doc["pages"]}
    assert pages[1]["status"] == "ok"
    for number in (2, 3):
        assert pages[number]["status"] in ("partial", "failed")
        assert pages[number]["errors"][0]["kind"] == "CorruptDocument"
        assert f"page {number}" in pages[number]["errors"][0]["message"]


def test_an_export_not_made_leaves_the_job_partial_with_the_reason(server, client, inputs):
    view = finished(server, client, "note.png", inputs["png"].read_bytes(), formats="md,xlsx")
    assert view["state"] == "partial", view
    [doc] = view["documents"]
    assert doc["status"] == "partial"
    assert "note.xlsx not written" in doc["error"] and "table" in doc["error"]


def test_the_data_folder_and_its_files_are_private(server, client, inputs):
    finished(server, client, "note.png", inputs["png"].read_bytes(), formats="md")
    root = server.data_dir
    assert stat.S_IMODE(root.stat().st_mode) == 0o700
    for path in root.rglob("*"):
        mode = stat.S_IMODE(path.lstat().st_mode)
        if path.is_dir():
            assert mode & 0o077 == 0, f"{path} is {oct(mode)}"
        elif path.is_file():
            assert mode & 0o077 == 0, f"{path} is {oct(mode)}"


@pytest.mark.parametrize("header", ["Bearer s3cret", "bearer s3cret", "BEARER  s3cret"])
def test_the_bearer_scheme_is_read_in_any_case(header):
    assert token_matches("s3cret", header)


@pytest.mark.parametrize("header", [None, "", "Bearer", "Basic s3cret", "Bearer wrong",
                                    "Bearers3cret"])
def test_other_authorizations_are_refused(header):
    assert not token_matches("s3cret", header)


def upload_while_watching_health(server, client, name: str, data: bytes) -> tuple[dict, float]:
    """The upload's answer, and the longest /health took to answer meanwhile."""
    import threading
    import time

    import httpx

    answer: dict = {}

    def upload() -> None:
        response = client.post("/v1/jobs", files={"files": (name, data)})
        answer.update(status=response.status_code, body=response.json())

    sender = threading.Thread(target=upload)
    sender.start()
    slowest = 0.0
    while sender.is_alive() or not answer:
        start = time.monotonic()
        health = httpx.get(server.base_url + "/health", timeout=30.0)
        assert health.status_code == 200
        slowest = max(slowest, time.monotonic() - start)
        time.sleep(0.05)
        if not sender.is_alive():
            break
    sender.join(timeout=120)
    return answer, slowest


def test_a_use_bomb_upload_is_refused_and_health_keeps_answering(server, client, tmp_path):
    from fault_samples import chapter_showing, svg_use_bomb, write_epub

    bomb = write_epub(tmp_path / "book.epub", chapter_showing("b.svg"),
                      {"b.svg": svg_use_bomb()}).read_bytes()
    answer, slowest = upload_while_watching_health(server, client, "book.epub", bomb)
    assert answer["status"] == 415, answer
    assert "SVG <use> elements copy groups of copies" in answer["body"]["error"]["message"]
    # A generous ceiling: the HTTP process that once opened such a file never answered again.
    assert slowest < 10.0, f"/health took {slowest:.1f} s"


def test_health_answers_while_a_long_layout_is_counted(server, client, tmp_path):
    """A file MuPDF lays out for seconds is counted in a child, never in the HTTP process, which
    keeps answering; its 130 pages are then over this server's cap."""
    from fault_samples import table_chapter, write_epub

    import time

    import pymupdf

    path = write_epub(tmp_path / "ledger.epub", table_chapter(3000))
    started = time.monotonic()
    assert pymupdf.open(path).page_count > 1
    layout_s = time.monotonic() - started  # what the HTTP process would have waited for
    answer, slowest = upload_while_watching_health(server, client, "ledger.epub",
                                                   path.read_bytes())
    assert answer["status"] == 413, answer
    assert slowest < layout_s / 2, f"/health took {slowest:.1f} s, the layout {layout_s:.1f} s"
