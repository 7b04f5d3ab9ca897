"""A form's rows read across (engine/structure/forms.py), and a flush-right column of values
kept line by line (engine/structure/paragraphs.split_short_lines); columns of text are not
forms."""

from __future__ import annotations

from engine.structure.forms import read_rows_across
from engine.structure.paragraphs import build_blocks
from engine.types import Block, BlockKind, Box, Line, Word

CHAR = 7.0


def _line(text: str, row: int, x0: float | None = None, x1: float | None = None) -> Line:
    """An OCR line with word boxes, starting at `x0` or ending at `x1`."""
    width = CHAR * len(text)
    x0 = x1 - width if x0 is None else x0
    words, x = [], x0
    for word in text.split(" "):
        words.append(Word(word, Box(x, row * 20, x + CHAR * len(word), row * 20 + 14)))
        x += CHAR * (len(word) + 1)
    return Line(text, Box(x0, row * 20, x0 + width, row * 20 + 14), words=tuple(words))


def _block(line: Line) -> Block:
    return Block(BlockKind.TEXT, line.box, (line,), line.text)


ROWS = [("Theme", "System default"), ("Font size", "Medium"), ("Show line numbers", "On")]


def test_labels_and_flush_right_values_read_row_by_row():
    labels = [_block(_line(label, n, x0=20)) for n, (label, _) in enumerate(ROWS)]
    values = [_block(_line(value, n, x1=400)) for n, (_, value) in enumerate(ROWS)]
    ordered = read_rows_across(labels + values)
    assert [b.text for b in ordered] == [text for row in ROWS for text in row]


def test_a_column_of_values_stays_line_by_line():
    labels = [_line(label, n, x0=20) for n, (label, _) in enumerate(ROWS)]
    values = [_line(value, n, x1=400) for n, (_, value) in enumerate(ROWS)]
    blocks = build_blocks(values, labels + values)
    assert [b.text for b in blocks] == [value for _, value in ROWS]


def test_two_columns_of_prose_are_no_form():
    left = [_block(_line(t, n, x0=20)) for n, t in enumerate(
        ["The river rose slowly", "through the night and", "by morning the fields"])]
    # Short lines of a second column, set flush left: their right edges are ragged.
    right = [_block(_line(t, n, x0=220)) for n, t in enumerate(
        ["Nobody could remember", "a flood so late", "in the spring"])]
    assert read_rows_across(left + right) == left + right


def test_a_justified_column_cut_into_single_lines_is_no_column_of_values():
    """A scanned broadsheet's narrow justified columns came out a block per line; the short
    last lines of the left column's paragraphs, level with full lines of the right one, were
    read as labels with their values, across the columns."""
    left = ["The river rose slowly", "through the night and", "by morning", "the fields",
            "were under water", "again."]
    right = ["Nobody could remember", "a flood so late in the", "spring, and the mayor",
             "asked the army for help", "before the bridge went", "down at noon."]
    width = CHAR * max(len(t) for t in right)
    # The right column justified: every full line from x 220 to the same right edge.
    right_lines = [_line(t, n, x0=220) for n, t in enumerate(right)]
    right_lines = [ln if n == len(right) - 1 else
                   Line(ln.text, Box(220, ln.box.y0, 220 + width, ln.box.y1), words=ln.words)
                   for n, ln in enumerate(right_lines)]
    blocks = ([_block(_line(t, n, x0=20)) for n, t in enumerate(left)]
              + [_block(ln) for ln in right_lines])
    assert read_rows_across(blocks) == blocks


def test_a_justified_column_beside_blank_paper_is_one_paragraph():
    """A scanned broadsheet's column beside a picture: nothing to its right for a long way, so
    each next line's first word would have fitted on the line before, and every line was kept
    apart as a deliberate break. Its lines start and end together: it wraps at its measure."""
    texts = ["The river rose slowly", "through the night and", "by morning the fields",
             "were under the water", "again."]
    width = CHAR * max(len(t) for t in texts)
    lines = [_line(t, n, x0=20) for n, t in enumerate(texts)]
    lines = [ln if n == len(lines) - 1 else
             Line(ln.text, Box(20, ln.box.y0, 20 + width, ln.box.y1), words=ln.words)
             for n, ln in enumerate(lines)]
    far = _line("Picture caption", 2, x0=900)
    blocks = build_blocks(lines, lines + [far])
    assert [b.text for b in blocks] == [" ".join(texts)]


def test_three_short_lines_that_end_together_by_chance_stay_apart():
    """A settings page's side bar: "Settings" and "Privacy" end within a letter of each other."""
    lines = [_line("Settings", 0, x0=20), _line("Privacy", 1, x0=20),
             _line("Share usage data", 2, x0=20)]
    lines[1] = Line(lines[1].text, Box(20, lines[1].box.y0, lines[0].box.x1 - 3, lines[1].box.y1),
                    words=lines[1].words)
    value = _line("On", 0, x1=900)  # the page's values run far to the right
    blocks = build_blocks(lines, lines + [value])
    assert [b.text for b in blocks] == ["Settings", "Privacy", "Share usage data"]
