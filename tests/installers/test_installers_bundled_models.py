"""The model store's bundled folder: searched first, hashed before use, never written to."""

from __future__ import annotations

import hashlib
import json
import logging
import os
import sys
from pathlib import Path

import pytest

import engine.models.store as model_store
from engine.models.store import ModelStore, bundled_model_dirs

PAYLOAD = os.urandom(100_000)


def write_manifest(path: Path, source_dir: Path) -> Path:
    """One model, `tiny`, whose only source is a local folder (no network in these tests)."""
    entry = {"id": "tiny", "role": "det", "default": True, "file": "tiny.onnx", "size": len(PAYLOAD),
             "sha256": hashlib.sha256(PAYLOAD).hexdigest(),
             "sources": [{"kind": "file", "path": str(source_dir)}]}
    path.write_text(json.dumps({"schema": 1, "models": [entry]}), encoding="utf-8")
    return path


@pytest.fixture
def folders(tmp_path: Path) -> dict[str, Path]:
    names = ("bundled", "cache", "source")
    found = {name: tmp_path / name for name in names}
    found["bundled"].mkdir()
    found["source"].mkdir()
    found["manifest"] = write_manifest(tmp_path / "models.json", found["source"])
    return found


def make_store(folders: dict[str, Path]) -> ModelStore:
    return ModelStore(folders["cache"], "http://127.0.0.1:9/simple", manifest=folders["manifest"],
                      bundled_dirs=[folders["bundled"]])


def test_a_matching_bundled_file_is_used_and_nothing_is_written(folders):
    bundled = folders["bundled"] / "tiny.onnx"
    bundled.write_bytes(PAYLOAD)
    bundled.chmod(0o444)
    store = make_store(folders)

    assert store.ensure("tiny") == bundled
    assert store.path_for("tiny") == bundled
    assert sorted(p.name for p in folders["bundled"].iterdir()) == ["tiny.onnx"]  # no record, no lock
    assert not folders["cache"].exists()  # the user's model folder is not even created


def test_a_bundled_file_is_hashed_once_per_store(folders, monkeypatch):
    (folders["bundled"] / "tiny.onnx").write_bytes(PAYLOAD)
    calls = []
    real = model_store.sha256_file
    monkeypatch.setattr(model_store, "sha256_file", lambda path: calls.append(path) or real(path))
    store = make_store(folders)

    store.ensure("tiny")
    store.ensure("tiny")
    assert len(calls) == 1
    make_store(folders).ensure("tiny")
    assert len(calls) == 2  # a new store (a new process) hashes again


def test_status_reports_a_bundled_file_verified_only_after_a_full_hash(folders):
    bundled = folders["bundled"] / "tiny.onnx"
    bundled.write_bytes(PAYLOAD)
    store = make_store(folders)

    before = store.status("tiny")
    assert (before.installed, before.verified, before.path) == (True, False, bundled)
    assert store.status("tiny", full_hash=True).verified is True
    assert store.verify("tiny") is True
    assert make_store(folders).ensure("tiny") == bundled


def test_a_corrupt_bundled_file_is_passed_over_for_the_model_folder(folders, caplog):
    (folders["bundled"] / "tiny.onnx").write_bytes(PAYLOAD[:-1] + b"\0")
    (folders["source"] / "tiny.onnx").write_bytes(PAYLOAD)
    store = make_store(folders)

    with caplog.at_level(logging.WARNING, logger="engine.models.store"):
        path = store.ensure("tiny")
    assert path == folders["cache"] / "tiny.onnx"
    assert path.read_bytes() == PAYLOAD
    assert "does not match its checksum" in caplog.text
    assert store.verify("tiny") is False  # what `models verify` reports about the bundled copy


def test_without_a_bundled_copy_the_model_folder_serves_as_before(folders):
    (folders["source"] / "tiny.onnx").write_bytes(PAYLOAD)
    store = make_store(folders)

    assert store.path_for("tiny") == folders["cache"] / "tiny.onnx"
    assert store.ensure("tiny") == folders["cache"] / "tiny.onnx"


def test_only_a_frozen_build_has_a_bundled_folder_beside_its_executable(monkeypatch, tmp_path):
    monkeypatch.delattr(sys, "frozen", raising=False)
    assert bundled_model_dirs() == ()

    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "executable", str(tmp_path / "paperlens-cli"))
    assert bundled_model_dirs() == (tmp_path.resolve() / "models",)
    assert ModelStore(tmp_path / "cache").bundled_dirs == (tmp_path.resolve() / "models",)
