"""A code listing read from pixels, checked cell by cell: in monospaced type every character
has its cell on the listing's grid, so the page's ink says where the characters are that the
recogniser read. A space on inked cells, a character on an empty one or a row shorter than its
ink is put right where the ink says how: an underscore (ink only along the foot of its cell,
which the recogniser reads as a space or drops: `CMAKE BUILD TYPE`, `def_init__`), a space
(`},{});` where the ink leaves a cell empty) or a space too many (`}) ;`). Letters are never
changed: where ink holds a character no reading gave, the row stays as read.

The costs of the alignment are data (CellRules), chosen on generated code screenshots
(tools/uishots, seed 7), not on the set the README reports (seed 1)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable

import cv2
import numpy as np

from engine.structure.code import (INK_BEARING, BEARING, Grid, _column, _fits, code_rows, join_rows,
                                   measure_grid)
from engine.types import Block, BlockKind, Line, Word

Recognize = Callable[[list[np.ndarray]], list]
"""Line crops -> readings with a `text` (engine/ocr/recognition.TextRecognizer.recognize)."""

EMPTY, INKED, FOOT = 0, 1, 2
"""What a cell holds: nothing, a glyph, or ink only along its foot (an underscore)."""


@dataclass(frozen=True)
class CellRules:
    centre_share: float = 0.6
    """A cell is inked when ink lies in its middle this share of its width (a wide glyph's
    serif reaches into the next cell, a narrow one, "|" or ".", sits mid-cell)."""
    min_ink_share: float = 0.015
    """... covering at least this share of that middle."""
    foot_top: float = 0.72
    """A foot cell's ink starts no higher than this share of the row's height down."""
    foot_width: float = 0.6
    """... and spans at least this share of the cell's width (a full stop does not)."""
    foot_below: float = 0.15
    """Rows are searched this share of their height below their box (an underscore hangs
    under the baseline, where a detector's box may end)."""
    space_on_ink: float = 1.5
    char_on_empty: float = 1.5
    space_on_foot: float = 0.3
    """A space the recogniser read where a cell holds an underscore: read as "_"."""
    char_on_foot: float = 0.6
    underscore_on_ink: float = 0.5
    insert_space: float = 0.4
    insert_underscore: float = 0.6
    drop_space: float = 0.4
    unread_ink: float = 1.0
    """Each inked cell past the row's last character (a character nobody read)."""
    short_row: int = 3
    """Rows of at most this many characters are read again when they hold a letter or digit
    (a lone "}" read as "1", "};" as "}i": a crop a glyph or two wide is where the recogniser
    errs most)."""
    ligature: float = 0.1
    """Two characters of LIGATURES on one inked cell: some monospaced fonts (Nimbus Mono PS)
    set "fi" and "ff" as one glyph one cell wide, and browsers use it."""


LIGATURES = frozenset({"fi", "fl", "ff"})


CELL_RULES = CellRules()


def ink_mask(image: np.ndarray) -> np.ndarray:
    """The ink of a crop (bool): Otsu's threshold, ink the smaller side (light type on a dark
    editor theme is ink too)."""
    grey = cv2.cvtColor(image, cv2.COLOR_RGB2GRAY) if image.ndim == 3 else image
    _, dark = cv2.threshold(np.ascontiguousarray(grey), 0, 1,
                            cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)
    dark = dark.astype(bool)
    return dark if dark.mean() <= 0.5 else ~dark


