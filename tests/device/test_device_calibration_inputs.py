"""The shipped calibration images: manifest, checksums, packaging, and what the CPU reads."""

from __future__ import annotations

import hashlib
import json
import shutil
import tomllib
from pathlib import Path

import pytest

from engine.device.calibration_process import CalibrationInputError, load_images
from resources import resource_path

REPO_ROOT = Path(__file__).resolve().parents[2]


def manifest() -> dict:
    return json.loads(resource_path("calibration/manifest.json").read_text(encoding="utf-8"))


def test_six_lines_of_chinese_english_and_digits_with_checksums():
    data = manifest()
    assert data["schema_version"] == 1
    images = data["images"]
    assert len(images) == 6
    texts = "".join(i["text"] for i in images)
    assert any("\u4e00" <= c <= "\u9fff" for c in texts)
    assert any(c.isascii() and c.isalpha() for c in texts)
    assert any(c.isdigit() for c in texts)
    for entry in images:
        path = resource_path("calibration") / entry["file"]
        assert hashlib.sha256(path.read_bytes()).hexdigest() == entry["sha256"]
        assert path.stat().st_size < 20_000


def test_images_are_package_data():
    config = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["resources"]
    assert "calibration/*" in patterns


def test_a_damaged_image_is_refused(tmp_path):
    folder = tmp_path / "calibration"
    shutil.copytree(resource_path("calibration"), folder)
    (folder / "line3.png").write_bytes(b"not a png")
    with pytest.raises(CalibrationInputError, match="line3.png"):
        load_images(folder)


def test_loaded_images_are_rgb_lines():
    images, entries = load_images(resource_path("calibration"))
    assert len(images) == 6 and all(i.ndim == 3 and i.shape[2] == 3 for i in images)
    assert [e["file"] for e in entries] == [f"line{n}.png" for n in range(1, 7)]


@pytest.mark.model
def test_the_cpu_reads_every_line_as_printed():
    import os

    import onnxruntime as ort

    from engine.models.store import ModelStore
    from engine.ocr.recognition import (
        crop_width_at_height,
        ctc_decode,
        grid_width,
        load_dictionary,
        rec_input,
    )
    from settings import default_model_dir

    store = ModelStore(default_model_dir(os.environ))
    spec = store.default_for_role("rec")
    if not store.status(spec.id).installed:
        pytest.skip("the rec model is not in the model cache; run `paperlens-cli models fetch`")
    session = ort.InferenceSession(str(store.derived_rec(spec.id)),
                                   providers=["CPUExecutionProvider"])
    images, entries = load_images(resource_path("calibration"))
    batch = rec_input(images, grid_width(max(crop_width_at_height(i) for i in images)))
    ids, scores = session.run(None, {session.get_inputs()[0].name: batch})
    decoded = ctc_decode(ids, scores, load_dictionary(dict(
        session.get_modelmeta().custom_metadata_map)))
    assert [d.text for d in decoded] == [e["text"] for e in entries]
