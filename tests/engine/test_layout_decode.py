"""engine.layout.decode and the LayoutDetector contract: both decoders on fabricated outputs."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from engine.errors import ModelUnavailable
from engine.imaging import letterbox
from engine.layout.detector import (
    LAYOUT_MODELS,
    PICODET_INPUT_HW,
    PICODET_REG_MAX,
    PICODET_STRIDES,
    LayoutDetector,
    LayoutModelKind,
    class_names_for,
)
from engine.layout.decode import (
    CDLA_KINDS,
    DOCLAYNET_KINDS,
    CleanupParams,
    Detections,
    InputFrame,
    anchor_centers,
    clean_overlaps,
    decode_gfl,
    decode_yolo,
    distribution_distances,
    drop_small,
    nms,
    nms_per_class,
    parse_class_names,
    to_page,
)
from engine.types import BlockKind, Box, Region

MANIFEST = Path(__file__).resolve().parents[2] / "resources" / "models.json"
DOCLAYNET_NAMES = ["Caption", "Footnote", "Formula", "List-item", "Page-footer", "Page-header",
                   "Picture", "Section-header", "Table", "Text", "Title"]
CDLA_NAMES = ["text", "title", "figure", "figure_caption", "table", "table_caption", "header",
              "footer", "reference", "equation"]


class FakeSession:
    """Stands in for a ModelSession: fixed metadata, fixed outputs, records the input it got."""

    def __init__(self, metadata: dict[str, str], outputs: list[np.ndarray]) -> None:
        self.metadata = metadata
        self.input_names = ["image"]
        self._outputs = outputs
        self.inputs: list[np.ndarray] = []

    def run(self, *inputs: np.ndarray) -> list[np.ndarray]:
        self.inputs.extend(inputs)
        return self._outputs


def yolo_output(boxes_cxcywh: list[tuple[float, float, float, float]], class_ids: list[int],
                scores: list[float], classes: int = 11, anchors: int = 8) -> np.ndarray:
    out = np.zeros((1, 4 + classes, anchors), dtype=np.float32)
    out[0, 4:, :] = 0.01
    for i, (box, class_id, score) in enumerate(zip(boxes_cxcywh, class_ids, scores)):
        out[0, :4, i] = box
        out[0, 4 + class_id, i] = score
    return out


def cxcywh(x0: float, y0: float, x1: float, y1: float) -> tuple[float, float, float, float]:
    return ((x0 + x1) / 2, (y0 + y1) / 2, x1 - x0, y1 - y0)


def region(kind: BlockKind, box: tuple[float, float, float, float],
           score: float = 0.9) -> Region:
    return Region(kind=kind, box=Box(*box), score=score, label=kind.value)


# --- YOLOv8 decoding and letterbox inversion -------------------------------------------------


def test_decode_yolo_keeps_confident_anchors_as_corner_boxes_with_their_best_class():
    out = yolo_output([(50, 40, 20, 10), (10, 10, 4, 4)], class_ids=[8, 9], scores=[0.9, 0.2])
    detections = decode_yolo(out, score_threshold=0.3)
    assert len(detections) == 1
    assert detections.boxes[0].tolist() == pytest.approx([40, 35, 60, 45])
    assert detections.class_ids.tolist() == [8]
    assert detections.scores[0] == pytest.approx(0.9)


def test_yolo_boxes_map_back_through_the_letterbox_to_page_pixels():
    page_hw = (100, 200)
    _, scale, pad_x, pad_y = letterbox(np.zeros(page_hw + (3,), np.uint8), 64, 114)
    assert (scale, pad_x, pad_y) == (pytest.approx(0.32), 0, 16)
    frame = InputFrame(scale, scale, pad_x, pad_y)
    page_boxes = [(20, 10, 60, 50), (100, 40, 180, 90)]
    model_boxes = [cxcywh(x0 * scale + pad_x, y0 * scale + pad_y, x1 * scale + pad_x,
                          y1 * scale + pad_y) for x0, y0, x1, y1 in page_boxes]
    detections = decode_yolo(yolo_output(model_boxes, [9, 8], [0.8, 0.95]), 0.3)
    mapped = to_page(detections.boxes, frame, page_hw)
    # Highest score first: the table, then the text.
    assert mapped[0].tolist() == pytest.approx(list(page_boxes[1]), abs=1e-3)
    assert mapped[1].tolist() == pytest.approx(list(page_boxes[0]), abs=1e-3)


def test_to_page_clips_to_the_page():
    boxes = np.array([[-10, -5, 300, 20]], dtype=np.float32)
    assert to_page(boxes, InputFrame(1.0, 1.0), (50, 100))[0].tolist() == [0, 0, 100, 20]


def test_detector_with_the_yolo_model_returns_two_regions_in_page_pixels():
    page = np.full((1000, 500, 3), 255, np.uint8)
    scale, pad_x = 1024 / 1000, (1024 - 512) // 2
    text = (50, 100, 450, 300)
    table = (50, 400, 450, 800)
    model_boxes = [cxcywh(x0 * scale + pad_x, y0 * scale, x1 * scale + pad_x, y1 * scale)
                   for x0, y0, x1, y1 in (text, table)]
    names = str(dict(enumerate(DOCLAYNET_NAMES)))  # the model's metadata style
    session = FakeSession({"names": names}, [yolo_output(model_boxes, [9, 8], [0.9, 0.8])])
    regions = LayoutDetector(session, LayoutModelKind.DOCLAYNET_YOLO).detect(page)
    assert session.inputs[0].shape == (1, 3, 1024, 1024)
    assert session.inputs[0].dtype == np.float32 and session.inputs[0].max() <= 1.0
    assert [(r.kind, r.label) for r in regions] == [(BlockKind.TEXT, "Text"),
                                                    (BlockKind.TABLE, "Table")]
    assert regions[0].box.as_list() == pytest.approx(list(text), abs=0.5)
    assert regions[1].box.as_list() == pytest.approx(list(table), abs=0.5)


# --- PicoDet (GFL) decoding ----------------------------------------------------------------


def test_anchor_centers_are_cell_centres_in_row_major_order():
    centers = anchor_centers(16, 24, 8)
    assert centers.tolist() == [[4, 4], [12, 4], [20, 4], [4, 12], [12, 12], [20, 12]]
    # Partial cells count: ceil(800 / 64) x ceil(608 / 64).
    assert len(anchor_centers(800, 608, 64)) == 130


def test_distribution_distances_are_expected_bins():
    reg_max = 3
    logits = np.zeros((1, 4 * (reg_max + 1)), dtype=np.float32)  # uniform: expectation 1.5
    assert distribution_distances(logits, reg_max)[0].tolist() == pytest.approx([1.5] * 4)
    peaked = np.full((4, reg_max + 1), -50.0, dtype=np.float32)
    peaked[[0, 1, 2, 3], [1, 2, 0, 3]] = 50.0
    assert distribution_distances(peaked.reshape(1, -1), reg_max)[0].tolist() == \
        pytest.approx([1, 2, 0, 3], abs=1e-4)


def peaked_distribution(bins_ltrb: tuple[int, int, int, int], reg_max: int) -> np.ndarray:
    logits = np.full((4, reg_max + 1), -50.0, dtype=np.float32)
    logits[np.arange(4), list(bins_ltrb)] = 50.0
    return logits.reshape(-1)


def test_decode_gfl_places_the_box_around_its_anchor_at_its_stride():
    reg_max, classes = 3, 2
    strides = (8, 16)
    scores = [np.zeros((1, 4, classes), np.float32), np.zeros((1, 1, classes), np.float32)]
    dists = [np.zeros((1, 4, 4 * (reg_max + 1)), np.float32),
             np.zeros((1, 1, 4 * (reg_max + 1)), np.float32)]
    scores[0][0, 3, 1] = 0.9  # stride 8, cell (row 1, col 1): centre (12, 12)
    dists[0][0, 3] = peaked_distribution((1, 2, 0, 1), reg_max)
    detections = decode_gfl(scores, dists, (16, 16), strides, reg_max, score_threshold=0.5)
    assert detections.boxes.tolist() == [pytest.approx([4, -4, 12, 20], abs=1e-3)]
    assert detections.class_ids.tolist() == [1]


def test_decode_gfl_with_nothing_confident_is_empty():
    detections = decode_gfl([np.zeros((1, 4, 2), np.float32)], [np.zeros((1, 4, 16), np.float32)],
                            (16, 16), (8,), 3, score_threshold=0.5)
    assert len(detections) == 0 and detections.boxes.shape == (0, 4)


def picodet_heads(anchor: int, stride_index: int, class_id: int,
                  bins_ltrb: tuple[int, int, int, int]) -> list[np.ndarray]:
    height, width = PICODET_INPUT_HW
    counts = [len(anchor_centers(height, width, s)) for s in PICODET_STRIDES]
    scores = [np.zeros((1, n, len(CDLA_NAMES)), np.float32) for n in counts]
    dists = [np.zeros((1, n, 4 * (PICODET_REG_MAX + 1)), np.float32) for n in counts]
    scores[stride_index][0, anchor, class_id] = 0.95
    dists[stride_index][0, anchor] = peaked_distribution(bins_ltrb, PICODET_REG_MAX)
    return scores + dists  # the model's output order: four score maps, then four distributions


def test_detector_with_the_picodet_model_decodes_one_table_in_page_pixels():
    # Stride 32 map is 19 cells wide; cell (row 10, col 9) has its centre at (304, 336).
    anchor = 10 * 19 + 9
    outputs = picodet_heads(anchor, stride_index=2, class_id=4, bins_ltrb=(7, 5, 7, 6))
    session = FakeSession({"character": "\n".join(CDLA_NAMES)}, outputs)
    page = np.full((1600, 1216, 3), 255, np.uint8)  # twice the model input
    regions = LayoutDetector(session, LayoutModelKind.CDLA_PICODET).detect(page)
    assert session.inputs[0].shape == (1, 3, 800, 608)
    (table,) = regions
    assert (table.kind, table.label) == (BlockKind.TABLE, "table")
    # Model box: 304 -/+ 7*32 across, 336 - 5*32 .. 336 + 6*32 down; the page is 2x.
    assert table.box.as_list() == pytest.approx([160, 352, 1056, 1056], abs=0.05)
    assert table.score == pytest.approx(0.95)


# --- NMS --------------------------------------------------------------------------------------


def test_nms_suppresses_overlapping_lower_scores_and_keeps_separate_boxes():
    boxes = np.array([[0, 0, 10, 10], [1, 1, 11, 11], [20, 20, 30, 30]], dtype=np.float32)
    scores = np.array([0.8, 0.9, 0.7], dtype=np.float32)
    assert nms(boxes, scores, iou_threshold=0.5).tolist() == [1, 2]
    assert nms(boxes, scores, iou_threshold=0.95).tolist() == [1, 0, 2]


def test_nms_per_class_never_suppresses_across_classes():
    boxes = np.array([[0, 0, 10, 10], [0, 0, 10, 10], [1, 0, 10, 10]], dtype=np.float32)
    detections = Detections(boxes, np.array([0.9, 0.8, 0.7], np.float32), np.array([0, 1, 0]))
    kept = nms_per_class(detections, iou_threshold=0.5)
    assert kept.class_ids.tolist() == [0, 1]
    assert kept.scores.tolist() == pytest.approx([0.9, 0.8])


# --- overlap clean-up and small regions ------------------------------------------------------


def test_nested_box_of_the_same_kind_is_dropped():
    outer = region(BlockKind.TEXT, (0, 0, 100, 100), 0.6)
    inner = region(BlockKind.TEXT, (10, 10, 50, 50), 0.9)
    assert clean_overlaps([outer, inner]) == [outer]


def test_text_inside_a_table_or_figure_is_dropped_but_a_caption_is_kept():
    table = region(BlockKind.TABLE, (0, 0, 100, 100), 0.8)
    figure = region(BlockKind.FIGURE, (200, 0, 300, 100), 0.8)
    cell = region(BlockKind.TEXT, (10, 10, 40, 20), 0.95)
    label = region(BlockKind.SECTION_HEADER, (210, 10, 260, 20), 0.5)
    caption = region(BlockKind.CAPTION, (210, 80, 290, 98), 0.9)
    kept = clean_overlaps([table, figure, cell, label, caption])
    assert set(kept) == {table, figure, caption}


def test_a_doubtful_figure_does_not_swallow_more_confident_text():
    figure = region(BlockKind.FIGURE, (0, 0, 100, 100), 0.6)
    text = region(BlockKind.TEXT, (10, 10, 90, 40), 0.8)
    assert set(clean_overlaps([figure, text])) == {figure, text}
    table = region(BlockKind.TABLE, (0, 0, 100, 100), 0.6)
    assert clean_overlaps([table, text]) == [table]


def test_near_duplicates_of_different_kinds_keep_the_higher_score():
    text = region(BlockKind.TEXT, (0, 0, 100, 50), 0.7)
    list_item = region(BlockKind.LIST_ITEM, (1, 1, 100, 51), 0.9)
    assert clean_overlaps([text, list_item]) == [list_item]


def test_partly_overlapping_regions_both_stay():
    a = region(BlockKind.TEXT, (0, 0, 100, 50), 0.7)
    b = region(BlockKind.FORMULA, (0, 30, 100, 80), 0.9)
    assert set(clean_overlaps([a, b])) == {a, b}


def test_small_regions_are_dropped_relative_to_the_page():
    params = CleanupParams(min_side_share=0.01, min_area_share=0.001)
    page_hw = (1000, 800)  # min side 10 px, min area 800 px^2
    keep = region(BlockKind.FOOTER, (0, 0, 40, 20))
    sliver = region(BlockKind.TEXT, (0, 0, 500, 5))
    speck = region(BlockKind.TEXT, (0, 0, 25, 25))
    assert drop_small([keep, sliver, speck], page_hw, params) == [keep]


# --- class names and mapping -----------------------------------------------------------------


def test_parse_class_names_reads_both_metadata_styles():
    mapping = "{0: 'Caption', 10: 'Title', 1: 'Footnote', 2: 'Formula', 3: 'List-item', " \
              "4: 'Page-footer', 5: 'Page-header', 6: 'Picture', 7: 'Section-header', " \
              "8: 'Table', 9: 'Text'}"
    assert parse_class_names(mapping) == DOCLAYNET_NAMES
    assert parse_class_names("text\ntitle\n\nfigure\n") == ["text", "title", "figure"]


def test_both_class_sets_map_into_the_shared_vocabulary():
    assert list(DOCLAYNET_KINDS) == DOCLAYNET_NAMES
    assert list(CDLA_KINDS) == CDLA_NAMES
    assert DOCLAYNET_KINDS["Picture"] is BlockKind.FIGURE
    assert DOCLAYNET_KINDS["Page-header"] is BlockKind.HEADER
    assert CDLA_KINDS["table_caption"] is BlockKind.CAPTION
    assert CDLA_KINDS["equation"] is BlockKind.FORMULA
    assert CDLA_KINDS["reference"] is BlockKind.REFERENCE


def test_manifest_class_list_agrees_with_the_mapping():
    models = {m["id"]: m for m in json.loads(MANIFEST.read_text(encoding="utf-8"))["models"]}
    assert models["yolov8n-doclaynet"]["info"]["classes"] == DOCLAYNET_NAMES
    for kind in LayoutModelKind:
        assert models[kind.value]["role"] == "layout"


def test_class_names_fall_back_to_the_known_order_and_reject_unknown_classes():
    spec = LAYOUT_MODELS[LayoutModelKind.CDLA_PICODET]
    assert class_names_for({}, spec, LayoutModelKind.CDLA_PICODET) == CDLA_NAMES
    with pytest.raises(ModelUnavailable, match="sidebar"):
        class_names_for({"character": "text\nsidebar"}, spec, LayoutModelKind.CDLA_PICODET)
