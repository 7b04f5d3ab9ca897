"""engine.tables.recognizer with the real SLANet-plus model and OCR on PubTabNet crops of the dev set."""

from __future__ import annotations

import pytest

from tools.eval.scoring import teds, teds_structure
from tools.table_check import read_rgb, scale_lines, truth_grid, upscale

pytestmark = pytest.mark.model

# The crops are small scans (text ~10 px high); OCR reads them at twice their size.
OCR_SCALE = 2.0
# (item, TEDS floor): measured 0.970, 0.963 and 0.991 with OCR_SCALE 2 (tools.table_check),
# less a margin for OCR and ONNX Runtime differences between machines.
ITEMS = [
    ("pubtabnet-PMC1626454_002_00", 0.90),  # head with colspans, 12 columns
    ("pubtabnet-PMC5198506_004_00", 0.88),  # small, 7 x 3
    ("pubtabnet-PMC5402779_004_00", 0.92),
]


@pytest.fixture(scope="module")
def table_models(engine):
    models = engine.models
    spec = models.store.default_for_role("table")
    if not models.store.status(spec.id).installed:
        pytest.skip(f"table model {spec.id} not in the model cache")
    return models.page_reader(), models.table_recognizer()


@pytest.mark.parametrize("item,floor", ITEMS)
def test_pubtabnet_crop_structure_and_text(item, floor, table_models, eval_dev_dir):
    reader, recognizer = table_models
    folder = eval_dev_dir / "items" / item
    crop = read_rgb(folder / "input.png")
    truth = (folder / "truth.html").read_text(encoding="utf-8")
    lines = scale_lines(reader.read(upscale(crop, OCR_SCALE)).lines, 1 / OCR_SCALE)

    result = recognizer.recognize(crop, lines)

    assert result.ok, result.reason
    assert (result.n_rows, result.n_cols) == truth_grid(truth)
    assert result.score > 0.9
    height, width = crop.shape[:2]
    assert all(0 <= c.box.x0 <= c.box.x1 <= width and 0 <= c.box.y0 <= c.box.y1 <= height
               for c in result.cells)
    assert teds_structure(result.html, truth) >= 0.95
    assert teds(result.html, truth) >= floor
