"""Models derived from downloaded ones by graph surgery, cached by source hash and derivation version."""

from __future__ import annotations

import logging
import os
import uuid
from pathlib import Path
from typing import TYPE_CHECKING

from filelock import FileLock

from engine.models.integrity import file_sha256, read_record, record_fields, write_record
from engine.models.sources import backdate_mtime

if TYPE_CHECKING:  # pragma: no cover
    import onnx

log = logging.getLogger(__name__)

CTC_IDS_SCORES_FORMAT = "ctc-ids-scores-v1"
FORMAT_METADATA_KEY = "paperlens_format"
SOURCE_METADATA_KEY = "paperlens_source_sha256"
IDS_OUTPUT = "ctc_ids"
SCORES_OUTPUT = "ctc_scores"
_CLASS_AXIS = 2


def ctc_ids_scores_model(source: Path, source_sha256: str, out_dir: Path, *, rebuild: bool = False) -> Path:
    """Path of the `ctc-ids-scores-v1` graph derived from the rec model at `source`.

    Reuses a cached file whose record still matches; builds (or rebuilds a corrupt one) under a
    file lock, writing a temp file that is renamed into place.
    """
    target = derived_path(out_dir, source_sha256)
    if not rebuild and _cached_ok(target, source_sha256):
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    with FileLock(str(target.with_name(target.name + ".lock"))):
        # A concurrent builder may have finished while we waited; a forced rebuild still rebuilds.
        if not rebuild and _cached_ok(target, source_sha256):
            return target
        import onnx

        model = onnx.load(str(source))
        derived = append_ctc_ids_scores(model, source_sha256)
        tmp = target.with_name(f"{target.name}.{os.getpid()}-{uuid.uuid4().hex[:8]}.tmp")
        try:
            onnx.save(derived, str(tmp))
            os.replace(tmp, target)
        finally:
            tmp.unlink(missing_ok=True)
        backdate_mtime(target)
        _write_record(target, source_sha256)
        log.info("built %s from %s", target.name, source)
    return target


def derived_path(out_dir: Path, source_sha256: str) -> Path:
    """Where the `ctc-ids-scores-v1` graph derived from the source with this hash lives."""
    return Path(out_dir) / f"{source_sha256}-{CTC_IDS_SCORES_FORMAT}.onnx"


def verify_derived(target: Path, source_sha256: str) -> bool | None:
    """Hash the derived graph in full against its own record: True when it matches, False when
    it does not (its record is dropped, so the next use rebuilds it), None when none is built."""
    if not target.is_file():
        return None
    record = read_record(_record_path(target))
    ok = (record is not None and record.get("source_sha256") == source_sha256
          and file_sha256(target, rehash=True) == record.get("sha256"))
    if not ok:
        _record_path(target).unlink(missing_ok=True)
    return ok


def append_ctc_ids_scores(model: "onnx.ModelProto", source_sha256: str = "") -> "onnx.ModelProto":
    """The rec graph with ArgMax and ReduceMax over the class axis as its only two outputs.

    Input: a model whose first output is `[batch, time, classes]` probabilities. Output: the
    same model (modified in place and returned) with int64 ids and float32 scores `[batch, time]`.
    Metadata (the `character` dictionary included) is kept, and the format is recorded.
    """
    import onnx
    from onnx import TensorProto, helper

    if len(model.graph.output) < 1:
        raise ValueError("the rec model has no output")
    probs = model.graph.output[0]
    dims = list(probs.type.tensor_type.shape.dim)
    if dims and len(dims) != 3:
        raise ValueError(f"the rec model's output {probs.name} has rank {len(dims)}, expected 3")

    opset = next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), None)
    if opset is None:
        raise ValueError("the rec model declares no default-domain opset")

    nodes = [
        helper.make_node(
            "ArgMax", [probs.name], [IDS_OUTPUT], name="paperlens_ctc_argmax", axis=_CLASS_AXIS, keepdims=0
        )
    ]
    if opset >= 18:
        # From opset 18 ReduceMax takes its axes as an input instead of an attribute.
        axes_name = "paperlens_ctc_class_axis"
        model.graph.initializer.append(helper.make_tensor(axes_name, TensorProto.INT64, [1], [_CLASS_AXIS]))
        nodes.append(
            helper.make_node(
                "ReduceMax", [probs.name, axes_name], [SCORES_OUTPUT], name="paperlens_ctc_max", keepdims=0
            )
        )
    else:
        nodes.append(
            helper.make_node(
                "ReduceMax", [probs.name], [SCORES_OUTPUT], name="paperlens_ctc_max", axes=[_CLASS_AXIS], keepdims=0
            )
        )
    model.graph.node.extend(nodes)

    batch_time = [_dim_value(d) for d in dims[:2]] if dims else None
    outputs = [
        helper.make_tensor_value_info(IDS_OUTPUT, TensorProto.INT64, batch_time),
        helper.make_tensor_value_info(SCORES_OUTPUT, probs.type.tensor_type.elem_type or TensorProto.FLOAT, batch_time),
    ]
    del model.graph.output[:]
    model.graph.output.extend(outputs)

    metadata = {p.key: p.value for p in model.metadata_props}
    metadata[FORMAT_METADATA_KEY] = CTC_IDS_SCORES_FORMAT
    if source_sha256:
        metadata[SOURCE_METADATA_KEY] = source_sha256
    helper.set_model_props(model, metadata)
    onnx.checker.check_model(model)
    return model


def _dim_value(dim) -> int | str | None:
    if dim.HasField("dim_value"):
        return dim.dim_value
    if dim.HasField("dim_param"):
        return dim.dim_param
    return None


def _record_path(target: Path) -> Path:
    return target.with_name(target.name + ".json")


def _write_record(target: Path, source_sha256: str) -> None:
    write_record(_record_path(target), target, format=CTC_IDS_SCORES_FORMAT,
                 source_sha256=source_sha256, sha256=file_sha256(target, rehash=True))


def _cached_ok(target: Path, source_sha256: str) -> bool:
    """True when the derived file matches the hash its record holds. Hashed in full before its
    first load in a process (engine.models.integrity); a file whose identity moved (copied,
    restored from backup) must also still load as the derived graph."""
    record = read_record(_record_path(target))
    try:
        stat = target.stat()
    except OSError:
        return False
    if record is None or record.get("format") != CTC_IDS_SCORES_FORMAT:
        return False
    if record.get("source_sha256") != source_sha256 or record.get("size") != stat.st_size:
        return False
    if file_sha256(target) != record.get("sha256"):
        log.warning("derived model %s does not match its recorded SHA-256; rebuilding", target)
        return False
    if all(record.get(key) == value for key, value in record_fields(stat).items()):
        return True
    if not _loads_as_derived(target):
        return False
    _write_record(target, source_sha256)
    return True


def _loads_as_derived(target: Path) -> bool:
    import onnx

    try:
        model = onnx.load(str(target))
    except Exception as exc:  # protobuf raises several unrelated types for a damaged file
        log.warning("derived model %s does not load (%s); rebuilding", target, exc)
        return False
    metadata = {p.key: p.value for p in model.metadata_props}
    outputs = [o.name for o in model.graph.output]
    return metadata.get(FORMAT_METADATA_KEY) == CTC_IDS_SCORES_FORMAT and outputs == [IDS_OUTPUT, SCORES_OUTPUT]
