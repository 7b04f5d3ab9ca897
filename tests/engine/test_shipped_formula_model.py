"""The formula model shipped inside Paperlens: its manifest entry, verification by the model store,
a damaged installation, and how `paperlens-cli models` shows it."""

from __future__ import annotations

import argparse
import io
import json
import shutil
from pathlib import Path

import pytest

from engine.cli.models import add_models_parser, run_models
from engine.errors import ModelIntegrityError, ModelUnavailable
from engine.models.manifest import MAIN_PART, ManifestError, load_manifest, parse_manifest
from engine.models.sources import sha256_file
from engine.models.store import ModelStore
from resources import resource_path

FORMULA_ID = "paperlens-formula-v1"
SHIPPED = resource_path("formula")


def shipped_copy(tmp_path: Path) -> Path:
    """A copy of the resources folder's formula model, to damage without touching the real one."""
    package = tmp_path / "package"
    shutil.copytree(SHIPPED, package / "formula")
    return package


def test_manifest_pins_every_shipped_file_by_part():
    spec = load_manifest()[FORMULA_ID]
    assert (spec.role, spec.default, spec.shipped) == ("formula", True, True)
    assert [(s.kind, s.path) for s in spec.sources] == [("package", "formula")]
    parts = {pinned.part: pinned for pinned in spec.files}
    assert {part: pinned.file for part, pinned in parts.items()} == {
        MAIN_PART: "formula-encoder.onnx", "decoder": "formula-decoder.onnx", "vocabulary": "vocab.txt"}
    for pinned in spec.files:
        path = SHIPPED / pinned.file
        assert (path.stat().st_size, sha256_file(path)) == (pinned.size, pinned.sha256), pinned.file
    assert spec.total_size == sum(pinned.size for pinned in spec.files)
    assert ModelStore(Path("unused")).default_for_role("formula").id == FORMULA_ID


def test_store_verifies_the_shipped_files_and_hands_them_out_by_part(tmp_path):
    store = ModelStore(tmp_path / "models")
    assert store.status(FORMULA_ID).installed
    assert store.verify(FORMULA_ID)
    files = store.ensure_files(FORMULA_ID)
    assert {part: path.name for part, path in files.items()} == {
        MAIN_PART: "formula-encoder.onnx", "decoder": "formula-decoder.onnx", "vocabulary": "vocab.txt"}
    assert all(path.parent == SHIPPED for path in files.values())
    assert store.ensure(FORMULA_ID) == files[MAIN_PART]
    assert not (tmp_path / "models").exists()  # nothing fetched, nothing written


@pytest.mark.parametrize("damaged", ["formula-encoder.onnx", "formula-decoder.onnx", "vocab.txt"])
def test_a_tampered_shipped_file_is_refused_with_a_reinstall_hint(tmp_path, damaged):
    package = shipped_copy(tmp_path)
    target = package / "formula" / damaged
    data = bytearray(target.read_bytes())
    data[len(data) // 2] ^= 0xFF  # same size, different bytes
    target.write_bytes(bytes(data))
    store = ModelStore(tmp_path / "models", package_dir=package)

    with pytest.raises(ModelIntegrityError, match="Reinstall Paperlens") as raised:
        store.ensure_files(FORMULA_ID)
    assert str(target) in raised.value.message
    with pytest.raises(ModelIntegrityError):
        store.ensure(FORMULA_ID)
    assert not store.verify(FORMULA_ID)
    assert not (tmp_path / "models").exists()  # no download stands in for the damaged file


def test_a_missing_shipped_file_is_unavailable_not_fetched(tmp_path):
    package = shipped_copy(tmp_path)
    (package / "formula" / "vocab.txt").unlink()
    store = ModelStore(tmp_path / "models", package_dir=package)
    assert not store.status(FORMULA_ID).installed
    with pytest.raises(ModelUnavailable, match="vocab.txt is missing.*Reinstall Paperlens"):
        store.ensure_files(FORMULA_ID)


def entry(**changes):
    base = {"id": "m", "role": "formula", "file": "m.onnx", "size": 3, "sha256": "a" * 64,
            "sources": [{"kind": "package", "path": "m"}],
            "companions": [{"part": "decoder", "file": "d.onnx", "size": 3, "sha256": "b" * 64}]}
    base.update(changes)
    return {"models": [base]}


@pytest.mark.parametrize("changes, complaint", [
    ({"sources": [{"kind": "wheel", "project": "p", "version": "1", "member": "m.onnx"}]},
     "only a model with a 'package' source has companions"),
    ({"sources": [{"kind": "package", "path": "m"}, {"kind": "url", "url": "https://x/m.onnx"}]},
     "must be the only source"),
    ({"sources": [{"kind": "package", "path": "../m"}]}, "folder under resources"),
    ({"companions": [{"part": "model", "file": "d.onnx", "size": 3, "sha256": "b" * 64}]}, "part"),
    ({"companions": [{"part": "decoder", "file": "m.onnx", "size": 3, "sha256": "b" * 64}]},
     "already used"),
    ({"companions": [{"part": "decoder", "file": "d.onnx", "size": 3, "sha256": "xyz"}]}, "sha256"),
])
def test_malformed_shipped_entries_are_rejected(changes, complaint):
    with pytest.raises(ManifestError, match=complaint):
        parse_manifest(entry(**changes))


def models_command(*argv: str, store: ModelStore) -> tuple[int, str]:
    parser = argparse.ArgumentParser()
    add_models_parser(parser.add_subparsers(dest="command"))
    out = io.StringIO()
    code = run_models(parser.parse_args(["models", *argv]), None, store=store, out=out, err=io.StringIO())
    return code, out.getvalue()


def test_cli_lists_verifies_and_never_downloads_the_shipped_model(tmp_path):
    store = ModelStore(tmp_path / "models", "http://127.0.0.1:9/simple")
    code, out = models_command("list", "--json", store=store)
    row = next(r for r in json.loads(out)["models"] if r["id"] == FORMULA_ID)
    assert code == 0 and row["shipped"] and row["installed"]
    assert row["size"] == store.spec(FORMULA_ID).total_size

    code, out = models_command("verify", FORMULA_ID, "--json", store=store)
    assert code == 0 and json.loads(out)["models"][0]["state"] == "ok"
    code, out = models_command("list", store=store)
    assert "shipped, verified" in out

    only_shipped = ModelStore(tmp_path / "models", "http://127.0.0.1:9/simple",
                              manifest={FORMULA_ID: store.spec(FORMULA_ID)})
    code, out = models_command("fetch", "--json", store=only_shipped)
    assert code == 0 and json.loads(out)["models"] == []  # nothing to download by default
    code, out = models_command("fetch", FORMULA_ID, store=only_shipped)  # asked for: verified in place
    assert code == 0 and out.startswith("ok") and str(SHIPPED) in out
    assert not (tmp_path / "models").exists()


def test_cli_verify_says_to_reinstall_a_damaged_shipped_model(tmp_path):
    package = shipped_copy(tmp_path)
    (package / "formula" / "formula-decoder.onnx").write_bytes(b"not a model")
    store = ModelStore(tmp_path / "models", package_dir=package)
    code, out = models_command("verify", FORMULA_ID, store=store)
    assert code == 1 and out.startswith("corrupt") and "reinstall Paperlens" in out
