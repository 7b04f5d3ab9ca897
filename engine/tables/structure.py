"""Pure table-structure decoding: model tokens to a grid of cells with spans, and their boxes."""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from engine.types import Box

START_TOKEN = "sos"
END_TOKEN = "eos"
# Tokens that open a cell; the box regressed at the same step belongs to that cell.
CELL_OPEN = "<td"
CELL_OPEN_PLAIN = "<td>"
CELL_EMPTY = "<td></td>"
CELL_OPENERS = frozenset({CELL_OPEN, CELL_OPEN_PLAIN, CELL_EMPTY})
_SPAN_ATTRIBUTE = re.compile(r'^\s*(rowspan|colspan)="(\d+)"\s*$')


class TableParseError(ValueError):
    """The token sequence does not describe a well-formed table; the message says why."""


@dataclass(frozen=True)
class TableVocabulary:
    """Structure tokens by class index: the start token, the model's list, the end token."""

    tokens: tuple[str, ...]

    @classmethod
    def from_metadata(cls, character: str) -> "TableVocabulary":
        """From the model's `character` metadata: one token per line, in class order."""
        listed = [token for token in character.split("\n") if token != ""]
        if not any(token in CELL_OPENERS for token in listed):
            raise ValueError("table vocabulary has no cell token")
        return cls((START_TOKEN, *listed, END_TOKEN))

    @property
    def start(self) -> int:
        return 0

    @property
    def end(self) -> int:
        return len(self.tokens) - 1


@dataclass(frozen=True)
class DecodedStructure:
    """Argmax structure tokens (start and end removed) and one quad per cell-opening token."""

    tokens: tuple[str, ...]
    cell_quads: np.ndarray
    """(n_cells, 8) float32: four (x, y) points normalised to the model's square canvas."""
    score: float
    """Mean probability of the chosen tokens (0 when none were chosen)."""
    ended: bool
    """Whether the end token was reached (False: the sequence ran out first)."""


def decode_tokens(probs: np.ndarray, quads: np.ndarray, vocab: TableVocabulary) -> DecodedStructure:
    """Per-step class probabilities (T, n_tokens) and box regressions (T, 8) -> tokens and quads.

    Decoding stops at the first end token; the start token is skipped wherever it appears."""
    if probs.ndim != 2 or probs.shape[1] != len(vocab.tokens):
        raise ValueError(f"expected (T, {len(vocab.tokens)}) probabilities, got {probs.shape}")
    ids = probs.argmax(axis=1)
    best = probs.max(axis=1)
    tokens: list[str] = []
    kept_quads: list[np.ndarray] = []
    kept_scores: list[float] = []
    ended = False
    for step, index in enumerate(ids):
        if index == vocab.end:
            ended = True
            break
        if index == vocab.start:
            continue
        token = vocab.tokens[index]
        tokens.append(token)
        kept_scores.append(float(best[step]))
        if token in CELL_OPENERS:
            kept_quads.append(quads[step])
    cell_quads = (np.asarray(kept_quads, dtype=np.float32).reshape(-1, 8) if kept_quads
                  else np.zeros((0, 8), dtype=np.float32))
    score = float(np.mean(kept_scores)) if kept_scores else 0.0
    return DecodedStructure(tuple(tokens), cell_quads, score, ended)


@dataclass(frozen=True)
class SkeletonCell:
    """A cell of the parsed structure: grid position of its top-left, spans, header flag."""

    row: int
    col: int
    rowspan: int
    colspan: int
    header: bool
    """The cell sits in the table head (`<thead>`)."""


@dataclass(frozen=True)
class Skeleton:
    """The table grid: cells in token order (their index matches the cell quads)."""

    cells: tuple[SkeletonCell, ...]
    n_rows: int
    n_cols: int
    header_rows: int
    """Leading rows that form the table head (0 when the model marked none)."""


