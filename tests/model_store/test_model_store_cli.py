"""`paperlens-cli models list|fetch|verify` against the fake index."""

from __future__ import annotations

import argparse
import io
import json
import os
from pathlib import Path
from types import SimpleNamespace

import pytest

from engine.cli.models import add_models_parser, run_models
from engine.models.store import ModelStore
from model_store_fakes import model_entry, wheel_source, write_manifest

PAYLOAD = os.urandom(300_000)


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="paperlens-cli")
    add_models_parser(parser.add_subparsers(dest="command"))
    return parser.parse_args(argv)


@pytest.fixture
def store(fake_index, tmp_path: Path) -> ModelStore:
    fake_index.add_wheel("tinypkg", "1.0", {"tinypkg/tiny.onnx": PAYLOAD})
    manifest = write_manifest(
        tmp_path / "models.json",
        [
            model_entry("tiny", "tiny.onnx", PAYLOAD, [wheel_source("tinypkg", "1.0", "tinypkg/tiny.onnx")]),
            model_entry("spare", "spare.onnx", b"spare", [wheel_source("sparepkg", "1.0", "s/spare.onnx")], default=False),
        ],
    )
    return ModelStore(tmp_path / "models", fake_index.index_url, manifest=manifest)


def call(store: ModelStore, *argv: str, err: io.StringIO | None = None) -> tuple[int, str, str]:
    out, err = io.StringIO(), err if err is not None else io.StringIO()
    code = run_models(parse(*argv), settings=None, store=store, out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def test_fetch_defaults_then_list_and_verify(store):
    code, out, err = call(store, "models", "fetch")
    assert code == 0
    assert out.startswith("ok") and str(store.model_dir / "tiny.onnx") in out
    assert "spare" not in out  # not a default model
    assert "downloading tiny" in err and "\r" not in err  # plain lines off a terminal

    code, out, _ = call(store, "models", "list", "--json")
    rows = {row["id"]: row for row in json.loads(out)["models"]}
    assert (rows["tiny"]["installed"], rows["tiny"]["verified"]) == (True, True)
    assert rows["spare"]["installed"] is False

    code, out, _ = call(store, "models", "verify", "--json")
    states = {row["id"]: row["state"] for row in json.loads(out)["models"]}
    assert code == 0 and states == {"tiny": "ok", "spare": "not installed"}


def test_progress_bar_on_a_terminal(store):
    code, _, err = call(store, "models", "fetch", "tiny", err=Terminal())
    assert code == 0
    assert "\rtiny" in err and "[" in err and "100%" in err and err.endswith("\n")


def test_verify_reports_a_corrupt_file_and_fails(store):
    path = store.ensure("tiny")
    path.write_bytes(b"x" * len(PAYLOAD))
    code, out, _ = call(store, "models", "verify", "tiny")
    assert code == 1 and out.startswith("corrupt")


def test_fetch_failure_is_reported_with_exit_code_1(store):
    code, out, _ = call(store, "models", "fetch", "--json", "spare")
    (row,) = json.loads(out)["models"]
    assert code == 1 and row["ok"] is False and "sparepkg" in row["error"]


def test_unknown_id_is_a_usage_error(store):
    code, _, err = call(store, "models", "fetch", "nope")
    assert code == 2 and "nope" in err


def test_models_needs_an_action():
    with pytest.raises(SystemExit):
        parse("models")


def test_store_is_built_from_the_settings(tmp_path: Path):
    settings = SimpleNamespace(model=SimpleNamespace(base_dir=tmp_path / "m", index_url="http://127.0.0.1:9/simple"))
    out = io.StringIO()
    assert run_models(parse("models", "list", "--json"), settings, out=out) == 0
    document = json.loads(out.getvalue())
    assert document["model_dir"] == str(tmp_path / "m")
    assert {row["id"] for row in document["models"]} >= {"ppocrv6-det-small", "paperlens-formula-v1"}
