"""A code listing's rows read again where the recogniser is least sure of them, each reading
checked against the listing's ink (engine/structure/code_cells.py lays the rows on their
cells): short rows of brackets, rows the detector missed between read rows (a lone "}"), a
semicolon read as a letter after a bracket, the case of a letter that only its height tells
("object", "Object"), a lone closing bracket that the rows above say is another.

The rules (CellRules) were chosen on generated code screenshots (tools/uishots, seed 7), not
on the set the README reports (seed 1)."""

from __future__ import annotations

from dataclasses import replace
from typing import Callable

import cv2
import numpy as np

from engine.structure.code import BEARING, Grid, _leading, code_rows
from engine.structure.code_cell_rules import LIGATURES, CellRules
from engine.types import Block, Box, Line, Word

Recognize = Callable[[list[np.ndarray]], list]
"""Line crops -> readings with a `text` (engine/ocr/recognition.TextRecognizer.recognize)."""


def ink_mask(image: np.ndarray) -> np.ndarray:
    """The ink of a crop (bool): Otsu's threshold, ink the smaller side (light type on a dark
    editor theme is ink too)."""
    grey = cv2.cvtColor(image, cv2.COLOR_RGB2GRAY) if image.ndim == 3 else image
    _, dark = cv2.threshold(np.ascontiguousarray(grey), 0, 1,
                            cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)
    dark = dark.astype(bool)
    return dark if dark.mean() <= 0.5 else ~dark



_CLOSING = frozenset("}])>;,:.")