def _read_rows(tokens: tuple[str, ...]) -> tuple[list[list[tuple[int, int]]], list[bool]]:
    """Rows of (rowspan, colspan) from the token stream, and whether each row is in the head."""
    rows: list[list[tuple[int, int]]] = []
    row_in_head: list[bool] = []
    section: str | None = None
    row: list[tuple[int, int]] | None = None
    cell: dict[str, int] | None = None  # an opened `<td` still collecting its attributes
    cell_open = False  # inside a cell's content, waiting for `</td>`
    for position, token in enumerate(tokens):
        where = f"token {position} ({token!r})"
        if cell is not None:
            match = _SPAN_ATTRIBUTE.match(token)
            if match:
                cell[match.group(1)] = int(match.group(2))
                continue
            if token != ">":
                raise TableParseError(f"unexpected {where} inside a cell's attributes")
            row.append((cell.get("rowspan", 1), cell.get("colspan", 1)))
            cell, cell_open = None, True
            continue
        if cell_open:
            if token != "</td>":
                raise TableParseError(f"unexpected {where} inside a cell")
            cell_open = False
            continue
        if token in ("<thead>", "<tbody>"):
            if section is not None or row is not None:
                raise TableParseError(f"{where} opens a section inside another")
            section = token[1:-1]
        elif token in ("</thead>", "</tbody>"):
            if row is not None or section != token[2:-1]:
                raise TableParseError(f"{where} closes a section that is not open")
            section = None
        elif token == "<tr>":
            if row is not None:
                raise TableParseError(f"{where} opens a row inside a row")
            row = []
        elif token == "</tr>":
            if row is None:
                raise TableParseError(f"{where} closes a row that is not open")
            rows.append(row)
            row_in_head.append(section == "thead")
            row = None
        elif token in CELL_OPENERS:
            if row is None:
                raise TableParseError(f"{where} opens a cell outside a row")
            if token == CELL_EMPTY:
                row.append((1, 1))
            elif token == CELL_OPEN_PLAIN:
                row.append((1, 1))
                cell_open = True
            else:
                cell = {}
        else:
            raise TableParseError(f"unexpected {where}")
    if cell is not None or cell_open or row is not None:
        raise TableParseError("the structure ends inside an open row or cell")
    return rows, row_in_head


def parse_skeleton(tokens: tuple[str, ...]) -> Skeleton:
    """Structure tokens -> grid cells with rowspan/colspan; raises TableParseError if malformed.

    Cells are placed left to right in the first free column of their row, skipping columns
    still covered by a rowspan from above; a rowspan reaching past the last row is cut there."""
    rows, row_in_head = _read_rows(tokens)
    if not any(rows):
        raise TableParseError("the structure has no cells")
    n_rows = len(rows)
    covered: set[tuple[int, int]] = set()
    cells: list[SkeletonCell] = []
    n_cols = 0
    for r, row in enumerate(rows):
        col = 0
        for rowspan, colspan in row:
            while (r, col) in covered:
                col += 1
            rowspan = max(1, min(rowspan, n_rows - r))
            colspan = max(1, colspan)
            for dr in range(rowspan):
                for dc in range(colspan):
                    covered.add((r + dr, col + dc))
            cells.append(SkeletonCell(r, col, rowspan, colspan, row_in_head[r]))
            col += colspan
            n_cols = max(n_cols, col)
    header_rows = 0
    while header_rows < n_rows and row_in_head[header_rows]:
        header_rows += 1
    return Skeleton(tuple(cells), n_rows, n_cols, header_rows)


def quads_to_boxes(quads: np.ndarray, canvas_px: int, scale_x: float, scale_y: float,
                   width: int, height: int) -> list[Box]:
    """Normalised canvas quads -> axis-aligned boxes in the pixels of the image before resizing.

    `scale_x`/`scale_y` are the factors the image was resized by before padding to the canvas."""
    boxes = []
    for quad in np.asarray(quads, dtype=np.float32).reshape(-1, 8):
        xs = quad[0::2] * canvas_px / scale_x
        ys = quad[1::2] * canvas_px / scale_y
        boxes.append(Box(float(np.clip(xs.min(), 0, width)), float(np.clip(ys.min(), 0, height)),
                         float(np.clip(xs.max(), 0, width)), float(np.clip(ys.max(), 0, height))))
    return boxes
