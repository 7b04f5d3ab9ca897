"""A page's text as every positioned export lays it out (searchable PDF, ALTO, hOCR, OCRmyPDF's
tree): its blocks in reading order, each block's lines (a table's in the order of its cells),
each line's words on the pixels they were read from; and those pixels laid back on the page as
the input holds it (the reader's quarter turns undone, scaled)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.content.tables import Table, TableTooLarge, filled_rows
from engine.types import Block, BlockKind, Box, Line, PageResult, Word


@dataclass(frozen=True)
class PlacedWord:
    """One word of a line, with whether a space follows it in the line's text and how sure
    its reading is (the word's own confidence where the recogniser gave one, else its line's)."""

    word: Word
    spaced: bool
    confidence: float

    @property
    def text(self) -> str:
        return self.word.text

    @property
    def box(self) -> Box:
        return self.word.box


def page_lines(page: PageResult) -> list[Line]:
    """Every line of the page's blocks, in reading order (a table's in the order of its
    cells, as our Markdown has them)."""
    return [line for block in page.blocks for line in block_lines(block)]


def block_lines(block: Block) -> list[Line]:
    """A block's lines in reading order: a table's in the order of its cells."""
    if block.kind is BlockKind.TABLE and block.table is not None:
        return table_lines(block.table, block.lines)
    return list(block.lines)


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


def table_lines(table: Table, lines: tuple[Line, ...]) -> list[Line]:
    """A table's lines in the order of its cells: each cell's text is matched, from its start,
    against the lines still unplaced (in rows-first order), taking a line that is a piece of
    the cell or a line that runs on into the next cells. Lines no cell spells come last."""
    try:
        cells = [_squeeze(cell.text) for cell in filled_rows(table).cells]
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


def words_of(line: Line) -> list[PlacedWord]:
    """The line's words in order, each with whether a space follows it in the text; the whole
    line as one word over its box when its words are unknown (a text layer's lines) or do not
    spell its text."""
    whole = [PlacedWord(Word(line.text.strip(), line.box), False, line.score)]
    spelled = "".join(w.text for w in line.words)
    if not line.words or spelled != _squeeze(line.text):
        return whole
    result: list[PlacedWord] = []
    offset = 0
    for word in line.words:
        found = line.text.find(word.text, offset)
        if found < 0:
            return whole
        offset = found + len(word.text)
        spaced = offset < len(line.text) and line.text[offset].isspace()
        score = word.score if word.score is not None else line.score
        result.append(PlacedWord(word, spaced, score))
    last = result[-1]
    result[-1] = PlacedWord(last.word, False, last.confidence)
    return result


class InputPixels:
    """Analysed page pixels -> the pixels of the page as the input holds it, `size` (width,
    height) pixels: the quarter turns the reader made undone (as the searchable PDF undoes
    them), then scaled onto that size."""

    def __init__(self, page: PageResult, size: tuple[float, float] | None = None) -> None:
        self.turn = page.rotation % 360
        self.width, self.height = page.width, page.height
        self.upright = (self.height, self.width) if self.turn in (90, 270) else (self.width,
                                                                                self.height)
        self.size = size or self.upright
        self.scale_x = self.size[0] / max(self.upright[0], 1)
        self.scale_y = self.size[1] / max(self.upright[1], 1)

    def point(self, x: float, y: float) -> tuple[float, float]:
        if self.turn == 90:     # turned clockwise: a pixel (x, y) was at (y, W - x)
            x, y = y, self.width - x
        elif self.turn == 180:
            x, y = self.width - x, self.height - y
        elif self.turn == 270:  # turned counter-clockwise: a pixel (x, y) was at (H - y, x)
            x, y = self.height - y, x
        return x * self.scale_x, y * self.scale_y

    def box(self, box: Box) -> Box:
        (ax, ay), (bx, by) = self.point(box.x0, box.y0), self.point(box.x1, box.y1)
        return Box(min(ax, bx), min(ay, by), max(ax, bx), max(ay, by))