def cell_kinds(ink: np.ndarray, lefts: list[float], pitch: float,
               rules: CellRules = CELL_RULES) -> list[int]:
    """EMPTY, INKED or FOOT for each cell of one row's ink (the row's band), the cells starting
    at `lefts` (pixels of that band) and `pitch` wide."""
    height, width = ink.shape
    kinds = []
    for left in lefts:
        x0, x1 = int(round(left)), int(round(left + pitch))
        m0 = int(round(left + pitch * (1 - rules.centre_share) / 2))
        m1 = int(round(left + pitch * (1 + rules.centre_share) / 2))
        x0, x1, m0, m1 = (min(max(v, 0), width) for v in (x0, x1, m0, m1))
        middle = ink[:, m0:m1]
        if m1 <= m0 or middle.mean() < rules.min_ink_share:
            kinds.append(EMPTY)
            continue
        cell = ink[:, x0:x1]
        ink_rows = np.flatnonzero(cell.any(axis=1))
        ink_cols = np.flatnonzero(cell.any(axis=0))
        foot = (ink_rows[0] >= rules.foot_top * height
                and ink_cols[-1] - ink_cols[0] + 1 >= rules.foot_width * pitch)
        kinds.append(FOOT if foot else INKED)
    return kinds


def align_row(text: str, kinds: list[int], rules: CellRules = CELL_RULES) -> str:
    """The row's characters laid on its cells at the least cost: each character on a cell,
    spaces and underscores put in or taken out where the cells say so; no other character is
    added, dropped or changed."""
    n, m = len(text), len(kinds)
    inf = float("inf")
    cost = np.full((n + 1, m + 1), inf)
    move = np.zeros((n + 1, m + 1), dtype=np.int8)
    cost[0, 0] = 0.0
    for i in range(n + 1):
        for j in range(m + 1):
            here = cost[i, j]
            if here == inf:
                continue
            if i < n and j < m:
                step = _on_cell(text[i], kinds[j], rules)
                if here + step < cost[i + 1, j + 1]:
                    cost[i + 1, j + 1], move[i + 1, j + 1] = here + step, 1
            if (i + 1 < n and j < m and kinds[j] == INKED and text[i:i + 2] in LIGATURES
                    and here + rules.ligature < cost[i + 2, j + 1]):
                cost[i + 2, j + 1], move[i + 2, j + 1] = here + rules.ligature, 4
            if j < m and kinds[j] != INKED:
                step = rules.insert_space if kinds[j] == EMPTY else rules.insert_underscore
                if here + step < cost[i, j + 1]:
                    cost[i, j + 1], move[i, j + 1] = here + step, 2
            if i < n and text[i] == " " and here + rules.drop_space < cost[i + 1, j]:
                cost[i + 1, j], move[i + 1, j] = here + rules.drop_space, 3
    # The row may end before its ink does (a character nobody read): that ink stays unread.
    ends = [cost[n, j] + rules.unread_ink * sum(k != EMPTY for k in kinds[j:])
            for j in range(m + 1)]
    j = int(np.argmin(ends))
    if ends[j] == inf:
        return text
    out: list[str] = []
    i = n
    while i > 0 or j > 0:
        kind = move[i, j]
        if kind == 1:
            ch = text[i - 1]
            out.append("_" if ch == " " and kinds[j - 1] == FOOT else ch)
            i, j = i - 1, j - 1
        elif kind == 2:
            out.append(" " if kinds[j - 1] == EMPTY else "_")
            j -= 1
        elif kind == 4:
            out.append(text[i - 2:i])
            i, j = i - 2, j - 1
        else:
            i -= 1
    return "".join(reversed(out)).rstrip()


def _on_cell(ch: str, kind: int, rules: CellRules) -> float:
    if ch == " ":
        return {EMPTY: 0.0, FOOT: rules.space_on_foot, INKED: rules.space_on_ink}[kind]
    if ch == "_":
        return {FOOT: 0.0, INKED: rules.underscore_on_ink, EMPTY: rules.char_on_empty}[kind]
    return {INKED: 0.0, FOOT: rules.char_on_foot, EMPTY: rules.char_on_empty}[kind]


