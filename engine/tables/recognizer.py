"""Table recognition: SLANet-plus structure and cell boxes, filled with the crop's text lines."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from engine.errors import ModelUnavailable
from engine.imaging import composite_on_white, to_chw_imagenet
from engine.runtime.sessions import ModelSession
from engine.content.table_html import table_html
from engine.tables.cell_rules import TABLE_CELLS, TableCellRules
from engine.tables.cells import fill_cells
from engine.content.tables import Table, TableCell
from engine.tables.structure import (Skeleton, TableParseError, TableVocabulary, decode_tokens,
                                    parse_skeleton, quads_to_boxes)
from engine.types import Box, Line

# The square the model reads: the crop's longer side is scaled to it, the rest is padding.
CANVAS_PX = 488
# Below this many pixels a side holds no readable table.
MIN_SIDE_PX = 8


@dataclass(frozen=True)
class ReadCell:
    """One cell as the model read it: grid position of its top-left, spans, box in crop
    pixels, text."""

    row: int
    col: int
    rowspan: int
    colspan: int
    box: Box
    text: str
    header: bool = False
    """The model put the cell in the table head."""


@dataclass(frozen=True)
class TableResult:
    """A recognised table, or (ok=False) the reason it could not be read."""

    table: Table | None
    """The cells as typed content (None when the table could not be read)."""
    cells: tuple[ReadCell, ...]
    n_rows: int
    n_cols: int
    score: float
    """Mean probability of the decoded structure tokens."""
    ok: bool
    reason: str = ""
    """Why the table could not be read; empty when ok."""

    @classmethod
    def failed(cls, reason: str, score: float = 0.0) -> "TableResult":
        return cls(table=None, cells=(), n_rows=0, n_cols=0, score=score, ok=False, reason=reason)

    @property
    def html(self) -> str:
        """The table as our HTML ("" when it could not be read)."""
        return table_html(self.table) if self.table is not None else ""


def prepare_input(crop_rgb: np.ndarray, canvas_px: int = CANVAS_PX
                  ) -> tuple[np.ndarray, float, float]:
    """RGB crop -> (1, 3, canvas, canvas) float32 and the (x, y) resize factors applied.

    The longer side becomes `canvas_px` (ratio kept); the image sits top-left on a canvas of
    zeros, which after normalisation is the mean colour."""
    height, width = crop_rgb.shape[:2]
    ratio = canvas_px / max(height, width)
    new_w = min(canvas_px, max(1, int(round(width * ratio))))
    new_h = min(canvas_px, max(1, int(round(height * ratio))))
    interpolation = cv2.INTER_AREA if ratio < 1 else cv2.INTER_CUBIC
    resized = cv2.resize(crop_rgb, (new_w, new_h), interpolation=interpolation)
    # ImageNet statistics, applied to BGR planes as the model's training pipeline (OpenCV) read
    # them. On grey scans the order makes no difference; on colour tables it follows training.
    planes = to_chw_imagenet(resized[:, :, ::-1])
    tensor = np.zeros((1, 3, canvas_px, canvas_px), dtype=np.float32)
    tensor[0, :, :new_h, :new_w] = planes
    return tensor, new_w / width, new_h / height


def as_table(cells: tuple[ReadCell, ...], n_rows: int, n_cols: int, header_rows: int = 0
             ) -> Table:
    """The read cells as typed content: the first `header_rows` rows the table's head, their
    cells its header cells (a row the model put in a head further down is a body row)."""
    return Table(tuple(TableCell(c.row, c.col, c.text, c.rowspan, c.colspan, c.row < header_rows)
                       for c in sorted(cells, key=lambda c: (c.row, c.col))),
                 n_rows, n_cols, header_rows)


def assemble(skeleton: Skeleton, boxes: list[Box], texts: list[str], score: float) -> TableResult:
    """The parsed grid with its cell boxes and texts as a TableResult (its typed table too)."""
    cells = tuple(ReadCell(s.row, s.col, s.rowspan, s.colspan, box, text, s.header)
                  for s, box, text in zip(skeleton.cells, boxes, texts))
    table = as_table(cells, skeleton.n_rows, skeleton.n_cols, skeleton.header_rows)
    return TableResult(table=table, cells=cells, n_rows=skeleton.n_rows,
                       n_cols=skeleton.n_cols, score=score, ok=True)


class TableRecognizer:
    """Reads a table crop (RGB) into its cells, filled with the given text lines."""

    def __init__(self, session: ModelSession) -> None:
        self._session = session
        self.vocabulary = TableVocabulary.from_metadata(session.metadata["character"])

    def recognize(self, crop_rgb: np.ndarray, lines: list[Line],
                  cells: TableCellRules = TABLE_CELLS) -> TableResult:
        """`lines` are the crop's text lines in crop pixels (text layer or OCR), laid into the
        cells under `cells` (engine/tables/cell_rules.py)."""
        if crop_rgb.ndim == 2:
            crop_rgb = np.repeat(crop_rgb[:, :, None], 3, axis=2)
        elif crop_rgb.shape[2] == 4:
            crop_rgb = composite_on_white(crop_rgb)
        height, width = crop_rgb.shape[:2]
        if min(height, width) < MIN_SIDE_PX:
            return TableResult.failed(f"table image too small ({width}x{height} px)")
        tensor, scale_x, scale_y = prepare_input(crop_rgb)
        probs, quads = self._split_outputs(self._session.run(tensor))
        decoded = decode_tokens(probs, quads, self.vocabulary)
        if not decoded.ended:
            # The model's decoding loop stops at 501 steps (a table of roughly 450 cells);
            # what it produced is the top of the table only, and the rest would be lost.
            return TableResult.failed(f"table too large for the table model (stopped after "
                                      f"{len(probs)} steps)", decoded.score)
        try:
            skeleton = parse_skeleton(decoded.tokens)
        except TableParseError as exc:
            return TableResult.failed(f"table structure unreadable: {exc}", decoded.score)
        if len(decoded.cell_quads) != len(skeleton.cells):
            return TableResult.failed("cell boxes do not match the cells", decoded.score)
        boxes = quads_to_boxes(decoded.cell_quads, CANVAS_PX, scale_x, scale_y, width, height)
        return assemble(skeleton, boxes, fill_cells(boxes, lines, cells), decoded.score)

    def _split_outputs(self, outputs: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        """(token probabilities (T, n_tokens), cell quads (T, 8)) whatever the output order."""
        by_width = {output.shape[-1]: output[0] for output in outputs}
        n_tokens = len(self.vocabulary.tokens)
        if set(by_width) != {n_tokens, 8}:
            raise ModelUnavailable(f"The table model's outputs {[o.shape for o in outputs]} do not "
                                   f"match its {n_tokens}-token vocabulary; reinstall it.")
        return by_width[n_tokens], by_width[8]
