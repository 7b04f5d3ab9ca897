"""The derived ctc-ids-scores-v1 rec graph: same answers as argmax/max, cached, rebuilt when damaged."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")
from onnx import TensorProto, helper  # noqa: E402

import engine.models.derived as derived_models  # noqa: E402
from engine.models.derived import (  # noqa: E402
    CTC_IDS_SCORES_FORMAT,
    FORMAT_METADATA_KEY,
    IDS_OUTPUT,
    SCORES_OUTPUT,
    ctc_ids_scores_model,
)
from engine.models.integrity import forget_hashes  # noqa: E402
from engine.models.store import ModelStore  # noqa: E402
from model_store_fakes import model_entry, sha256, wheel_source, write_manifest  # noqa: E402

FEATURES, CLASSES = 8, 6
CHARACTERS = "a\nb\nc\nd\ne"


def tiny_rec_model(opset: int) -> bytes:
    """x [batch, time, 8] -> MatMul -> Softmax over classes -> [batch, time, 6], like a CTC head."""
    rng = np.random.default_rng(opset)
    weight = helper.make_tensor("w", TensorProto.FLOAT, [FEATURES, CLASSES], rng.normal(size=(FEATURES, CLASSES)).astype(np.float32).ravel())
    graph = helper.make_graph(
        [
            helper.make_node("MatMul", ["x", "w"], ["logits"]),
            helper.make_node("Softmax", ["logits"], ["probs"], axis=2),
        ],
        "tiny_rec",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", "time", FEATURES])],
        [helper.make_tensor_value_info("probs", TensorProto.FLOAT, ["batch", "time", CLASSES])],
        initializer=[weight],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], ir_version=8)
    helper.set_model_props(model, {"character": CHARACTERS})
    return model.SerializeToString()


def run(path_or_bytes, batch: np.ndarray) -> list[np.ndarray]:
    session = ort.InferenceSession(path_or_bytes, providers=["CPUExecutionProvider"])
    return session.run(None, {"x": batch})


@pytest.mark.parametrize("opset", [11, 13, 18])
def test_derived_outputs_equal_argmax_and_max_of_the_original(tmp_path: Path, opset: int):
    source = tmp_path / "rec.onnx"
    data = tiny_rec_model(opset)
    source.write_bytes(data)
    batch = np.random.default_rng(0).normal(size=(4, 25, FEATURES)).astype(np.float32)

    derived = ctc_ids_scores_model(source, sha256(data), tmp_path / ".derived" / "rec")

    (probs,) = run(data, batch)
    session = ort.InferenceSession(str(derived), providers=["CPUExecutionProvider"])
    assert [o.name for o in session.get_outputs()] == [IDS_OUTPUT, SCORES_OUTPUT]
    ids, scores = session.run(None, {"x": batch})
    assert ids.dtype == np.int64 and scores.dtype == np.float32
    assert ids.shape == scores.shape == (4, 25)
    np.testing.assert_array_equal(ids, probs.argmax(axis=2))
    np.testing.assert_array_equal(scores, probs.max(axis=2))
    metadata = session.get_modelmeta().custom_metadata_map
    assert metadata["character"] == CHARACTERS
    assert metadata[FORMAT_METADATA_KEY] == CTC_IDS_SCORES_FORMAT


@pytest.fixture
def rec_store(fake_index, tmp_path: Path) -> tuple[ModelStore, bytes]:
    data = tiny_rec_model(11)
    fake_index.add_wheel("recpkg", "2.0", {"recpkg/rec.onnx": data})
    manifest = write_manifest(
        tmp_path / "models.json",
        [model_entry("tiny-rec", "tiny_rec.onnx", data, [wheel_source("recpkg", "2.0", "recpkg/rec.onnx")], role="rec")],
    )
    return ModelStore(tmp_path / "models", fake_index.index_url, manifest=manifest), data


def test_store_builds_the_derived_rec_once_under_its_source_hash(rec_store, monkeypatch):
    store, data = rec_store
    path = store.derived_rec("tiny-rec")
    assert path == store.model_dir / ".derived" / "rec" / f"{sha256(data)}-{CTC_IDS_SCORES_FORMAT}.onnx"

    def no_rebuild(*_args, **_kwargs):
        raise AssertionError("a valid cached derived model must be reused")

    monkeypatch.setattr(derived_models, "append_ctc_ids_scores", no_rebuild)
    assert store.derived_rec("tiny-rec") == path
    assert sorted(p.name for p in path.parent.iterdir() if p.suffix == ".tmp") == []


@pytest.mark.parametrize("damage", ["truncated", "garbage", "record-missing"])
def test_damaged_derived_model_is_rebuilt(rec_store, damage):
    store, _ = rec_store
    path = store.derived_rec("tiny-rec")
    good = path.read_bytes()
    if damage == "truncated":
        path.write_bytes(good[: len(good) // 2])
    elif damage == "garbage":
        path.write_bytes(os.urandom(len(good)))
    else:
        path.with_name(path.name + ".json").unlink()

    rebuilt = store.derived_rec("tiny-rec")

    assert rebuilt == path
    batch = np.ones((1, 3, FEATURES), dtype=np.float32)
    ids, scores = run(str(rebuilt), batch)
    assert ids.shape == scores.shape == (1, 3)


def test_forced_rebuild_replaces_a_file_that_failed_to_load(rec_store):
    store, _ = rec_store
    path = store.derived_rec("tiny-rec")
    size, recorded = path.stat().st_size, path.stat().st_mtime_ns
    path.write_bytes(b"\0" * size)  # same size: only loading it would tell
    os.utime(path, ns=(recorded, recorded))

    store.derived_rec("tiny-rec", rebuild=True)  # a caller whose session failed asks again
    run(str(path), np.ones((1, 2, FEATURES), dtype=np.float32))


def test_non_ctc_model_is_refused(tmp_path: Path):
    graph = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["y"])],
        "flat",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])],
    )
    with pytest.raises(ValueError, match="rank 2"):
        derived_models.append_ctc_ids_scores(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]))


def tamper_keeping_mtime(path: Path) -> None:
    """Change one weight byte of the graph: it still loads, and size and mtime stay as they were."""
    stat = path.stat()
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x01
    path.write_bytes(bytes(data))
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))


def test_a_tampered_derived_graph_is_caught_before_its_first_load(rec_store):
    store, _ = rec_store
    path = store.derived_rec("tiny-rec")
    good = path.read_bytes()
    tamper_keeping_mtime(path)
    forget_hashes()  # a new process: its first load of the graph

    assert store.derived_rec("tiny-rec") == path
    assert path.read_bytes() == good  # rebuilt from the verified model, never loaded as it was


def test_models_verify_checks_the_derived_graph_by_its_recorded_hash(rec_store):
    from engine.cli.models import run_models
    from types import SimpleNamespace
    import io

    store, _ = rec_store
    path = store.derived_rec("tiny-rec")

    def verify() -> tuple[int, str]:
        out = io.StringIO()
        args = SimpleNamespace(models_command="verify", ids=["tiny-rec"], json=False)
        return run_models(args, settings=None, store=store, out=out, err=io.StringIO()), out.getvalue()

    code, out = verify()
    assert code == 0 and "ok" in out and "tiny-rec (derived)" in out
    tamper_keeping_mtime(path)
    code, out = verify()
    derived_line = next(line for line in out.splitlines() if "(derived)" in line)
    assert code == 1 and derived_line.startswith("corrupt") and str(path) in derived_line
    assert "rebuilt" in derived_line
    assert store.derived_rec("tiny-rec") == path  # and the next use rebuilds it
    assert verify()[0] == 0
