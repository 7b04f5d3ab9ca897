"""Pure decoders and clean-up for the layout models: raw output arrays to page-pixel regions."""

from __future__ import annotations

from dataclasses import dataclass
import re

import numpy as np

from engine.types import BlockKind, Box, Region

# DocLayNet class names (YOLOv8 model) to the shared vocabulary.
DOCLAYNET_KINDS: dict[str, BlockKind] = {
    "Caption": BlockKind.CAPTION,
    "Footnote": BlockKind.FOOTNOTE,
    "Formula": BlockKind.FORMULA,
    "List-item": BlockKind.LIST_ITEM,
    "Page-footer": BlockKind.FOOTER,
    "Page-header": BlockKind.HEADER,
    "Picture": BlockKind.FIGURE,
    "Section-header": BlockKind.SECTION_HEADER,
    "Table": BlockKind.TABLE,
    "Text": BlockKind.TEXT,
    "Title": BlockKind.TITLE,
}

# CDLA class names (PicoDet model) to the shared vocabulary. CDLA labels every heading "title",
# from the paper's title to a subsection's; most headings on a page are section headings, so
# that is the kind, and the heading level is left to the font size downstream.
CDLA_KINDS: dict[str, BlockKind] = {
    "text": BlockKind.TEXT,
    "title": BlockKind.SECTION_HEADER,
    "figure": BlockKind.FIGURE,
    "figure_caption": BlockKind.CAPTION,
    "table": BlockKind.TABLE,
    "table_caption": BlockKind.CAPTION,
    "header": BlockKind.HEADER,
    "footer": BlockKind.FOOTER,
    "reference": BlockKind.REFERENCE,
    "equation": BlockKind.FORMULA,
}

# Kinds whose boxes inside a table or figure are parts of that object (cells, axis labels),
# not blocks of their own.
PART_OF_OBJECT_KINDS = frozenset({BlockKind.TEXT, BlockKind.LIST_ITEM,
                                  BlockKind.SECTION_HEADER, BlockKind.FORMULA})


@dataclass(frozen=True)
class Detections:
    """Candidates in one coordinate frame: boxes (N, 4) as x0, y0, x1, y1, scores and class ids."""

    boxes: np.ndarray
    scores: np.ndarray
    class_ids: np.ndarray

    def take(self, index: np.ndarray) -> "Detections":
        return Detections(self.boxes[index], self.scores[index], self.class_ids[index])

    def __len__(self) -> int:
        return len(self.scores)


@dataclass(frozen=True)
class CleanupParams:
    nested_share: float = 0.85
    """Share of a box's area inside another for it to count as nested in it."""
    duplicate_iou: float = 0.8
    """Boxes of different kinds overlapping this much are one block seen twice."""
    min_side_share: float = 0.004
    """Shortest allowed box side, as a share of the page's longer side."""
    min_area_share: float = 5e-5
    """Smallest allowed box area, as a share of the page area."""


def parse_class_names(text: str) -> list[str]:
    """Class names from a metadata value: one per line, or a `{0: 'name', ...}` mapping."""
    pairs = re.findall(r"(\d+)\s*:\s*(['\"])(.*?)\2", text)
    if pairs:
        by_id = {int(index): name for index, _, name in pairs}
        return [by_id.get(i, "") for i in range(max(by_id) + 1)]  # a gap is an unknown class
    return [line.strip() for line in text.splitlines() if line.strip()]


def decode_yolo(output: np.ndarray, score_threshold: float,
                max_candidates: int = 3000) -> Detections:
    """YOLOv8 head output (1, 4 + classes, anchors): centre x, centre y, width, height in model
    pixels, then one (already activated) score per class. The best class per anchor is kept."""
    rows = output[0]
    class_scores = rows[4:]
    class_ids = class_scores.argmax(axis=0)
    scores = class_scores[class_ids, np.arange(class_scores.shape[1])]
    keep = np.flatnonzero(scores >= score_threshold)
    keep = keep[np.argsort(-scores[keep], kind="stable")[:max_candidates]]
    cx, cy, w, h = rows[0, keep], rows[1, keep], rows[2, keep], rows[3, keep]
    boxes = np.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], axis=1)
    return Detections(boxes.astype(np.float32), scores[keep].astype(np.float32),
                      class_ids[keep].astype(np.int64))


