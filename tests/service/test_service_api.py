"""Every endpoint of a real server on a loopback port, with one worker and the real models:
answers, progress, cancellation, and outputs byte-identical to the CLI's."""

from __future__ import annotations

import io
import json
import re
import time
import zipfile

import pytest

from conftest import assert_same_outputs, run_cli
from engine.output.document_json import CONTENT_LIST_SCHEMA, DOCUMENT_SCHEMA, SCHEMA_VERSION
from tools.json_schemas import problems

pytestmark = [pytest.mark.model, pytest.mark.service]

def test_health_says_version_models_device_and_workers(client):
    health = client.get("/health").json()
    assert health["status"] == "ok"
    assert health["version"]
    assert {m["role"] for m in health["models"]} >= {"det", "rec", "layout"}
    assert all(m["installed"] and m["verified"] for m in health["models"])
    assert health["device"]["effective"] and health["device"]["reason"]
    assert [w["state"] for w in health["workers"]] == ["ready"]
    assert health["workers"][0]["warm_up_s"] > 0
    assert health["limits"]["max_pages"] == 6


def test_openapi_documents_every_endpoint(client):
    assert "swagger" in client.get("/docs").text.lower()
    paths = client.get("/openapi.json").json()["paths"]
    assert set(paths) >= {"/health", "/v1/ocr", "/v1/jobs", "/v1/jobs/{job_id}",
                          "/v1/jobs/{job_id}/events", "/v1/jobs/{job_id}/result"}
    assert {"get", "delete"} <= set(paths["/v1/jobs/{job_id}"])


# What each kind of file a page refers to must be served as.
CONTENT_TYPES = {".js": "text/javascript", ".css": "text/css", ".png": "image/png",
                 ".json": "application/json", "": "text/html"}
# Every place the pages name a URL: attributes, the Swagger set-up's url and OAuth2 redirect.
PAGE_URLS = re.compile(r"""(?:src|href|spec-url)=["']([^"']+)["']|url: '([^']+)'"""
                       r"""|origin \+ '([^']+)'""")


@pytest.mark.parametrize("page, expected", [
    ("/docs", {"/docs/assets/swagger-ui-bundle.js", "/docs/assets/swagger-ui.css",
               "/docs/assets/favicon.png", "/openapi.json", "/docs/oauth2-redirect"}),
    ("/redoc", {"/docs/assets/redoc.standalone.js", "/docs/assets/favicon.png",
                "/openapi.json"})])
def test_api_pages_load_everything_from_this_server(client, page, expected):
    """/docs and /redoc work without internet: they name no other host, and every file they
    load is served here with its content type."""
    answer = client.get(page)
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/html")
    assert "://" not in answer.text  # no CDN, no fonts from elsewhere
    urls = {url for found in PAGE_URLS.findall(answer.text) for url in found if url}
    assert urls == expected
    for url in urls:
        assert url.startswith("/") and not url.startswith("//")
        fetched = client.get(url)
        assert fetched.status_code == 200, url
        kind = CONTENT_TYPES[re.search(r"(\.\w+)?$", url).group(0)]
        assert fetched.headers["content-type"].startswith(kind), (url, fetched.headers)
        assert len(fetched.content) > 1000 or kind == "image/png"


def test_quick_ocr_answers_markdown_and_json(server, client, inputs):
    before = sorted((server.data_dir / "jobs").iterdir())
    with open(inputs["png"], "rb") as fh:
        answer = client.post("/v1/ocr", files={"file": ("note.png", fh, "image/png")})
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert "Receipt 42" in body["markdown"]
    assert body["document"]["kind"] == "png" and body["document"]["path"] == "note.png"
    # The JSON the CLI writes, with its schema version; the content list beside it.
    assert body["document"]["schema_version"] == SCHEMA_VERSION
    assert problems(body["document"], DOCUMENT_SCHEMA) == []
    assert problems(body["content_list"], CONTENT_LIST_SCHEMA) == []
    assert body["pages"] == [{"page": 1, "status": "ok", "errors": []}]
    assert isinstance(body["content_list"], list) and body["elapsed_ms"] > 0
    # A quick request leaves nothing behind.
    assert sorted((server.data_dir / "jobs").iterdir()) == before


