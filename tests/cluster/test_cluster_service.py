"""paperlens-serve --ray on a real two-node Ray cluster: a real uvicorn server whose pages are
read by page workers on both nodes, with the service's own guarantees kept: progress events,
each page checkpointed, kill -9 and a restart resuming from the first unfinished page (none
read twice), a cancel that stops within one page, and outputs that are the CLI's bytes."""

from __future__ import annotations

import io
import sys
import threading
import time
import zipfile
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
SERVICE_TESTS = HERE.parent / "service"

pytestmark = [pytest.mark.cluster, pytest.mark.service, pytest.mark.model, pytest.mark.slow]

pytest.importorskip("httpx", reason="the service extra is not installed")
if str(SERVICE_TESTS) not in sys.path:
    sys.path.insert(0, str(SERVICE_TESTS))

from service_samples import figure_pixels, invoice_pages, write_scan  # noqa: E402
from tests.service.conftest import (alive, assert_same_outputs, done_pages,  # noqa: E402
                                    restart, run_cli, start_server)

KILL_AFTER_PAGES = 3


def follow_events(server, job_id: str, into: list[tuple[str, str]]) -> threading.Thread:
    """The job's server-sent events, read as they come in a thread of their own."""
    import httpx

    def read() -> None:
        try:
            with server.client() as client, client.stream(
                    "GET", f"/v1/jobs/{job_id}/events", timeout=300) as stream:
                kind = None
                for line in stream.iter_lines():
                    if line.startswith("event: "):
                        kind = line[len("event: "):]
                    elif line.startswith("data: ") and kind:
                        into.append((kind, line[len("data: "):]))
        except httpx.TransportError:  # the server was killed while the stream was open
            pass
    thread = threading.Thread(target=read, daemon=True)
    thread.start()
    return thread


def submit(client, scan: Path) -> str:
    with open(scan, "rb") as fh:
        answer = client.post("/v1/jobs", files={"files": (scan.name, fh)})
    assert answer.status_code == 202, answer.text
    return answer.json()["id"]


def test_service_on_two_nodes_resumes_after_kill_9_and_writes_what_the_cli_writes(
        two_nodes, tmp_path):
    scans = [write_scan(tmp_path / "ledger.pdf", invoice_pages(7, 3) + [figure_pixels("Crops")]),
             write_scan(tmp_path / "notes.pdf", invoice_pages(8, 3))]
    server = start_server(tmp_path / "server", "--ray", two_nodes.address, workers=2)
    try:
        health = server.wait_ready()
        cluster = health["device"]["cluster"]
        assert cluster["address"] == two_nodes.address
        assert len({worker["node"] for worker in cluster["page_workers"]}) == 2
        page_workers = [worker["pid"] for worker in cluster["page_workers"]]
        [dispatcher] = [worker["pid"] for worker in health["workers"]]
        with server.client() as client:
            jobs = {submit(client, scan): scan for scan in scans}
            deadline = time.monotonic() + 300
            while sum(j["pages_done"] for j in client.get("/v1/jobs").json()["jobs"]) \
                    < KILL_AFTER_PAGES:
                assert time.monotonic() < deadline, "too slow to reach the kill point"
                time.sleep(0.1)
        server.kill9()
        # The process that drove the cluster dies with the server, and Ray ends the page
        # workers it started: nothing goes on reading for a server that is gone.
        deadline = time.monotonic() + 60
        while any(alive(pid) for pid in [dispatcher, *page_workers]):
            assert time.monotonic() < deadline, "a worker outlived its killed server"
            time.sleep(0.2)
        before = done_pages(server.data_dir / "jobs.sqlite3")
        assert KILL_AFTER_PAGES <= len(before) < 7

        server = restart(server)
        server.wait_ready()
        with server.client() as client:
            views = {job_id: server.wait_job(client, job_id) for job_id in jobs}
            assert {v["state"] for v in views.values()} == {"done"}, \
                [(v["state"], v["error"]) for v in views.values()]
            after = done_pages(server.data_dir / "jobs.sqlite3")
            assert len(after) == 7
            assert {key: after[key] for key in before} == before  # none read twice
            assert "resumed" in server.log()
            run_cli(scans, tmp_path / "cli", server.env)
            for job_id, scan in jobs.items():
                archive = zipfile.ZipFile(io.BytesIO(client.get(
                    f"/v1/jobs/{job_id}/result", params={"format": "zip"}).content))
                files = {name: archive.read(name)
                         for name in views[job_id]["documents"][0]["outputs"]}
                assert_same_outputs(files, tmp_path / "cli", scan.stem)

            # Progress comes as it happens: the stage each page being read on the cluster has
            # reached, then each page done. Cancel: the job stops within one page and the
            # cluster goes on with the next.
            long_scan = write_scan(tmp_path / "long.pdf", invoice_pages(9, 6))
            cancelled = submit(client, long_scan)
            seen: list[tuple[str, str]] = []
            follow_events(server, cancelled, seen)
            deadline = time.monotonic() + 300
            while "stage" not in [kind for kind, _ in seen]:
                assert time.monotonic() < deadline, f"no stage came from the cluster: {seen}"
                assert client.get(f"/v1/jobs/{cancelled}").json()["state"] != "done", seen
                time.sleep(0.1)
            assert client.delete(f"/v1/jobs/{cancelled}").status_code == 200
            at_cancel = client.get(f"/v1/jobs/{cancelled}").json()["pages_done"]
            time.sleep(8)  # longer than a page takes here
            view = client.get(f"/v1/jobs/{cancelled}").json()
            assert view["state"] == "cancelled"
            # The pages being read when it was cancelled (one per page worker) at most.
            assert view["pages_done"] <= at_cancel + 2 < 6
            assert all(p["state"] != "running" for p in view["documents"][0]["pages"])
            again = submit(client, scans[1])
            seen = []
            follower = follow_events(server, again, seen)
            assert server.wait_job(client, again)["state"] == "done"
            follower.join(timeout=30)
            assert [kind for kind, _ in seen].count("page") == 3, seen
    finally:
        server.stop()
