"""Every refusal of the API: a 4xx with a code and a sentence that says what is wrong."""

from __future__ import annotations

import socket
import time

import pytest

from service_samples import write_noise_png, write_text_pdf, write_zip_bomb

# The shared server's worker loads the real models.
pytestmark = [pytest.mark.model, pytest.mark.service]


def refusal(answer, status: int, code: str, *words: str) -> dict:
    assert answer.status_code == status, answer.text
    error = answer.json()["error"]
    assert error["code"] == code, error
    for word in words:
        assert word in error["message"], error["message"]
    return error


def post_job(client, data=None, files=None):
    return client.post("/v1/jobs", data=data or {}, files=files or {})


@pytest.mark.parametrize("field, value, words", [
    ("method", "fast", ("method", "auto", "txt", "ocr")),
    ("layout", "magic", ("layout", "doclaynet", "cdla", "none")),
    ("tables", "xlsx", ("tables", "html", "markdown")),
    ("dpi", "abc", ("dpi", "whole number")),
    ("dpi", "5000", ("dpi", "5000", "50 to 600")),
    ("pages", "3-1", ("pages", "3-1")),
    ("pages", "one", ("pages", "one")),
    ("formats", "md,rtf", ("formats", "rtf", "content_list", "xlsx")),
    ("keep_furniture", "maybe", ("keep_furniture",)),
    ("tables_across_pages", "split", ("tables_across_pages", "join", "keep")),
])
def test_a_wrong_option_value_is_named(client, inputs, field, value, words):
    with open(inputs["png"], "rb") as fh:
        answer = post_job(client, {field: value}, {"files": ("note.png", fh)})
    assert answer.status_code == 422, answer.text
    message = answer.json()["error"]["message"]
    for word in words:
        assert word in message, message


def test_an_unknown_option_is_refused(client, inputs):
    with open(inputs["png"], "rb") as fh:
        answer = post_job(client, {"languge": "en"}, {"files": ("note.png", fh)})
    refusal(answer, 422, "unknown_option", "languge", "pages", "method")


def test_a_page_the_document_lacks_is_refused(client, inputs):
    with open(inputs["scan"], "rb") as fh:
        answer = post_job(client, {"pages": "1,9"}, {"files": ("letters.pdf", fh)})
    refusal(answer, 422, "invalid_option", "letters.pdf has 2 page(s)", "page 9")


def test_wrong_types_are_refused(client, inputs):
    with open(inputs["png"], "rb") as fh:  # a file where text belongs
        answer = post_job(client, files={"files": ("note.png", fh.read()),
                                         "pages": ("p.txt", b"1")})
    assert answer.status_code == 422 and "pages" in answer.json()["error"]["message"]
    answer = post_job(client, data={"files": "not a file"})  # text where a file belongs
    assert answer.status_code == 422 and "files" in answer.json()["error"]["message"]
    answer = client.post("/v1/jobs", json={"files": []})  # not multipart at all
    assert answer.status_code == 422


def test_no_file_and_an_empty_file_are_refused(client, tmp_path):
    refusal(post_job(client, {"method": "ocr"}), 422, "no_file", "files")
    answer = post_job(client, files={"files": ("blank.pdf", b"")})
    refusal(answer, 422, "empty_file", "blank.pdf is empty")


def test_a_zip_bomb_named_pdf_is_refused_by_its_content(client, tmp_path):
    bomb = write_zip_bomb(tmp_path / "report.pdf")
    assert bomb.stat().st_size < 1024 * 1024
    with open(bomb, "rb") as fh:
        answer = post_job(client, files={"files": ("report.pdf", fh, "application/pdf")})
    refusal(answer, 415, "unsupported_input", "report.pdf is not a PDF", "whatever its name")


def test_a_text_file_named_pdf_and_a_damaged_pdf_are_refused(client):
    answer = post_job(client, files={"files": ("notes.pdf", b"just some words\n" * 10)})
    refusal(answer, 415, "unsupported_input", "notes.pdf")
    answer = post_job(client, files={"files": ("cut.pdf", b"%PDF-1.7\n1 0 obj\n<<")})
    assert answer.status_code == 422, answer.text
    assert answer.json()["error"]["code"] == "corrupt_document"


def test_too_many_pages_are_refused(client, tmp_path):
    ledger = write_text_pdf(tmp_path / "ledger.pdf", 8)
    with open(ledger, "rb") as fh:
        answer = post_job(client, files={"files": ("ledger.pdf", fh)})
    refusal(answer, 413, "too_many_pages", "8 pages", "at most 6")
    with open(ledger, "rb") as fh:  # choosing pages brings it under the cap
        answer = post_job(client, {"pages": "1-2", "method": "txt"},
                          {"files": ("ledger.pdf", fh)})
    assert answer.status_code == 202
    client.delete(f"/v1/jobs/{answer.json()['id']}")
    with open(ledger, "rb") as fh:
        answer = client.post("/v1/ocr", files={"file": ("ledger.pdf", fh)})
    refusal(answer, 413, "too_many_pages", "at most 2", "/v1/jobs")


