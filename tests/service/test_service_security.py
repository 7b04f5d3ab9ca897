"""The rules a server enforces with its default limits: the token, the 100 MB upload cap
(refused before the body is sent), files by path only under --allow-dir, the disk quota and
the retention of finished jobs."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from conftest import REPO_ROOT, service_env, start_server
from service_samples import invoice_pages, write_noise_png, write_scan
from test_service_errors import multipart_head, raw_request

pytestmark = [pytest.mark.model, pytest.mark.service]

TOKEN = "correct-horse-battery-staple-42"


def test_another_address_than_loopback_needs_a_token(tmp_path):
    env = service_env(tmp_path)
    for args, words in ((["--host", "0.0.0.0"], "Refusing to listen on 0.0.0.0"),
                        (["--host", "192.168.1.20"], "no token is set")):
        result = subprocess.run([sys.executable, "-m", "service", "--data-dir",
                                 str(tmp_path / "data"), *args], cwd=REPO_ROOT, env=env,
                                capture_output=True, text=True, timeout=60)
        assert result.returncode == 2 and words in result.stderr, result.stderr
    short = subprocess.run([sys.executable, "-m", "service", "--host", "0.0.0.0"],
                           cwd=REPO_ROOT, env={**env, "PAPERLENS_SERVICE_TOKEN": "secret"},
                           capture_output=True, text=True, timeout=60)
    assert short.returncode == 2 and "at least 16" in short.stderr
    assert not (tmp_path / "data").exists()  # refused before anything was made


@pytest.fixture(scope="module")
def guarded(models_ready, tmp_path_factory):
    folder = tmp_path_factory.mktemp("guarded")
    allowed = folder / "allowed"
    allowed.mkdir()
    running = start_server(folder, "--allow-dir", str(allowed), "--disk-quota-mb", "1",
                           "--retention-hours", str(6 / 3600), token=TOKEN)
    running.extra["allowed"] = allowed
    try:
        yield running
    finally:
        running.stop()


def test_the_token_is_required_and_checked(guarded):
    with guarded.client(token="") as anonymous:
        assert anonymous.get("/health").status_code == 200  # open, for monitors
        assert anonymous.get("/openapi.json").status_code == 200
        assert anonymous.get("/docs/assets/swagger-ui.css").status_code == 200  # /docs' files
        answer = anonymous.get("/v1/jobs")
        assert answer.status_code == 401 and answer.headers["WWW-Authenticate"] == "Bearer"
        assert "Bearer" in answer.json()["error"]["message"]
    with guarded.client(token=TOKEN + "x") as wrong:
        assert wrong.get("/v1/jobs").status_code == 401
        assert wrong.post("/v1/jobs", files={"files": ("a.png", b"x")}).status_code == 401
    with guarded.client() as right:
        assert right.get("/v1/jobs").json() == {"jobs": []}


def test_the_default_cap_refuses_100_mb_before_reading_it(guarded):
    """101 MiB announced: the answer comes at once, with 64 KiB of the body sent."""
    with guarded.client() as client:
        health = client.get("/health").json()
        assert health["limits"]["max_upload_bytes"] == 100 * 2**20
        started = time.monotonic()
        answer = raw_request(client, "/v1/jobs", multipart_head(0), bytes(64 * 1024),
                             declared=101 * 2**20, token=TOKEN)
        assert answer.startswith(b"HTTP/1.1 413"), answer[:300]
        assert b"100.0 MiB" in answer
        assert time.monotonic() - started < 10


def test_files_by_path_only_inside_the_allowed_folder(guarded, tmp_path):
    allowed = guarded.extra["allowed"]
    inside = write_scan(allowed / "memo.pdf", invoice_pages(8, 1))
    outside = write_scan(tmp_path / "secret.pdf", invoice_pages(9, 1))
    (allowed / "escape.pdf").symlink_to(outside)
    with guarded.client() as client:
        for raw, status, code in ((str(outside), 403, "path_not_allowed"),
                                  (str(allowed / "escape.pdf"), 403, "path_not_allowed"),
                                  ("memo.pdf", 422, "invalid_path"),
                                  (str(allowed / "absent.pdf"), 404, "no_such_file"),
                                  (str(allowed), 422, "invalid_path")):
            answer = client.post("/v1/jobs", data={"paths": raw})
            assert answer.status_code == status, (raw, answer.text)
            assert answer.json()["error"]["code"] == code
        answer = client.post("/v1/jobs", data={"paths": str(inside), "formats": "md"})
        assert answer.status_code == 202, answer.text
        view = guarded.wait_job(client, answer.json()["id"])
        assert view["state"] == "done" and view["documents"][0]["name"] == "memo.pdf"
        markdown = client.get(f"/v1/jobs/{view['id']}/result").text
        assert "8-1" in markdown


def test_the_disk_quota_refuses_with_a_clear_error(guarded, tmp_path):
    picture = write_noise_png(tmp_path / "photo.png", 700)  # ~1.4 MB, the quota is 1 MiB
    with guarded.client() as client, open(picture, "rb") as fh:
        answer = client.post("/v1/jobs", files={"files": ("photo.png", fh)})
    assert answer.status_code == 507, answer.text
    error = answer.json()["error"]
    assert error["code"] == "disk_quota"
    assert "disk quota is full" in error["message"] and "--disk-quota-mb" in error["message"]


def test_finished_jobs_are_removed_after_the_retention(guarded, tmp_path):
    scan = write_scan(tmp_path / "brief.pdf", invoice_pages(4, 1))
    with guarded.client() as client:
        with open(scan, "rb") as fh:
            job_id = client.post("/v1/jobs", files={"files": ("brief.pdf", fh)}).json()["id"]
        assert client.delete(f"/v1/jobs/{job_id}").status_code == 200  # ended: cancelled
        assert (guarded.data_dir / "jobs" / job_id).is_dir()
        deadline = time.monotonic() + 30
        while client.get(f"/v1/jobs/{job_id}").status_code != 404:
            assert time.monotonic() < deadline, "the job was not removed after its retention"
            time.sleep(0.25)
        assert not (guarded.data_dir / "jobs" / job_id).exists()


def test_refused_uploads_leave_nothing(guarded):
    incoming = guarded.data_dir / "incoming"
    assert list(incoming.iterdir()) == []