def read_listing_cells(block: Block, image: np.ndarray, recognize: Recognize | None = None,
                       rules: CellRules = CELL_RULES) -> Block:
    """An OCR listing's text with each row laid on the ink of its cells, its short rows read
    again (`recognize`); other blocks as they are."""
    lines = list(block.lines)
    if block.kind is not BlockKind.CODE or not lines or not all(ln.words for ln in lines):
        return block
    grid = measure_grid(lines)
    if grid is None:
        return block
    if recognize is not None:
        lines = _short_rows_again(lines, image, recognize, grid, rules)
    texts = []
    for text, held in code_rows(lines, grid):
        if not held or not text.strip():
            texts.append(text)
            continue
        kinds = _row_kinds(held, grid, image, len(text), rules)
        texts.append(text if kinds is None else align_row(text, kinds, rules))
    fixed = join_rows(texts)
    if fixed == block.text and lines == list(block.lines):
        return block
    return replace(block, text=fixed, lines=tuple(lines))


_CLOSING = frozenset("}])>;,:.")


def _short_rows_again(lines: list[Line], image: np.ndarray, recognize: Recognize, grid: Grid,
                      rules: CellRules) -> list[Line]:
    """Short lines holding a letter or digit read again from their box alone; the second
    reading is kept when it is brackets and punctuation only (the end of a block, not a word),
    as many characters as the line's ink has cells."""
    height, width = image.shape[:2]
    chosen = [i for i, ln in enumerate(lines) if len(ln.text.strip()) <= rules.short_row
              and any(ch.isalnum() for ch in ln.text)]
    crops = []
    for i in chosen:
        box = lines[i].box
        x0, y0 = max(0, int(np.floor(box.x0))), max(0, int(np.floor(box.y0)))
        x1, y1 = min(width, int(np.ceil(box.x1))), min(height, int(np.ceil(box.y1)))
        crops.append(np.ascontiguousarray(image[y0:y1, x0:x1]))
    out = list(lines)
    for i, crop, reading in zip(chosen, crops, recognize(crops) if crops else []):
        text = reading.text.strip()
        cells = max(1, round(lines[i].box.width / grid.pitch + BEARING))
        if text and set(text) <= _CLOSING and len(text) == cells:
            out[i] = replace(lines[i], text=text, words=(Word(text, lines[i].box),))
    return out


def _row_kinds(held, grid: Grid, image: np.ndarray, length: int, rules: CellRules
               ) -> list[int] | None:
    height_px, width_px = image.shape[:2]
    y0 = min(ln.box.y0 for ln in held)
    y1 = max(ln.box.y1 for ln in held)
    y1 += rules.foot_below * (y1 - y0)
    x1 = max(ln.box.x1 for ln in held)
    columns = max(length, int(np.ceil((x1 - grid.origin) / grid.pitch)))
    lefts = _cell_lefts(held, grid, columns)
    left = max(0, int(np.floor(min(lefts))))
    right = min(width_px, int(np.ceil(max(lefts) + grid.pitch)) + 1)
    top, bottom = max(0, int(np.floor(y0))), min(height_px, int(np.ceil(y1)))
    if bottom <= top or right <= left:
        return None
    ink = ink_mask(image[top:bottom, left:right])
    return cell_kinds(ink, [x - left for x in lefts], grid.pitch, rules)


def _cell_lefts(held, grid: Grid, columns: int) -> list[float]:
    """Where each cell of a row starts, in page pixels, counted from the nearest word: each
    word's column counted in whole cells from the word before it (a pitch off by a per cent is
    half a cell fifty cells from the margin, and a word's characters may be miscounted)."""
    anchors = []
    for line in held:
        before = None
        for word in line.words:
            start = _start(word, grid)
            if before is None:
                column = _column(word, grid)
            else:
                column = before[0] + round((start - before[1]) / grid.pitch)
            before = (column, start)
            anchors.append(before)
    lefts = []
    for column in range(columns):
        near, start = min(anchors, key=lambda a: abs(a[0] - column))
        lefts.append(start + (column - near) * grid.pitch)
    return lefts


def _start(word, grid: Grid) -> float:
    """Where a word's first cell starts: from its centre when its ink is as wide as its
    characters, else from its ink's left edge."""
    if _fits(word, grid):
        return word.box.center_x - grid.pitch * len(word.text) / 2
    return word.box.x0 - (1 - INK_BEARING) * grid.pitch
