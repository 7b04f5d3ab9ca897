"""kill -9 in the middle of eight multi-page jobs, then a restart: every job ends done, no page
finished before the kill is read again, and every output is what the CLI writes."""

from __future__ import annotations

import io
import time
import zipfile
from pathlib import Path

import pytest

from conftest import alive, assert_same_outputs, done_pages, restart, run_cli, start_server
from service_samples import figure_pixels, invoice_pages, write_scan

pytestmark = [pytest.mark.model, pytest.mark.service, pytest.mark.slow]

JOBS = 8
DISTINCT = 4
PAGES_PER_JOB = 2
KILL_AFTER_PAGES = 6


def test_jobs_resume_after_kill_9(models_ready, tmp_path):
    # Each document: a page of text, then a page with a figure (its crop is kept with the
    # page's checkpoint until the document is assembled).
    scans = [write_scan(tmp_path / f"batch{n}.pdf",
                        invoice_pages(n, PAGES_PER_JOB - 1) + [figure_pixels(f"Report {n}")])
             for n in range(1, DISTINCT + 1)]
    server = start_server(tmp_path / "server", workers=2)
    try:
        server.wait_ready()
        workers = [w["pid"] for w in server.client().get("/health").json()["workers"]]
        jobs: dict[str, Path] = {}
        with server.client() as client:
            for n in range(JOBS):
                scan = scans[n % DISTINCT]
                with open(scan, "rb") as fh:
                    answer = client.post("/v1/jobs", files={"files": (scan.name, fh)})
                assert answer.status_code == 202, answer.text
                jobs[answer.json()["id"]] = scan
            deadline = time.monotonic() + 400
            while sum(j["pages_done"] for j in client.get("/v1/jobs").json()["jobs"]) \
                    < KILL_AFTER_PAGES:
                assert time.monotonic() < deadline, "too slow to reach the kill point"
                time.sleep(0.1)
        server.kill9()
        deadline = time.monotonic() + 10
        while any(alive(pid) for pid in workers):  # the workers die with their server
            assert time.monotonic() < deadline, "a worker outlived its killed server"
            time.sleep(0.1)
        before = done_pages(server.data_dir / "jobs.sqlite3")
        assert KILL_AFTER_PAGES <= len(before) < JOBS * PAGES_PER_JOB

        server = restart(server)
        server.wait_ready()
        with server.client() as client:
            views = {job_id: server.wait_job(client, job_id) for job_id in jobs}
            assert {v["state"] for v in views.values()} == {"done"}, \
                [(v["id"], v["state"], v["error"]) for v in views.values()]
            after = done_pages(server.data_dir / "jobs.sqlite3")
            assert len(after) == JOBS * PAGES_PER_JOB
            # Pages done before the kill were kept, not read again.
            assert {key: after[key] for key in before} == before
            assert "resumed" in server.log()
            run_cli(scans, tmp_path / "cli", server.env)
            for job_id, scan in jobs.items():
                archive = zipfile.ZipFile(io.BytesIO(client.get(
                    f"/v1/jobs/{job_id}/result", params={"format": "zip"}).content))
                doc = views[job_id]["documents"][0]
                files = {name: archive.read(name) for name in doc["outputs"]}
                assert any(name.startswith("images/") for name in files)
                assert_same_outputs(files, tmp_path / "cli", scan.stem)
        # Checkpoints of assembled documents are not kept: the worker removes them just after
        # it records the document's end, which is what the views above already showed.
        deadline = time.monotonic() + 30
        while leftovers := [p for p in (server.data_dir / "jobs").glob("*/pages/*")
                            if any(p.iterdir())]:
            assert time.monotonic() < deadline, leftovers
            time.sleep(0.1)
    finally:
        server.stop()