def anchor_centers(height: int, width: int, stride: int) -> np.ndarray:
    """(N, 2) x, y centres of the cells of a stride's feature map, row-major, in model pixels."""
    rows = -(-height // stride)
    cols = -(-width // stride)
    ys, xs = np.mgrid[0:rows, 0:cols].astype(np.float32)
    return np.stack([(xs.ravel() + 0.5) * stride, (ys.ravel() + 0.5) * stride], axis=1)


def distribution_distances(box_dist: np.ndarray, reg_max: int) -> np.ndarray:
    """(N, 4 * (reg_max + 1)) bin logits -> (N, 4) expected distances in bins (l, t, r, b)."""
    logits = box_dist.reshape(-1, 4, reg_max + 1).astype(np.float32)
    logits = logits - logits.max(axis=2, keepdims=True)
    weights = np.exp(logits)
    weights /= weights.sum(axis=2, keepdims=True)
    return weights @ np.arange(reg_max + 1, dtype=np.float32)


def decode_gfl(score_maps: list[np.ndarray], box_dists: list[np.ndarray],
               input_hw: tuple[int, int], strides: tuple[int, ...], reg_max: int,
               score_threshold: float) -> Detections:
    """GFL-style heads, one (score, box distribution) pair per stride: scores (1, N, classes)
    already activated, distributions (1, N, 4 * (reg_max + 1)). Each anchor's box is its centre
    minus/plus the expected l, t, r, b distances times the stride, in model pixels."""
    boxes, scores, class_ids = [], [], []
    for score_map, box_dist, stride in zip(score_maps, box_dists, strides):
        per_class = score_map[0]
        best = per_class.argmax(axis=1)
        best_score = per_class[np.arange(len(best)), best]
        keep = np.flatnonzero(best_score >= score_threshold)
        if not len(keep):
            continue
        centers = anchor_centers(input_hw[0], input_hw[1], stride)[keep]
        distances = distribution_distances(box_dist[0][keep], reg_max) * stride
        boxes.append(np.concatenate([centers - distances[:, :2], centers + distances[:, 2:]],
                                    axis=1))
        scores.append(best_score[keep])
        class_ids.append(best[keep])
    if not boxes:
        return Detections(np.zeros((0, 4), np.float32), np.zeros(0, np.float32),
                          np.zeros(0, np.int64))
    return Detections(np.concatenate(boxes).astype(np.float32),
                      np.concatenate(scores).astype(np.float32),
                      np.concatenate(class_ids).astype(np.int64))


def box_iou(box: np.ndarray, others: np.ndarray) -> np.ndarray:
    """IoU of one (4,) box with (N, 4) boxes."""
    inter = _intersection(box, others)
    area = (box[2] - box[0]) * (box[3] - box[1])
    areas = (others[:, 2] - others[:, 0]) * (others[:, 3] - others[:, 1])
    union = area + areas - inter
    return np.where(union > 0, inter / np.maximum(union, 1e-9), 0.0)


def _intersection(box: np.ndarray, others: np.ndarray) -> np.ndarray:
    w = np.minimum(box[2], others[:, 2]) - np.maximum(box[0], others[:, 0])
    h = np.minimum(box[3], others[:, 3]) - np.maximum(box[1], others[:, 1])
    return np.clip(w, 0, None) * np.clip(h, 0, None)


def nms(boxes: np.ndarray, scores: np.ndarray, iou_threshold: float) -> np.ndarray:
    """Greedy non-maximum suppression: indices kept, highest score first."""
    order = np.argsort(-scores, kind="stable")
    kept = []
    while len(order):
        best = order[0]
        kept.append(best)
        rest = order[1:]
        order = rest[box_iou(boxes[best], boxes[rest]) <= iou_threshold]
    return np.asarray(kept, dtype=np.int64)


def nms_per_class(detections: Detections, iou_threshold: float) -> Detections:
    """NMS within each class; boxes of different classes never suppress each other."""
    kept = []
    for class_id in np.unique(detections.class_ids):
        members = np.flatnonzero(detections.class_ids == class_id)
        order = nms(detections.boxes[members], detections.scores[members], iou_threshold)
        kept.append(members[order])
    if not kept:
        return detections
    index = np.concatenate(kept)
    return detections.take(index[np.argsort(-detections.scores[index], kind="stable")])


@dataclass(frozen=True)
class InputFrame:
    """How a page became the model input: a model pixel p is page pixel (p - pad) / scale."""

    scale_x: float
    scale_y: float
    pad_x: float = 0.0
    pad_y: float = 0.0


def to_page(boxes: np.ndarray, frame: InputFrame, page_hw: tuple[int, int]) -> np.ndarray:
    """Model-input boxes -> page pixels: remove the padding, undo the scale, clip to the page."""
    page = np.empty(boxes.shape, dtype=np.float32)
    page[:, [0, 2]] = (boxes[:, [0, 2]] - frame.pad_x) / frame.scale_x
    page[:, [1, 3]] = (boxes[:, [1, 3]] - frame.pad_y) / frame.scale_y
    page[:, [0, 2]] = np.clip(page[:, [0, 2]], 0, page_hw[1])
    page[:, [1, 3]] = np.clip(page[:, [1, 3]], 0, page_hw[0])
    return page


def to_regions(detections: Detections, class_names: list[str],
               kinds: dict[str, BlockKind]) -> list[Region]:
    """Page-pixel detections -> regions; a class the mapping does not know is an error."""
    regions = []
    for box, score, class_id in zip(detections.boxes, detections.scores, detections.class_ids):
        label = class_names[int(class_id)]
        regions.append(Region(kind=kinds[label], box=Box(*(float(v) for v in box)),
                                    score=float(score), label=label))
    return regions


def drop_small(regions: list[Region], page_hw: tuple[int, int],
               params: CleanupParams = CleanupParams()) -> list[Region]:
    """Drop slivers and specks: too thin or too small for the page to be a block."""
    min_side = params.min_side_share * max(page_hw)
    min_area = params.min_area_share * page_hw[0] * page_hw[1]
    return [r for r in regions
            if min(r.box.width, r.box.height) >= min_side and r.box.area >= min_area]


def _nested_in(inner: Box, outer: Box, share: float) -> bool:
    return 0 < inner.area < outer.area and inner.share_inside(outer) >= share


def _iou(a: Box, b: Box) -> float:
    inter = a.intersection_area(b)
    union = a.area + b.area - inter
    return inter / union if union > 0 else 0.0


def clean_overlaps(regions: list[Region],
                   params: CleanupParams = CleanupParams()) -> list[Region]:
    """Resolve overlaps between regions the models leave after NMS:
    - near-duplicates of different kinds: the higher score stays;
    - a box nested in a larger box of the same kind: the larger stays;
    - text-like boxes nested in a table: the table stays (its cells are filled from that text);
    - text-like boxes nested in a figure: the figure stays unless the text is the more
      confident of the two. A figure's text ends up in its image, so a doubtful figure drawn
      around a block of text must not take that text out of the document."""
    ranked = sorted(regions, key=lambda r: -r.score)
    kept: list[Region] = []
    for region in ranked:
        if any(other.kind != region.kind and _iou(region.box, other.box) >= params.duplicate_iou
               for other in kept):
            continue
        kept.append(region)
    dropped = set()
    for i, region in enumerate(kept):
        for other in kept:
            if other is region:
                continue
            same_kind = other.kind == region.kind
            part_of_object = region.kind in PART_OF_OBJECT_KINDS and (
                other.kind is BlockKind.TABLE
                or (other.kind is BlockKind.FIGURE and other.score >= region.score))
            if (same_kind or part_of_object) and \
                    _nested_in(region.box, other.box, params.nested_share):
                dropped.add(i)
                break
    return [r for i, r in enumerate(kept) if i not in dropped]


def sort_top_down(regions: list[Region]) -> list[Region]:
    """A stable order for callers and tests (reading order is its own stage)."""
    return sorted(regions, key=lambda r: (round(r.box.y0), round(r.box.x0)))
