"""A real paperlens-serve in a subprocess on a free loopback port, with its own data folder and
settings file; the CLI run the same way, to compare outputs byte for byte."""

from __future__ import annotations

import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

HERE = str(Path(__file__).resolve().parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)

httpx = pytest.importorskip("httpx", reason="the service extra is not installed: "
                                             "pip install -e '.[service]'")
pytest.importorskip("fastapi", reason="the service extra is not installed")

REPO_ROOT = Path(__file__).resolve().parents[2]
READY_TIMEOUT_S = 300.0
JOB_TIMEOUT_S = 400.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def service_env(folder: Path, **extra: str) -> dict[str, str]:
    """The test's own settings file (defaults) and data folder; models from the user cache."""
    env = dict(os.environ)
    env.pop("PAPERLENS_SERVICE_TOKEN", None)
    env.update({"PAPERLENS_CONFIG": str(folder / "settings.json"),
                "PYTHONPATH": str(REPO_ROOT), **extra})
    return env


@dataclass
class Server:
    proc: subprocess.Popen
    port: int
    data_dir: Path
    log_path: Path
    env: dict[str, str]
    command: list[str]
    token: str | None = None
    extra: dict = field(default_factory=dict)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def client(self, token: str | None = None, **options) -> "httpx.Client":
        token = token if token is not None else self.token
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return httpx.Client(base_url=self.base_url, headers=headers, timeout=120.0, **options)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def wait_answering(self, timeout_s: float = 60.0) -> None:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError(f"the server exited with {self.proc.returncode}:\n"
                                     f"{self.log()[-3000:]}")
            try:
                httpx.get(self.base_url + "/health", timeout=2.0)
                return
            except httpx.TransportError:
                time.sleep(0.2)
        raise AssertionError(f"the server did not answer within {timeout_s} s:\n{self.log()}")

    def wait_ready(self, timeout_s: float = READY_TIMEOUT_S) -> dict:
        """Until every worker has warmed up (models loaded, one page read)."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            health = httpx.get(self.base_url + "/health", timeout=10.0).json()
            states = [w["state"] for w in health["workers"]]
            if "failed" in states:
                raise AssertionError(f"a worker failed to start: {health['workers']}")
            if states and all(s == "ready" for s in states):
                return health
            time.sleep(0.3)
        raise AssertionError(f"workers not ready within {timeout_s} s:\n{self.log()[-3000:]}")

    def wait_job(self, client: "httpx.Client", job_id: str,
                 timeout_s: float = JOB_TIMEOUT_S) -> dict:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            view = client.get(f"/v1/jobs/{job_id}").json()
            if view["state"] not in ("queued", "running"):
                return view
            time.sleep(0.2)
        raise AssertionError(f"job {job_id} did not end within {timeout_s} s")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def kill9(self) -> None:
        self.proc.kill()
        self.proc.wait()


def start_server(folder: Path, *args: str, token: str | None = None, workers: int = 1,
                 data_dir: Path | None = None, env: dict[str, str] | None = None) -> Server:
    folder.mkdir(parents=True, exist_ok=True)
    port = free_port()
    data_dir = data_dir or folder / "data"
    env = env or service_env(folder)
    if token is not None:
        env = {**env, "PAPERLENS_SERVICE_TOKEN": token}
    command = [sys.executable, "-m", "service", "--data-dir", str(data_dir), "--port", str(port),
               "--workers", str(workers), *args]
    log_path = folder / f"server-{port}.log"
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(command, cwd=REPO_ROOT, env=env, stdout=log,
                                stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    server = Server(proc, port, data_dir, log_path, env, command, token)
    server.wait_answering()
    return server


def restart(server: Server) -> Server:
    """The same server (data folder, settings, port) started again."""
    log_path = server.log_path.with_name(server.log_path.stem + "-again.log")
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(server.command, cwd=REPO_ROOT, env=server.env, stdout=log,
                                stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    again = Server(proc, server.port, server.data_dir, log_path, server.env, server.command,
                   server.token)
    again.wait_answering()
    return again


def run_cli(inputs: list[Path], output: Path, env: dict[str, str], *flags: str) -> None:
    """paperlens-cli convert, run in the inputs' folder with their bare names (as the service
    names an uploaded document)."""
    folder = inputs[0].parent
    result = subprocess.run([sys.executable, "-m", "engine.cli.main", "convert",
                             *[p.name for p in inputs], "-o", str(output), *flags],
                            cwd=folder, env=env, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr


def assert_same_outputs(service_files: dict[str, bytes], cli_dir: Path, stem: str) -> None:
    """Markdown, JSON, content list and images: the same names, byte for byte."""
    cli_files = {p.relative_to(cli_dir).as_posix(): p.read_bytes()
                 for p in cli_dir.rglob("*") if p.is_file()
                 and (p.name.startswith(stem + ".") or p.name.startswith(stem + "_")
                      or p.name.startswith(stem + "-p"))}
    assert sorted(service_files) == sorted(cli_files)
    for name, data in cli_files.items():
        assert service_files[name] == data, name


@pytest.fixture(scope="package")
def models_ready(engine):
    """Skips (through the engine fixture) when the default models are not in the cache."""
    return engine


# Small caps so that the error paths are cheap to reach (the real defaults are tested by
# test_service_security.py).
CAPS = ("--max-upload-mb", "2", "--max-pages", "6", "--ocr-max-pages", "2", "--queue-size", "3")


@pytest.fixture(scope="package")
def server(models_ready, tmp_path_factory):
    """One server with one worker for the API and error tests."""
    running = start_server(tmp_path_factory.mktemp("api"), *CAPS)
    try:
        running.wait_ready()
        yield running
    finally:
        running.stop()


@pytest.fixture(scope="package")
def client(server):
    with server.client() as http:
        yield http


@pytest.fixture(scope="package")
def inputs(tmp_path_factory):
    from service_samples import invoice_pages, write_png, write_scan

    folder = tmp_path_factory.mktemp("inputs")
    return {"scan": write_scan(folder / "letters.pdf", invoice_pages(3, 2)),
            "png": write_png(folder / "note.png", ["Receipt 42", "Two loaves"]),
            "three": write_scan(folder / "three.pdf", invoice_pages(5, 3))}


def done_pages(database: Path) -> dict[tuple[str, int, int], tuple[float, int]]:
    """(job, document, page) -> (finished at, attempts) of every page done, read from the
    service's table without writing to it."""
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
        return {(job, doc, idx): (finished, attempts) for job, doc, idx, finished, attempts in
                db.execute("SELECT job_id, doc, idx, finished_at, attempts FROM pages "
                           "WHERE state='done'")}


def alive(pid: int) -> bool:
    """Whether the process runs (a zombie does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, IndexError):
        return False
    return state != "Z"
