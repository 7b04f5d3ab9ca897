"""Page layout: both default layout models behind one interface, regions in page pixels."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Callable

import numpy as np

from engine.errors import ModelUnavailable
from engine.imaging import letterbox, resize_averaging, to_chw_imagenet, to_chw_normalized
from engine.layout.decode import (
    CDLA_KINDS,
    DOCLAYNET_KINDS,
    CleanupParams,
    Detections,
    InputFrame,
    clean_overlaps,
    decode_gfl,
    decode_yolo,
    drop_small,
    nms_per_class,
    parse_class_names,
    sort_top_down,
    to_page,
    to_regions,
)
from engine.runtime.sessions import ModelSession
from engine.runtime.steps import StepClock, timed_step
from engine.types import BlockKind, Region

__all__ = ["LayoutDetector", "LayoutModelKind", "LayoutParams"]

# YOLOv8 was trained on RGB scaled to [0, 1], letterboxed on grey (114).
YOLO_INPUT_SIDE = 1024
YOLO_PAD_VALUE = 114
# PicoDet was trained on RGB stretched to 800 x 608 (H x W) with ImageNet statistics.
PICODET_INPUT_HW = (800, 608)
PICODET_STRIDES = (8, 16, 32, 64)
PICODET_REG_MAX = 7


class LayoutModelKind(str, Enum):
    """The layout models Paperlens can decode; values are their manifest ids."""

    DOCLAYNET_YOLO = "yolov8n-doclaynet"
    CDLA_PICODET = "cdla-picodet"


@dataclass(frozen=True)
class LayoutParams:
    score_threshold: float
    """Class confidence a candidate needs before NMS."""
    iou_threshold: float
    """Same-class boxes overlapping more than this are one detection."""
    cleanup: CleanupParams = field(default_factory=CleanupParams)


Prepare = Callable[[np.ndarray], tuple[np.ndarray, InputFrame]]
Decode = Callable[[list[np.ndarray], LayoutParams], Detections]


def prepare_yolo(image_rgb: np.ndarray) -> tuple[np.ndarray, InputFrame]:
    square, scale, pad_x, pad_y = letterbox(image_rgb, YOLO_INPUT_SIDE, YOLO_PAD_VALUE)
    tensor = to_chw_normalized(square, (0.0, 0.0, 0.0), (1.0, 1.0, 1.0))[None]
    return tensor, InputFrame(scale, scale, pad_x, pad_y)


def decode_yolo_outputs(outputs: list[np.ndarray], params: LayoutParams) -> Detections:
    return decode_yolo(outputs[0], params.score_threshold)


def prepare_picodet(image_rgb: np.ndarray) -> tuple[np.ndarray, InputFrame]:
    height, width = image_rgb.shape[:2]
    target_h, target_w = PICODET_INPUT_HW
    resized = resize_averaging(image_rgb, target_w, target_h)
    tensor = to_chw_imagenet(resized)[None]
    return tensor, InputFrame(target_w / width, target_h / height)


def decode_picodet_outputs(outputs: list[np.ndarray], params: LayoutParams) -> Detections:
    # Score maps and box distributions come as separate outputs; tell them apart by their last
    # axis and put each list in stride order (most anchors first).
    bins = 4 * (PICODET_REG_MAX + 1)
    box_dists = sorted((o for o in outputs if o.shape[-1] == bins), key=lambda o: -o.shape[1])
    score_maps = sorted((o for o in outputs if o.shape[-1] != bins), key=lambda o: -o.shape[1])
    return decode_gfl(score_maps, box_dists, PICODET_INPUT_HW, PICODET_STRIDES, PICODET_REG_MAX,
                      params.score_threshold)


@dataclass(frozen=True)
class LayoutModelSpec:
    kinds: dict[str, BlockKind]
    """The model's class names mapped into the shared vocabulary."""
    names_metadata_key: str
    default_names: tuple[str, ...]
    """Class order when the model's metadata does not say."""
    params: LayoutParams
    prepare: Prepare
    decode: Decode


LAYOUT_MODELS: dict[LayoutModelKind, LayoutModelSpec] = {
    LayoutModelKind.DOCLAYNET_YOLO: LayoutModelSpec(
        kinds=DOCLAYNET_KINDS,
        names_metadata_key="names",
        default_names=tuple(DOCLAYNET_KINDS),
        params=LayoutParams(score_threshold=0.3, iou_threshold=0.45),
        prepare=prepare_yolo,
        decode=decode_yolo_outputs,
    ),
    LayoutModelKind.CDLA_PICODET: LayoutModelSpec(
        kinds=CDLA_KINDS,
        names_metadata_key="character",
        default_names=tuple(CDLA_KINDS),
        params=LayoutParams(score_threshold=0.4, iou_threshold=0.5),
        prepare=prepare_picodet,
        decode=decode_picodet_outputs,
    ),
}


def class_names_for(metadata: dict[str, str], spec: LayoutModelSpec,
                    model: LayoutModelKind) -> list[str]:
    """The model's class names (from its metadata when present), each known to the mapping."""
    raw = metadata.get(spec.names_metadata_key)
    names = parse_class_names(raw) if raw else list(spec.default_names)
    unknown = [n for n in names if n not in spec.kinds]
    if unknown:
        raise ModelUnavailable(f"Layout model {model.value} has classes Paperlens cannot map: "
                               f"{', '.join(unknown)}.")
    return names


class LayoutDetector:
    """Finds layout regions (title, text, table, figure, ...) in an RGB page image."""

    def __init__(self, session: ModelSession, model: LayoutModelKind,
                 params: LayoutParams | None = None, steps: StepClock | None = None) -> None:
        self._session = session
        self.steps = steps or StepClock()
        """Times the step `layout` (the model set's clock, which a page's timings read)."""
        self.model = model
        self._spec = LAYOUT_MODELS[model]
        self._params = params or self._spec.params
        self.class_names = class_names_for(session.metadata, self._spec, model)

    @timed_step("layout")
    def detect(self, image_rgb: np.ndarray) -> list[Region]:
        page_hw = image_rgb.shape[:2]
        tensor, frame = self._spec.prepare(image_rgb)
        outputs = self._session.run(tensor)
        detections = nms_per_class(self._spec.decode(outputs, self._params),
                                   self._params.iou_threshold)
        page = Detections(to_page(detections.boxes, frame, page_hw), detections.scores,
                          detections.class_ids)
        regions = to_regions(page, self.class_names, self._spec.kinds)
        regions = drop_small(regions, page_hw, self._params.cleanup)
        return sort_top_down(clean_overlaps(regions, self._params.cleanup))