def short_rows_again(lines: list[Line], image: np.ndarray, recognize: Recognize, grid: Grid,
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
        text = read_semicolon(reading.text.strip(), crop, grid.pitch, rules)
        cells = max(1, round(lines[i].box.width / grid.pitch + BEARING))
        if text and set(text) <= _CLOSING and len(text) == cells:
            out[i] = replace(lines[i], text=text, words=(Word(text, lines[i].box),))
    return out


_PAIRS = {")": "(", "]": "[", "}": "{"}


def balanced(texts: list[str]) -> list[str]:
    """A row holding one closing bracket and nothing more closes the bracket the rows above
    leave open: a lone ")" where no "(" is open but a "{" is, is "}" (the recogniser confuses
    the two on a crop one glyph wide)."""
    out = []
    for text in texts:
        mark = text.strip()
        if len(mark) == 1 and mark in _PAIRS:
            above = "".join(out)
            open_ = {c: above.count(o) - above.count(c) for c, o in _PAIRS.items()}
            if open_[mark] <= 0:
                left = [c for c, n in open_.items() if n > 0]
                if len(left) == 1:
                    text = text.replace(mark, left[0])
        out.append(text)
    return out


def read_semicolon(text: str, crop: np.ndarray, pitch: float, rules: CellRules) -> str:
    """A bracket row's last character read as a letter ("}i", "})j") made a semicolon where
    its cell's ink is a dot over a comma's tail; any other reading as it is."""
    if len(text) < 2 or text[-1] not in "ij" or not set(text[:-1]) <= _CLOSING:
        return text
    ink = ink_mask(crop)
    cols = np.flatnonzero(ink.any(axis=0))
    if not len(cols):
        return text
    cell = ink[:, max(0, int(cols[-1] + 1 - pitch)):cols[-1] + 1].astype(np.uint8)
    count, _, stats, _ = cv2.connectedComponentsWithStats(cell, connectivity=8)
    # The bracket before may reach into the cell: what touches the cell's left edge is its.
    parts = sorted((stats[k] for k in range(1, count) if stats[k][cv2.CC_STAT_LEFT] > 0),
                   key=lambda st: st[cv2.CC_STAT_TOP])
    if len(parts) != 2:
        return text
    dot, tail = (int(st[cv2.CC_STAT_HEIGHT]) for st in parts)
    low, high = rules.comma_tail
    return text[:-1] + ";" if low * dot <= tail <= high * dot else text


def missed_rows(block: Block, lines: list[Line], image: np.ndarray, recognize: Recognize,
                 grid: Grid, rules: CellRules) -> list[Line]:
    """Rows the detector missed: a blank row between read rows whose band inside the listing's
    box holds ink, read from that ink's crop and kept when the reading is as many characters
    as the ink has cells."""
    rows = code_rows(lines, grid)
    ordered = sorted(lines, key=lambda ln: ln.box.center_y)
    leading = _leading(ordered)
    if not leading:
        return []
    height = float(np.median([ln.box.height for ln in lines]))
    first = ordered[0].box.center_y
    page_h, page_w = image.shape[:2]
    # Inside the listing's box and no further out than its read rows by a cell (a line-number
    # gutter or a neighbour the box may hold is no row of the listing).
    x0 = max(0, int(np.floor(max(block.box.x0, min(ln.box.x0 for ln in lines) - grid.pitch))))
    x1 = min(page_w, int(np.ceil(min(block.box.x1, max(ln.box.x1 for ln in lines) + grid.pitch))))
    found, crops = [], []
    # Blank rows between read rows, and the row after the last (a closing bracket there).
    for row, (_, held) in enumerate(rows + [("", ())]):
        if held:
            continue
        centre = first + row * leading
        top = max(0, int(round(centre - height / 2)))
        bottom = min(page_h, int(round(centre + height / 2)))
        if bottom <= top or x1 <= x0:
            continue
        ink = ink_mask(image[top:bottom, x0:x1])
        tall = np.flatnonzero(ink.any(axis=1))
        if (ink.sum() < rules.band_ink * grid.pitch * height or not len(tall)
                or tall[-1] - tall[0] + 1 < rules.band_tall * (bottom - top)):
            continue
        cols = np.flatnonzero(ink.any(axis=0))
        left, right = x0 + int(cols[0]), x0 + int(cols[-1]) + 1
        pad = int(round(grid.pitch / 2))
        crops.append(np.ascontiguousarray(
            image[top:bottom, max(0, left - pad):min(page_w, right + pad)]))
        found.append(Box(float(left), float(top), float(right), float(bottom)))
    out = []
    last = ordered[-1].box.center_y
    for box, reading in zip(found, recognize(crops) if crops else []):
        text = reading.text.strip()
        cells = max(1, round(box.width / grid.pitch + BEARING))
        after = box.center_y > last + leading / 2
        if after:
            keep = len(text) == cells <= rules.short_row and set(text) <= _CLOSING
        else:
            keep = bool(text) and abs(len(text) - cells) <= max(1, rules.missed_length * cells)
        if keep:
            score = getattr(reading, "score", None)
            out.append(Line(text, box, 1.0 if score is None else float(score),
                            words=(Word(text, box, score),)))
    return out


SMALL = frozenset("acemnorsuvwxz")
"""Lower-case letters of x-height (no ascender, no descender)."""
TALL = frozenset("ABDEFHIKLMNPRTUVWXYZbdhkl0123456789")
"""Characters of cap height (or ascender height, which differs from it by a pixel or two)."""
BY_HEIGHT = frozenset("cosvwxz")
"""Letters whose capital is the small letter drawn taller: only ink height tells them apart."""


def letter_case(texts: list[str], heights: list[list[int] | None], rules: CellRules
                 ) -> list[str]:
    """The first letter of each identifier that only its height tells from its capital
    ("object", "Object") made capital or small by its cell's ink: nearer the listing's cap
    height or its x-height. No other letter is touched."""
    small, tall = [], []
    for text, row in zip(texts, heights):
        if row is None or len(row) < len(text) or any(pair in text for pair in LIGATURES):
            continue
        for ch, h in zip(text, row):
            if h and ch in SMALL:
                small.append(h)
            elif h and ch in TALL:
                tall.append(h)
    if len(small) < rules.case_samples or len(tall) < rules.case_samples:
        return texts
    x_height, cap = float(np.median(small)), float(np.median(tall))
    if cap < rules.cap_ratio * x_height:
        return texts
    middle = (x_height + cap) / 2
    out = []
    for text, row in zip(texts, heights):
        if row is None or len(row) < len(text) or any(pair in text for pair in LIGATURES):
            out.append(text)  # (a ligature's two letters share a cell)
            continue
        chars = list(text)
        for k, ch in enumerate(chars):
            starts = k == 0 or not (chars[k - 1].isalnum() or chars[k - 1] == "_")
            if starts and ch.lower() in BY_HEIGHT and row[k]:
                chars[k] = ch.upper() if row[k] > middle else ch.lower()
        out.append("".join(chars))
    return out
