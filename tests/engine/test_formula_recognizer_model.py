"""The shipped formula model as ModelSet builds it: real readings of evaluation images, batches,
blank crops, its sessions, and the manifest without a formula model."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from tools.eval.edit_distance import similarity

from engine.formulas.model import DECODER_THREADS, TRAINED_MAX_HEIGHT, fit
from engine.formulas.latex_tokens import normalized
from engine.models.store import load_manifest
from engine.model_set import ModelSet
from engine.runtime.sessions import FormulaSessions

REPO_ROOT = Path(__file__).resolve().parents[2]
FORMULA_EVAL_DIR = REPO_ROOT.parent / "shared" / "eval" / "formula"
# Read exactly (after normalisation) with confidence 0.86-0.92 when they were chosen: a
# pdflatex line, a taller one with scripts, and a 1024x768 KaTeX screenshot with the formula in
# its top-left corner (the recogniser crops to the ink itself).
READ_EXACTLY = ("im2latex-smallocr-219", "im2latex-smallocr-978", "katex-ss-LeftRightListStyling-chrome")


@pytest.fixture(scope="module")
def models(tmp_path_factory) -> ModelSet:
    """A CPU ModelSet on the shipped manifest; the formula model needs no model folder."""
    return ModelSet(tmp_path_factory.mktemp("models"), None)


@pytest.fixture(scope="module")
def recognizer(models):
    return models.formula_recognizer()


@pytest.fixture(scope="module")
def eval_items() -> dict[str, dict]:
    if not FORMULA_EVAL_DIR.is_dir():
        pytest.skip(f"formula evaluation images not found at {FORMULA_EVAL_DIR}")
    manifest = json.loads((FORMULA_EVAL_DIR / "manifest.json").read_text(encoding="utf-8"))
    return {item["id"]: item for item in manifest}


def read_rgb(path: Path) -> np.ndarray:
    return cv2.cvtColor(cv2.imread(str(path)), cv2.COLOR_BGR2RGB)


def eval_crops(eval_items, ids) -> list[np.ndarray]:
    return [read_rgb(FORMULA_EVAL_DIR / eval_items[i]["input"]) for i in ids]


def test_recogniser_is_built_once_with_the_decoder_on_the_cpu(models, recognizer):
    assert models.formula_recognizer() is recognizer
    assert isinstance(recognizer.encoder, FormulaSessions)
    assert recognizer.decoder.info.requested_device == "cpu"
    assert recognizer.decoder.info.model_path.endswith("formula-decoder.onnx")
    assert recognizer.decoder.info.threads == DECODER_THREADS == 1  # its steps are too small to share
    encoder = recognizer.encoder.plan(1)[0][2]
    assert encoder.info.threads == models.sessions.threads
    assert recognizer.vocabulary[:3] == ["<pad>", "<bos>", "<eos>"]


def test_eval_images_are_read_to_their_truth(recognizer, eval_items):
    readings = recognizer.read(eval_crops(eval_items, READ_EXACTLY))
    for item_id, reading in zip(READ_EXACTLY, readings):
        assert reading is not None, item_id
        assert normalized(reading.latex) == normalized(eval_items[item_id]["truth"]), item_id
        assert not reading.low_confidence and not reading.truncated, (item_id, reading.confidence)


def test_a_batch_reads_like_one_crop_at_a_time(recognizer, eval_items):
    ids = sorted(eval_items)[:10]  # different widths, so the batch is padded
    crops = eval_crops(eval_items, ids)
    together = recognizer.read(crops)
    alone = [recognizer.read([crop])[0] for crop in crops]
    assert [r.latex for r in together] == [r.latex for r in alone]
    assert [r.confidence for r in together] == pytest.approx([r.confidence for r in alone], abs=1e-3)


def test_a_blank_crop_gives_no_reading(recognizer):
    white = np.full((60, 200, 3), 255, np.uint8)
    assert recognizer.read([white, np.zeros((0, 0, 3), np.uint8)]) == [None, None]
    assert recognizer.recognize([white]) == [None]


def test_a_formula_of_two_lines_is_read_line_by_line(recognizer, eval_items):
    # A two-line array from im2latex: read whole (16 px per line) it scored 0.67.
    item_id = "im2latex-smallocr-645"
    reading = recognizer.read(eval_crops(eval_items, [item_id]))[0]
    assert reading.latex.startswith("\\begin{array} { l } ") and reading.latex.count("\\\\") == 1
    truth = normalized(eval_items[item_id]["truth"])
    assert similarity(normalized(reading.latex), truth) > 0.8


def test_a_large_crop_is_drawn_as_training_saw_it():
    # Training renders were stored at most TRAINED_MAX_HEIGHT px high and scaled up to 64: a sharp
    # 4x crop of a formula must not reach the model with edges sharper than the formula at that
    # height (brought straight down to 64 px, its steepest step is 0.50 against 0.42).
    rng = np.random.default_rng(0)
    small = np.zeros((44, 180), np.float32)  # 44 px of ink + 2 x 3% padding = 46 px
    small[[0, -1], 2:8] = 1.0
    for _ in range(25):
        y, x = rng.integers(2, small.shape[0] - 8), rng.integers(2, small.shape[1] - 10)
        small[y:y + 6, x:x + 2] = 1.0
    large = cv2.resize(small, None, fx=4, fy=4, interpolation=cv2.INTER_NEAREST)
    steepest = [np.abs(np.diff(fit(ink), axis=1)).max() for ink in (large, small)]
    assert steepest[0] <= steepest[1] + 0.02


def test_without_a_formula_model_in_the_manifest_there_is_no_recogniser(tmp_path):
    manifest = {id_: spec for id_, spec in load_manifest().items() if spec.role != "formula"}
    assert ModelSet(tmp_path, None, manifest=manifest).formula_recognizer() is None