def test_a_job_of_two_files_gives_what_the_cli_gives(server, client, inputs, tmp_path):
    with open(inputs["scan"], "rb") as a, open(inputs["png"], "rb") as b:
        answer = client.post("/v1/jobs", files=[("files", ("letters.pdf", a, "application/pdf")),
                                                ("files", ("note.png", b, "image/png"))],
                             data={"tables": "markdown"})
    assert answer.status_code == 202, answer.text
    created = answer.json()
    assert created["state"] == "queued" and created["pages_total"] == 3
    assert created["links"]["events"] == f"/v1/jobs/{created['id']}/events"
    listed = client.get("/v1/jobs").json()["jobs"]
    assert created["id"] in [job["id"] for job in listed]
    view = server.wait_job(client, created["id"])
    assert view["state"] == "done", view
    assert [d["state"] for d in view["documents"]] == ["done", "done"]
    assert [p["status"] for d in view["documents"] for p in d["pages"]] == ["ok"] * 3
    assert all(p["attempts"] == 1 for d in view["documents"] for p in d["pages"])
    assert client.get("/v1/jobs", params={"state": "done"}).json()["jobs"][0]["id"] == view["id"]

    archive = zipfile.ZipFile(io.BytesIO(
        client.get(f"/v1/jobs/{view['id']}/result", params={"format": "zip"}).content))
    assert json.loads(archive.read("status.json"))["state"] == "done"
    run_cli([inputs["scan"], inputs["png"]], tmp_path / "cli", server.env, "--tables", "markdown")
    for doc in view["documents"]:
        files = {name: archive.read(name) for name in doc["outputs"]}
        assert_same_outputs(files, tmp_path / "cli", doc["output_name"])
    markdown = client.get(f"/v1/jobs/{view['id']}/result",
                          params={"format": "md", "document": "letters.pdf"})
    assert markdown.headers["content-type"].startswith("text/markdown")
    assert markdown.content == (tmp_path / "cli" / "letters.md").read_bytes()
    listing = client.get(f"/v1/jobs/{view['id']}/result",
                         params={"format": "content_list", "document": "note"})
    assert listing.content == (tmp_path / "cli" / "note_content_list.json").read_bytes()
    which = client.get(f"/v1/jobs/{view['id']}/result", params={"format": "json"})
    assert which.status_code == 422 and "letters.pdf, note.png" in which.json()["error"]["message"]


def test_events_follow_a_job_to_its_end(server, client, inputs):
    with open(inputs["scan"], "rb") as fh:
        job_id = client.post("/v1/jobs", files={"files": ("letters.pdf", fh)},
                             data={"formats": "md"}).json()["id"]
    events = []
    with client.stream("GET", f"/v1/jobs/{job_id}/events") as stream:
        assert stream.headers["content-type"].startswith("text/event-stream")
        name = None
        for line in stream.iter_lines():
            if line.startswith("event: "):
                name = line[len("event: "):]
            elif line.startswith("data: "):
                events.append((name, json.loads(line[len("data: "):])))
    names = [n for n, _ in events]
    assert names[0] in ("state", "stage") and names[-1] == "end"
    assert events[-1][1]["state"] == "done" and events[-1][1]["pages_done"] == 2
    assert [data["page"] for n, data in events if n == "page"] == [1, 2]
    assert any(n == "stage" for n in names)
    # Formats not asked for are not there.
    missing = client.get(f"/v1/jobs/{job_id}/result", params={"format": "json"})
    assert missing.status_code == 404 and "formats=md" in missing.json()["error"]["message"]
    # A finished job cannot be cancelled.
    refused = client.delete(f"/v1/jobs/{job_id}")
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "already_finished"


