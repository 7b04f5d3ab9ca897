"""Pure cell filling: text lines of a table crop assigned (and cut where needed) to its cells."""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from engine.tables.cell_rules import TABLE_CELLS, TableCellRules
from engine.types import Box, Line


@dataclass(frozen=True)
class TextPiece:
    """A line, or the words of a line that fall in one cell, with their estimated box."""

    text: str
    box: Box


def boxes_array(boxes: list[Box]) -> np.ndarray:
    """(n, 4) float64 of x0, y0, x1, y1."""
    return np.array([(b.x0, b.y0, b.x1, b.y1) for b in boxes], dtype=np.float64).reshape(-1, 4)


def best_cells(queries: np.ndarray, cells: np.ndarray, rules: TableCellRules = TABLE_CELLS
               ) -> tuple[np.ndarray, np.ndarray]:
    """For each query box (m, 4): the cell (n, 4) holding most of it, and that share (0..1).

    A query inside no cell goes to the nearest one (gap distance, then centre distance) with
    share 0, so that no text is ever dropped."""
    q, c = queries[:, None, :], cells[None, :, :]
    inter_w = np.minimum(q[..., 2], c[..., 2]) - np.maximum(q[..., 0], c[..., 0])
    inter_h = np.minimum(q[..., 3], c[..., 3]) - np.maximum(q[..., 1], c[..., 1])
    inter = np.clip(inter_w, 0, None) * np.clip(inter_h, 0, None)
    area_q = np.maximum((q[..., 2] - q[..., 0]) * (q[..., 3] - q[..., 1]), 1e-6)
    area_c = np.maximum((c[..., 2] - c[..., 0]) * (c[..., 3] - c[..., 1]), 1e-6)
    share = inter / area_q
    iou = inter / np.maximum(area_q + area_c - inter, 1e-6)
    chosen = np.argmax(share + rules.tightness_weight * iou, axis=1)
    rows = np.arange(len(queries))
    best_share = share[rows, chosen]
    outside = best_share <= 0
    if outside.any():
        gap = np.hypot(np.clip(-inter_w, 0, None), np.clip(-inter_h, 0, None))
        centre = (np.abs((q[..., 0] + q[..., 2]) - (c[..., 0] + c[..., 2]))
                  + np.abs((q[..., 1] + q[..., 3]) - (c[..., 1] + c[..., 3]))) / 2
        nearest = np.argmin(gap + 1e-6 * centre, axis=1)
        chosen = np.where(outside, nearest, chosen)
    return chosen, np.clip(best_share, 0.0, 1.0)


def row_cells(line_box: Box, cells: np.ndarray, rules: TableCellRules = TABLE_CELLS
              ) -> np.ndarray:
    """Indices of the cells on the line's row that it reaches, ordered left to right."""
    overlap_h = np.minimum(cells[:, 3], line_box.y1) - np.maximum(cells[:, 1], line_box.y0)
    shorter = np.minimum(cells[:, 3] - cells[:, 1], line_box.height)
    overlap_w = np.minimum(cells[:, 2], line_box.x1) - np.maximum(cells[:, 0], line_box.x0)
    on_row = (overlap_h >= rules.same_row_overlap * shorter) & (shorter > 0) & (overlap_w > 0)
    found = np.flatnonzero(on_row)
    return found[np.argsort(cells[found, 0], kind="stable")]


def split_line(line: Line, cells: np.ndarray, home: int, rules: TableCellRules = TABLE_CELLS
               ) -> list[tuple[TextPiece, int]]:
    """Cut a line that runs across cells of its row into per-cell pieces at word boundaries.

    Word positions are estimated from character offsets spread evenly over the line's width,
    which is all a line box tells. Each word goes to the row cell nearest its centre along x
    (inside counts as distance 0; a tie stays in `home`, the line's own cell). Returns
    (piece, cell index) in reading order."""
    box, length = line.box, len(line.text)
    words = list(re.finditer(r"\S+", line.text))
    if not words:
        return []
    candidates = row_cells(box, cells, rules)
    if len(candidates) < 2 or len(words) < 2:
        return [(TextPiece(line.text.strip(), box), home)]
    starts = np.array([w.start() for w in words], dtype=np.float64) / length
    ends = np.array([w.end() for w in words], dtype=np.float64) / length
    word_x0, word_x1 = box.x0 + box.width * starts, box.x0 + box.width * ends
    centres = (word_x0 + word_x1) / 2
    left, right = cells[candidates, 0], cells[candidates, 2]
    distance = np.maximum(left[None, :] - centres[:, None], 0) + np.maximum(
        centres[:, None] - right[None, :], 0)
    # The home cell wins ties, so a line inside overlapping cells is not cut.
    distance -= 1e-6 * (candidates == home)[None, :]
    targets = candidates[np.argmin(distance, axis=1)]
    pieces: list[tuple[TextPiece, int]] = []
    first = 0
    for index in range(1, len(words) + 1):
        if index < len(words) and targets[index] == targets[first]:
            continue
        text = line.text[words[first].start():words[index - 1].end()]
        piece_box = Box(float(word_x0[first]), box.y0, float(word_x1[index - 1]), box.y1)
        pieces.append((TextPiece(text, piece_box), int(targets[first])))
        first = index
    return pieces


def join_reading_order(pieces: list[TextPiece]) -> str:
    """Pieces of one cell as text: visual lines top to bottom, each read left to right."""
    ordered = sorted(pieces, key=lambda p: p.box.center_y)
    rows: list[list[TextPiece]] = []
    for piece in ordered:
        if rows:
            top = min(p.box.y0 for p in rows[-1])
            bottom = max(p.box.y1 for p in rows[-1])
            overlap = min(bottom, piece.box.y1) - max(top, piece.box.y0)
            if overlap >= 0.5 * min(bottom - top, piece.box.height):
                rows[-1].append(piece)
                continue
        rows.append([piece])
    words = [p.text for row in rows for p in sorted(row, key=lambda p: p.box.x0)]
    return " ".join(" ".join(words).split())


def fill_cells(cells: list[Box], lines: list[Line], rules: TableCellRules = TABLE_CELLS
               ) -> list[str]:
    """The text of each cell: every line (or per-cell piece of a line) goes to the cell holding
    most of it, or to the nearest cell when none does, so no text is lost. `rules`:
    engine/tables/cell_rules.py."""
    lines = [line for line in lines if line.text.strip()]
    if not cells:
        return []
    assigned: list[list[TextPiece]] = [[] for _ in cells]
    if not lines:
        return ["" for _ in cells]
    cell_array = boxes_array(cells)
    homes, shares = best_cells(boxes_array([line.box for line in lines]), cell_array, rules)
    for line, home, share in zip(lines, homes, shares):
        if share >= rules.keep_whole_share or len(line.text.split()) < 2 or len(cells) < 2:
            assigned[home].append(TextPiece(line.text, line.box))
            continue
        for piece, target in split_line(line, cell_array, int(home), rules):
            assigned[target].append(piece)
    return [join_reading_order(pieces) for pieces in assigned]
