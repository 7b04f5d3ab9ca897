"""A form's rows read across: a label at the left and its value set flush right on the same row
(a settings page, a receipt) are read label, value, next label, not the labels' column and then
the values'. Only OCR lines (a screenshot, a scan): a text layer keeps its own order."""

from __future__ import annotations

from engine.structure.rows import level_with
from engine.types import Block, BlockKind, Line

# A value and a label are short: at most this many words.
FORM_WORDS = 4
# The values' right edges agree within this many character widths, over this many rows.
FLUSH_CHARS = 1.0
MIN_FORM_ROWS = 2
# A label and its value are apart by at least this many character widths of blank.
FORM_GAP_CHARS = 4.0


def _line(block: Block) -> Line | None:
    if block.kind is not BlockKind.TEXT or len(block.lines) != 1:
        return None
    line = block.lines[0]
    return line if line.words and len(line.words) <= FORM_WORDS else None


def _char(line: Line) -> float:
    return line.box.width / max(len(line.text), 1)


def read_rows_across(blocks: list[Block]) -> list[Block]:
    """`blocks` in reading order, each value right after its label where at least
    MIN_FORM_ROWS rows pair a short label with a short value flush right with the others."""
    single = {i: ln for i, b in enumerate(blocks) if (ln := _line(b)) is not None}
    pairs: dict[int, int] = {}
    for v, value in single.items():
        flush = [ln for ln in single.values() if abs(ln.box.x1 - value.box.x1) <= FLUSH_CHARS
                 * _char(value)]
        if len(flush) < MIN_FORM_ROWS:
            continue
        labels = [i for i, ln in single.items() if i != v and level_with(ln, value)
                  and value.box.x0 - ln.box.x1 >= FORM_GAP_CHARS * _char(value)]
        if len(labels) == 1:
            pairs[v] = labels[0]
    if len(pairs) < MIN_FORM_ROWS:
        return blocks
    ordered = [b for i, b in enumerate(blocks) if i not in pairs]
    for v, label in sorted(pairs.items(), key=lambda kv: kv[1]):
        ordered.insert(ordered.index(blocks[label]) + 1, blocks[v])
    return ordered