def test_cancel_stops_a_running_job_within_one_page(server, client, inputs):
    with open(inputs["three"], "rb") as fh:
        job_id = client.post("/v1/jobs", files={"files": ("three.pdf", fh)}).json()["id"]
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:  # until the first page is being read
        view = client.get(f"/v1/jobs/{job_id}").json()
        if view["documents"][0]["pages"][0]["stage"] is not None:
            break
        time.sleep(0.05)
    done_at_cancel = view["pages_done"]
    answer = client.delete(f"/v1/jobs/{job_id}")
    assert answer.status_code == 200 and answer.json()["state"] == "cancelled"
    # The page being read stops at its next stage (a stage takes seconds on a busy machine).
    deadline = time.monotonic() + 60
    while True:
        after = client.get(f"/v1/jobs/{job_id}").json()
        if all(p["state"] != "running" for p in after["documents"][0]["pages"]):
            break
        assert time.monotonic() < deadline, after["documents"][0]["pages"]
        time.sleep(0.2)
    time.sleep(1.0)  # and nothing is claimed after it
    after = client.get(f"/v1/jobs/{job_id}").json()
    assert after["state"] == "cancelled"
    assert after["pages_done"] <= done_at_cancel + 1
    assert all(p["state"] != "running" for p in after["documents"][0]["pages"])
    result = client.get(f"/v1/jobs/{job_id}/result")
    assert result.status_code == 409 and result.json()["error"]["code"] == "cancelled"
    # The worker is free again.
    health = client.get("/health").json()
    assert health["queue"]["running"] == 0


def test_a_result_asked_for_too_early_says_how_far_the_job_is(client, inputs):
    with open(inputs["three"], "rb") as fh:
        job_id = client.post("/v1/jobs", files={"files": ("three.pdf", fh)}).json()["id"]
    early = client.get(f"/v1/jobs/{job_id}/result")
    assert early.status_code == 409 and early.json()["error"]["code"] == "not_finished"
    assert "of 3 pages read" in early.json()["error"]["message"]
    assert client.delete(f"/v1/jobs/{job_id}").status_code == 200


def test_a_full_queue_answers_429_with_retry_after(client, inputs):
    accepted = []
    try:
        for _ in range(3):
            with open(inputs["three"], "rb") as fh:
                answer = client.post("/v1/jobs", files={"files": ("three.pdf", fh)})
            assert answer.status_code == 202, answer.text
            accepted.append(answer.json()["id"])
        with open(inputs["three"], "rb") as fh:
            refused = client.post("/v1/jobs", files={"files": ("three.pdf", fh)})
        assert refused.status_code == 429
        assert int(refused.headers["Retry-After"]) >= 1
        assert "queue is full" in refused.json()["error"]["message"]
    finally:
        for job_id in accepted:
            client.delete(f"/v1/jobs/{job_id}")
    with open(inputs["png"], "rb") as fh:  # room again once they are cancelled
        again = client.post("/v1/jobs", files={"files": ("note.png", fh)})
    assert again.status_code == 202
    client.delete(f"/v1/jobs/{again.json()['id']}")


def test_exports_are_results_too(server, client, inputs):
    with open(inputs["png"], "rb") as fh:
        job_id = client.post("/v1/jobs", files={"files": ("note.png", fh)},
                             data={"formats": "md,json,pdf,docx,xlsx,alto,hocr"}).json()["id"]
    deadline = time.monotonic() + 180
    while client.get(f"/v1/jobs/{job_id}").json()["state"] in ("queued", "running"):
        assert time.monotonic() < deadline, "the job did not finish"
        time.sleep(0.3)
    pdf = client.get(f"/v1/jobs/{job_id}/result", params={"format": "pdf"})
    assert pdf.status_code == 200 and pdf.headers["content-type"] == "application/pdf"
    assert pdf.content.startswith(b"%PDF")
    import pymupdf

    with pymupdf.open(stream=pdf.content, filetype="pdf") as doc:
        assert "Receipt 42" in doc[0].get_text()
    docx = client.get(f"/v1/jobs/{job_id}/result", params={"format": "docx"})
    assert docx.status_code == 200
    assert "word/document.xml" in zipfile.ZipFile(io.BytesIO(docx.content)).namelist()
    # A note has no table: no workbook, and the answer says so.
    xlsx = client.get(f"/v1/jobs/{job_id}/result", params={"format": "xlsx"})
    assert xlsx.status_code == 404 and "workbook needs a table" in xlsx.json()["error"]["message"]
    alto = client.get(f"/v1/jobs/{job_id}/result", params={"format": "alto"})
    assert alto.status_code == 200 and alto.headers["content-type"] == "application/xml"
    assert b'CONTENT="Receipt"' in alto.content
    hocr = client.get(f"/v1/jobs/{job_id}/result", params={"format": "hocr"})
    assert hocr.status_code == 200 and b'class="ocrx_word"' in hocr.content
