"""A code listing read from pixels, checked cell by cell: in monospaced type every character
has its cell on the listing's grid, so the page's ink says where the characters are that the
recogniser read. A space on inked cells, a character on an empty one or a row shorter than its
ink is put right where the ink says how: an underscore (ink only along the foot of its cell,
which the recogniser reads as a space or drops: `CMAKE BUILD TYPE`, `def_init__`), a space
(`},{});` where the ink leaves a cell empty), a hyphen (one thin bar across the middle of its
cell: a leading `--` the recogniser dropped) or a space too many (`}) ;`). Letters are never
changed but for the case of an identifier's first letter that only its height tells
(code_reread.py): where ink holds a character no reading gave, the row stays as read.

The costs of the alignment are data (CellRules in code_cell_rules.py)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from engine.structure.code import (INK_BEARING, Grid, _column, _fits, code_rows, join_rows,
                                   measure_grid)
from engine.structure.code_cell_rules import CELL_RULES, LIGATURES, CellRules
from engine.structure.code_reread import (Recognize, balanced, ink_mask, letter_case,
                                          missed_rows, short_rows_again)
from engine.types import Block, BlockKind

EMPTY, INKED, FOOT, DASH = 0, 1, 2, 3
"""What a cell holds: nothing, a glyph, ink only along its foot (an underscore), or one thin
bar across its middle (a hyphen: "-- Configuring done", whose leading "--" the recogniser
drops)."""

MARK = {FOOT: "_", DASH: "-"}
"""The character a bare cell shape stands for."""


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
        span = ink_cols[-1] - ink_cols[0] + 1
        foot = ink_rows[0] >= rules.foot_top * height and span >= rules.foot_width * pitch
        run = ink_rows[-1] - ink_rows[0] + 1
        centre = (ink_rows[0] + ink_rows[-1] + 1) / 2 / height
        dash = (span >= max(rules.dash_width * pitch, 2 * run) and run == len(ink_rows)
                and run <= rules.dash_thin * height
                and rules.dash_middle[0] <= centre <= rules.dash_middle[1])
        kinds.append(FOOT if foot else DASH if dash else INKED)
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
            out.append(MARK[kinds[j - 1]] if ch == " " and kinds[j - 1] in MARK else ch)
            i, j = i - 1, j - 1
        elif kind == 2:
            out.append(MARK.get(kinds[j - 1], " "))
            j -= 1
        elif kind == 4:
            out.append(text[i - 2:i])
            i, j = i - 2, j - 1
        else:
            i -= 1
    return "".join(reversed(out)).rstrip()


def _on_cell(ch: str, kind: int, rules: CellRules) -> float:
    if ch == " ":
        return {EMPTY: 0.0, FOOT: rules.space_on_foot, DASH: rules.space_on_foot,
                INKED: rules.space_on_ink}[kind]
    if ch == "_":
        return {FOOT: 0.0, INKED: rules.underscore_on_ink, DASH: rules.char_on_foot,
                EMPTY: rules.char_on_empty}[kind]
    if ch == "-":
        return {INKED: 0.0, DASH: 0.0, FOOT: rules.char_on_foot, EMPTY: rules.char_on_empty}[kind]
    return {INKED: 0.0, FOOT: rules.char_on_foot, DASH: rules.char_on_foot,
            EMPTY: rules.char_on_empty}[kind]


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
        lines = short_rows_again(lines + missed_rows(block, lines, image, recognize, grid,
                                                       rules), image, recognize, grid, rules)
    texts, heights = [], []
    for text, held in code_rows(lines, grid):
        if not held or not text.strip():
            texts.append(text)
            heights.append(None)
            continue
        cells = _row_cells(held, grid, image, len(text), rules)
        if cells is None:
            texts.append(text)
            heights.append(None)
            continue
        texts.append(align_row(text, cells[0], rules))
        heights.append(cells[1])
    fixed = join_rows(balanced(letter_case(texts, heights, rules)))
    if fixed == block.text and lines == list(block.lines):
        return block
    return replace(block, text=fixed, lines=tuple(lines))


def _row_cells(held, grid: Grid, image: np.ndarray, length: int, rules: CellRules
               ) -> tuple[list[int], list[int]] | None:
    """Each cell's kind and the height of its ink in pixels (0 on an empty cell)."""
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
    starts = [x - left for x in lefts]
    return (cell_kinds(ink, starts, grid.pitch, rules),
            cell_heights(ink, starts, grid.pitch, rules))


def cell_heights(ink: np.ndarray, lefts: list[float], pitch: float,
                 rules: CellRules = CELL_RULES) -> list[int]:
    """The height of the ink in the middle of each cell (0 where there is none)."""
    width = ink.shape[1]
    out = []
    for left in lefts:
        m0 = min(max(int(round(left + pitch * (1 - rules.centre_share) / 2)), 0), width)
        m1 = min(max(int(round(left + pitch * (1 + rules.centre_share) / 2)), 0), width)
        rows = np.flatnonzero(ink[:, m0:m1].any(axis=1)) if m1 > m0 else []
        out.append(int(rows[-1] - rows[0] + 1) if len(rows) else 0)
    return out


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
