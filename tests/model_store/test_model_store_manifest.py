"""The shipped manifest and its validation; role lookup; importing the store does no I/O."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.models.manifest import ManifestError, parse_manifest
from engine.models.store import ModelStore, load_manifest
from model_store_fakes import REPO_ROOT

DEFAULT_ROLES = {"det", "rec", "cls", "layout", "table", "orientation", "formula", "words"}


def test_shipped_manifest_pins_every_default_model():
    specs = load_manifest()
    defaults = [spec for spec in specs.values() if spec.default]
    assert {spec.role for spec in defaults} == DEFAULT_ROLES
    for spec in defaults:
        assert spec.file and spec.size and len(spec.sha256 or "") == 64
        if spec.shipped:  # inside Paperlens itself (tests/engine/test_shipped_formula_model.py)
            continue
        assert spec.sources and spec.sources[0].kind == "wheel"
        assert spec.sources[0].member.endswith("/" + spec.file)
    assert specs["ppocrv6-rec-small"].info["vocabulary"] == "metadata:character"
    formula = specs["paperlens-formula-v1"]
    assert (formula.role, formula.shipped, [s.kind for s in formula.sources]) == ("formula", True, ["package"])


def test_default_for_role(tmp_path: Path):
    store = ModelStore(tmp_path)
    assert store.default_for_role("det").id == "ppocrv6-det-small"
    assert store.default_for_role("rec").id == "ppocrv6-rec-small"
    assert store.default_for_role("table").id == "slanet-plus"
    assert store.default_for_role("formula").id == "paperlens-formula-v1"
    with pytest.raises(KeyError, match="choose one by id"):
        store.default_for_role("layout")
    with pytest.raises(KeyError):
        store.default_for_role("seal")


GOOD = {"id": "m", "role": "det", "file": "m.onnx", "size": 3, "sha256": "a" * 64, "sources": []}


@pytest.mark.parametrize(
    "change, complaint",
    [
        ({"sha256": "xyz"}, "sha256"),
        ({"size": 0}, "size"),
        ({"file": "../m.onnx"}, "plain file name"),
        ({"sources": [{"kind": "ftp"}]}, "kind"),
        ({"sources": [{"kind": "wheel", "project": "p", "version": "1"}]}, "member"),
        ({"sources": [{"kind": "url", "url": "file:///etc/passwd"}]}, "http"),
        ({"file": None}, "slot without 'file'"),
    ],
)
def test_malformed_entries_are_rejected_with_the_model_named(change, complaint):
    with pytest.raises(ManifestError, match=complaint) as raised:
        parse_manifest({"models": [{**GOOD, **change}]})
    assert "'m'" in str(raised.value)


def test_duplicate_ids_and_files_are_rejected():
    with pytest.raises(ManifestError, match="twice"):
        parse_manifest({"models": [GOOD, GOOD]})
    with pytest.raises(ManifestError, match="already used"):
        parse_manifest({"models": [GOOD, {**GOOD, "id": "n"}]})


PROBE = """
import sys
events = []
def audit(event, args):
    if event == "open" and isinstance(args[0], str) and args[0].endswith((".py", ".pyc", ".so")):
        return  # reading modules is what importing is (-B keeps it from writing bytecode)
    if event in ("open", "socket.connect", "socket.getaddrinfo", "urllib.Request", "os.mkdir", "os.remove"):
        events.append((event, str(args[0])[:120]))
sys.addaudithook(audit)
import engine.models.store, engine.cli.models, engine.models.derived
print(repr(events))
print("onnx" in sys.modules)
"""


def test_importing_the_store_does_no_file_or_network_io():
    result = subprocess.run(
        [sys.executable, "-B", "-c", PROBE], cwd=REPO_ROOT, capture_output=True, text=True, check=True,
        env={"PYTHONPATH": str(REPO_ROOT), "PATH": "/usr/bin:/bin"},
    )
    events_line, onnx_line = result.stdout.strip().splitlines()
    assert events_line == "[]"
    assert onnx_line == "False"  # graph surgery loads onnx only when a derived model is built


def test_manifest_file_is_plain_json():
    path = REPO_ROOT / "resources" / "models.json"
    assert json.loads(path.read_text(encoding="utf-8"))["models"]
