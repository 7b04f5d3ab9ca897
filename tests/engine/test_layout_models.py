"""Both real layout models on real pages of the dev set: the regions a reader would expect."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from engine.input.document import open_document
from engine.layout.detector import LayoutDetector, LayoutModelKind
from engine.types import BlockKind, Region

pytestmark = pytest.mark.model

HEADINGS = {BlockKind.TITLE, BlockKind.SECTION_HEADER}


@pytest.fixture(scope="module", params=list(LayoutModelKind), ids=lambda kind: kind.value)
def detector(request, engine) -> LayoutDetector:
    models = engine.models
    model_id = request.param.value
    if not models.store.status(model_id).installed:
        pytest.skip(f"layout model {model_id} not in the model cache")
    return models.layout_detector(model_id)


def render_pdf(path: Path) -> np.ndarray:
    with open_document(path) as document:
        return document.render(1, 200, 4000).image


def check_in_page(regions: list[Region], image: np.ndarray) -> None:
    height, width = image.shape[:2]
    for region in regions:
        box = region.box
        assert 0 <= box.x0 < box.x1 <= width and 0 <= box.y0 < box.y1 <= height, region
        assert 0 < region.score <= 1


def of_kind(regions: list[Region], *kinds: BlockKind) -> list[Region]:
    return [r for r in regions if r.kind in kinds]


def test_academic_page_has_its_table_and_paragraphs(detector, eval_dev_dir):
    image = render_pdf(eval_dev_dir / "items" / "docling-2305.03393v1-pg9" / "input.pdf")
    height, width = image.shape[:2]
    regions = detector.detect(image)
    check_in_page(regions, image)
    # The table sits in the middle of the page, across most of the text width.
    tables = [r for r in of_kind(regions, BlockKind.TABLE)
              if 0.35 * height < r.box.center_y < 0.65 * height and r.box.width > 0.4 * width]
    assert len(tables) == 1
    assert len(of_kind(regions, BlockKind.TEXT)) >= 3
    # "5.1 Hyper Parameter Optimization" and "5.2 Quantitative Results".
    assert len(of_kind(regions, *HEADINGS)) >= 2


def test_multi_column_page_has_a_wide_title_and_text_in_both_columns(detector, eval_dev_dir):
    image = render_pdf(eval_dev_dir / "items" / "olmocr-multi_column_miss" / "input.pdf")
    height, width = image.shape[:2]
    regions = detector.detect(image)
    check_in_page(regions, image)
    # "Corporate social responsibility and the tobacco industry: hope or hype?" spans the page.
    titles = [r for r in of_kind(regions, *HEADINGS)
              if r.box.width > 0.6 * width and 0.3 * height < r.box.center_y < 0.5 * height]
    assert titles
    texts = of_kind(regions, BlockKind.TEXT)
    assert any(r.box.center_x < 0.4 * width for r in texts)
    assert any(r.box.center_x > 0.6 * width for r in texts)
    assert len(texts) >= 5


def test_table_crop_is_one_table(detector, eval_dev_dir):
    path = eval_dev_dir / "items" / "pubtabnet-PMC4172848_007_00" / "input.png"
    image = np.ascontiguousarray(cv2.imread(str(path))[:, :, ::-1])
    height, width = image.shape[:2]
    regions = detector.detect(image)
    check_in_page(regions, image)
    tables = of_kind(regions, BlockKind.TABLE)
    assert len(tables) == 1
    assert tables[0].box.area > 0.7 * height * width