def test_an_upload_over_the_cap_is_refused(client, tmp_path):
    big = write_noise_png(tmp_path / "big.png", 1000)  # ~3 MB, over the 2 MiB cap
    with open(big, "rb") as fh:
        data = fh.read()
    answer = raw_request(client, "/v1/jobs", multipart_head(len(data)), data)
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert b"2.0 MiB" in answer


def test_an_upload_without_a_length_is_cut_off_at_the_cap(client):
    """Chunked: the server counts what arrives and stops reading at the cap."""
    host, port = client.base_url.host, client.base_url.port
    with socket.create_connection((host, port), timeout=30) as sock:
        sock.sendall(b"POST /v1/jobs HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked"
                     b"\r\nContent-Type: multipart/form-data; boundary=xyz\r\n\r\n")
        head = (b"--xyz\r\nContent-Disposition: form-data; name=\"files\"; "
                b"filename=\"a.png\"\r\n\r\n")
        sock.sendall(b"%x\r\n%s\r\n" % (len(head), head))
        chunk = bytes(256 * 1024)
        try:
            for _ in range(40):  # 10 MiB offered; the cap is 2 MiB
                sock.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server stopped reading: that is the point
        answer = read_answer(sock)
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]


def test_server_paths_are_refused_without_allow_dir(client, inputs):
    answer = post_job(client, {"paths": str(inputs["scan"])})
    refusal(answer, 403, "server_paths_refused", "--allow-dir")


def test_unknown_jobs_and_bad_queries(client):
    unknown = "0" * 32
    for method, path in (("GET", f"/v1/jobs/{unknown}"), ("DELETE", f"/v1/jobs/{unknown}"),
                         ("GET", f"/v1/jobs/{unknown}/events"),
                         ("GET", f"/v1/jobs/{unknown}/result"), ("GET", "/v1/jobs/../etc")):
        answer = client.request(method, path)
        assert answer.status_code == 404, (method, path, answer.text)
    assert client.get("/v1/jobs/not-an-id").json()["error"]["code"] == "unknown_job"
    answer = client.get(f"/v1/jobs/{unknown}/result", params={"format": "rtf"})
    assert answer.status_code == 422 and "format" in answer.json()["error"]["message"]
    answer = client.get("/v1/jobs", params={"state": "sleeping"})
    assert answer.status_code == 422 and "state" in answer.json()["error"]["message"]
    assert client.get("/v1/jobs", params={"limit": 0}).status_code == 422


def test_requests_from_web_pages_are_refused(client):
    answer = client.get("/v1/jobs", headers={"Origin": "https://evil.example"})
    refusal(answer, 403, "forbidden_origin", "evil.example")
    refusal(client.get("/v1/jobs", headers={"Origin": "null"}), 403, "forbidden_origin")
    answer = client.get("/v1/jobs", headers={"Host": "evil.example:8750"})
    refusal(answer, 403, "forbidden_host", "evil.example")
    assert client.get("/v1/jobs", headers={"Origin": "http://localhost:3000"}).status_code == 200


# ---------------------------------------------------------------- raw HTTP for early refusals

def multipart_head(size: int, boundary: str = "xyz") -> tuple[bytes, bytes]:
    head = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"files\"; "
            f"filename=\"big.png\"\r\nContent-Type: image/png\r\n\r\n").encode()
    tail = f"\r\n--{boundary}--\r\n".encode()
    return head, tail


def raw_request(client, path: str, parts: tuple[bytes, bytes], body: bytes,
                declared: int | None = None, token: str | None = None) -> bytes:
    """Sends the headers (with a Content-Length) and at most 64 KiB of the body; returns the
    answer."""
    head, tail = parts
    length = declared if declared is not None else len(head) + len(body) + len(tail)
    host, port = client.base_url.host, client.base_url.port
    with socket.create_connection((host, port), timeout=30) as sock:
        auth = f"Authorization: Bearer {token}\r\n" if token else ""
        sock.sendall(f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{auth}Content-Length: "
                     f"{length}\r\nContent-Type: multipart/form-data; boundary=xyz\r\n\r\n"
                     .encode())
        try:
            sock.sendall(head + body[:64 * 1024])
        except (BrokenPipeError, ConnectionResetError):
            pass
        return read_answer(sock)


def read_answer(sock: socket.socket, timeout_s: float = 30.0) -> bytes:
    sock.settimeout(timeout_s)
    answer = b""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            chunk = sock.recv(65536)
        except (ConnectionResetError, socket.timeout):
            break
        if not chunk:
            break
        answer += chunk
        if b"\r\n\r\n" in answer and answer.rstrip().endswith(b"}"):
            break
    return answer
