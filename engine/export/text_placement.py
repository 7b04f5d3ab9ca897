"""Where each piece of a page's invisible text goes: runs of text with the matrix that lays
them on the pixels they were read from (pure geometry, in the page's analysed pixels)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.export.html_table import TableTooLarge, read_table
from engine.export.invisible_font import ASCENDER, DESCENDER, UNITS_PER_EM, InvisibleFont
from engine.types import BlockKind, Box, Line, PageResult, Word

ASCENT = ASCENDER / UNITS_PER_EM
DESCENT = -DESCENDER / UNITS_PER_EM
# A line this much taller than wide runs down the page (crop_quad reads it turned a quarter).
VERTICAL_RATIO = 1.5
# The least gap (in ems) left between two words the text separates by a space.
WORD_GAP = 0.25


@dataclass(frozen=True)
class Run:
    """Text drawn from `origin` (the baseline's start) along `advance` with glyphs facing
    `up`; both vectors are unit vectors in page pixels. `size` is the font size in pixels and
    `stretch` the horizontal scaling that makes the run span its pixels."""

    text: str
    origin: tuple[float, float]
    advance: tuple[float, float]
    up: tuple[float, float]
    size: float
    stretch: float

    def matrix(self) -> tuple[float, float, float, float, float, float]:
        """The text matrix (a, b, c, d, e, f) from text space (font size 1) to page pixels."""
        ax, ay = self.advance
        ux, uy = self.up
        return (ax * self.size * self.stretch, ay * self.size * self.stretch,
                ux * self.size, uy * self.size, self.origin[0], self.origin[1])


def page_lines(page: PageResult) -> list[Line]:
    """Every line of the page's blocks, in reading order (a table's in the order of its
    cells, as our Markdown has them)."""
    lines: list[Line] = []
    for block in page.blocks:
        if block.kind is BlockKind.TABLE and block.html:
            lines.extend(table_lines(block.html, block.lines))
        else:
            lines.extend(block.lines)
    return lines


def rows_first(lines: tuple[Line, ...] | list[Line]) -> list[Line]:
    """Lines in rows top to bottom (a row: lines whose middles are within half a line height
    of each other), each row left to right."""
    ordered = sorted(lines, key=lambda ln: ln.box.center_y)
    rows: list[list[Line]] = []
    for line in ordered:
        if rows:
            row = rows[-1]
            middle = sum(ln.box.center_y for ln in row) / len(row)
            height = min(ln.box.height for ln in row)
            if abs(line.box.center_y - middle) <= max(height, line.box.height) / 2:
                row.append(line)
                continue
        rows.append([line])
    return [line for row in rows for line in sorted(row, key=lambda ln: ln.box.x0)]


def table_lines(html: str, lines: tuple[Line, ...]) -> list[Line]:
    """A table's lines in the order of its cells: each cell's text is matched, from its start,
    against the lines still unplaced (in rows-first order), taking a line that is a piece of
    the cell or a line that runs on into the next cells. Lines no cell spells come last."""
    try:
        cells = [_squeeze(cell.text) for cell in read_table(html).cells]
    except TableTooLarge:
        return rows_first(lines)
    pool = [(line, _squeeze(line.text)) for line in rows_first(lines)]
    pool = [(line, text) for line, text in pool if text]
    ordered: list[Line] = []
    carry = ""  # the rest of a line that runs on past the cell it started in
    for rest in cells:
        while rest:
            if carry:
                if carry.startswith(rest):
                    carry, rest = carry[len(rest):], ""
                    break
                if rest.startswith(carry):
                    carry, rest = "", rest[len(carry):]
                    continue
                carry = ""
            found = next((i for i, (_, text) in enumerate(pool) if rest.startswith(text)), None)
            if found is not None:
                line, text = pool.pop(found)
                ordered.append(line)
                rest = rest[len(text):]
                continue
            found = next((i for i, (_, text) in enumerate(pool) if text.startswith(rest)), None)
            if found is None:
                break  # nothing left that spells this cell
            line, text = pool.pop(found)
            ordered.append(line)
            carry, rest = text[len(rest):], ""
    return ordered + [line for line, _ in pool]


def _squeeze(text: str) -> str:
    return "".join(text.split())


def is_vertical(line: Line) -> bool:
    return line.vertical or (len(line.text) > 1
                             and line.box.height >= VERTICAL_RATIO * line.box.width)


def words_of(line: Line) -> list[tuple[Word, bool]]:
    """The line's words, each with whether a space follows it in the text; the whole line as
    one word when its words are unknown or do not spell its text."""
    spelled = "".join(w.text for w in line.words)
    if not line.words or spelled != "".join(line.text.split()):
        return [(Word(line.text.strip(), line.box), False)]
    result: list[tuple[Word, bool]] = []
    offset = 0
    for word in line.words:
        found = line.text.find(word.text, offset)
        if found < 0:
            return [(Word(line.text.strip(), line.box), False)]
        offset = found + len(word.text)
        spaced = offset < len(line.text) and line.text[offset].isspace()
        result.append((word, spaced))
    result[-1] = (result[-1][0], False)
    return result


def line_runs(line: Line, font: InvisibleFont) -> list[Run]:
    """One run per word on the line's common baseline and size, so extractors keep the line
    whole. A word followed by a space carries the space (extracted text keeps it); a word
    followed directly by another (CJK) stretches to where the next begins, so no gap invites
    an extractor to insert a space that is not in the text."""
    words = [(w, spaced) for w, spaced in words_of(line) if w.text]
    if not words:
        return []
    vertical = is_vertical(line)
    if vertical:
        # Read turned a quarter clockwise: the text runs down the page, glyph tops to the right.
        advance, up = (0.0, 1.0), (1.0, 0.0)
        low = min(w.box.x0 for w, _ in words)
        size = max(w.box.x1 for w, _ in words) - low
        base = low + DESCENT * size
    else:
        advance, up = (1.0, 0.0), (0.0, -1.0)
        top = min(w.box.y0 for w, _ in words)
        size = max(w.box.y1 for w, _ in words) - top
        base = top + ASCENT * size
    if size <= 0:
        return []
    extents = [list(_extent(w.box, vertical)) for w, _ in words]
    for i, (_word, spaced) in enumerate(words[:-1]):
        this, following = extents[i], extents[i + 1]
        if not spaced:
            this[1] = max(this[1], following[0])
            continue
        # Extractors that find words by gaps (poppler) need one where the text has a space,
        # even where handwriting runs one word's ink into the next.
        gap = WORD_GAP * size
        if this[1] + gap > following[0]:
            this[1] = max(this[0] + (this[1] - this[0]) / 2, following[0] - gap)
            following[0] = max(following[0], this[1] + gap)
            following[1] = max(following[1], following[0] + gap)
    runs: list[Run] = []
    for (word, spaced), (start, end) in zip(words, extents):
        natural = font.width(word.text) * size
        stretch = (end - start) / natural if natural > 0 and end > start else 1.0
        origin = (base, start) if vertical else (start, base)
        runs.append(Run(word.text + (" " if spaced else ""), origin, advance, up, size, stretch))
    return runs


def _extent(box: Box, vertical: bool) -> tuple[float, float]:
    return (box.y0, box.y1) if vertical else (box.x0, box.x1)
