"""Table recognition: SLANet-plus structure and cell boxes, filled with the crop's text lines."""

from __future__ import annotations

import html
from dataclasses import dataclass

import cv2
import numpy as np

from engine.errors import ModelUnavailable
from engine.imaging import composite_on_white, to_chw_imagenet
from engine.models.sessions import ModelSession
from engine.tables.cells import fill_cells
from engine.tables.structure import (Skeleton, TableParseError, TableVocabulary, decode_tokens,
                                    parse_skeleton, quads_to_boxes)
from engine.types import Box, Line

# The square the model reads: the crop's longer side is scaled to it, the rest is padding.
CANVAS_PX = 488
# Below this many pixels a side holds no readable table.
MIN_SIDE_PX = 8


@dataclass(frozen=True)
class TableCell:
    """One cell: grid position of its top-left, spans, box in crop pixels, text."""

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

    html: str
    cells: tuple[TableCell, ...]
    n_rows: int
    n_cols: int
    score: float
    """Mean probability of the decoded structure tokens."""
    ok: bool
    reason: str = ""
    """Why the table could not be read; empty when ok."""

    @classmethod
    def failed(cls, reason: str, score: float = 0.0) -> "TableResult":
        return cls(html="", cells=(), n_rows=0, n_cols=0, score=score, ok=False, reason=reason)


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


def render_html(cells: tuple[TableCell, ...], n_rows: int, header_rows: int = 0) -> str:
    """A `<table>` of `<tr>`/`<td>` rows with rowspan/colspan; the first `header_rows` rows
    in `<thead>`, the rest in `<tbody>`. Cell text is escaped."""
    by_row: list[list[TableCell]] = [[] for _ in range(n_rows)]
    for cell in cells:
        by_row[cell.row].append(cell)

    def row_html(row: list[TableCell]) -> str:
        parts = []
        for cell in sorted(row, key=lambda c: c.col):
            spans = "".join(f' {name}="{value}"' for name, value in
                            (("rowspan", cell.rowspan), ("colspan", cell.colspan)) if value > 1)
            parts.append(f"<td{spans}>{html.escape(cell.text, quote=False)}</td>")
        return "<tr>" + "".join(parts) + "</tr>"

    head = "".join(row_html(row) for row in by_row[:header_rows])
    body = "".join(row_html(row) for row in by_row[header_rows:])
    head = f"<thead>{head}</thead>" if head else ""
    body = f"<tbody>{body}</tbody>" if body else ""
    return f"<table>{head}{body}</table>"


def to_gfm(result: TableResult) -> str | None:
    """A GFM pipe table (first row as its header), or None when the table has merged cells
    or could not be read: pipe tables cannot say rowspan or colspan."""
    if not result.ok or any(c.rowspan > 1 or c.colspan > 1 for c in result.cells):
        return None
    grid = [["" for _ in range(result.n_cols)] for _ in range(result.n_rows)]
    for cell in result.cells:
        grid[cell.row][cell.col] = " ".join(cell.text.split()).replace("|", "\\|")
    lines = ["| " + " | ".join(grid[0]) + " |",
             "|" + "|".join(" --- " for _ in range(result.n_cols)) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in grid[1:]]
    return "\n".join(lines)


def assemble(skeleton: Skeleton, boxes: list[Box], texts: list[str], score: float) -> TableResult:
    """The parsed grid with its cell boxes and texts as a TableResult (HTML included)."""
    cells = tuple(TableCell(s.row, s.col, s.rowspan, s.colspan, box, text, s.header)
                  for s, box, text in zip(skeleton.cells, boxes, texts))
    table_html = render_html(cells, skeleton.n_rows, skeleton.header_rows)
    return TableResult(html=table_html, cells=cells, n_rows=skeleton.n_rows,
                       n_cols=skeleton.n_cols, score=score, ok=True)


class TableRecognizer:
    """Reads a table crop (RGB) into its HTML structure, filled with the given text lines."""

    def __init__(self, session: ModelSession) -> None:
        self._session = session
        self.vocabulary = TableVocabulary.from_metadata(session.metadata["character"])

    def recognize(self, crop_rgb: np.ndarray, lines: list[Line]) -> TableResult:
        """`lines` are the crop's text lines in crop pixels (text layer or OCR)."""
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
        return assemble(skeleton, boxes, fill_cells(boxes, lines), decoded.score)

    def _split_outputs(self, outputs: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        """(token probabilities (T, n_tokens), cell quads (T, 8)) whatever the output order."""
        by_width = {output.shape[-1]: output[0] for output in outputs}
        n_tokens = len(self.vocabulary.tokens)
        if set(by_width) != {n_tokens, 8}:
            raise ModelUnavailable(f"The table model's outputs {[o.shape for o in outputs]} do not "
                                   f"match its {n_tokens}-token vocabulary; reinstall it.")
        return by_width[n_tokens], by_width[8]
