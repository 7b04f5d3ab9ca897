"""Vertical Chinese and Japanese writing: columns read top to bottom, right to left.

Such lines are told from their geometry (a box much taller than wide holding CJK writing, as
OCR finds them) or from the text layer's writing direction (a PDF written downwards gives one
line per character, which are joined again into columns here). Columns side by side become one
paragraph, read from the right; a column starting two or more characters down opens a new
paragraph, as Chinese print indents them. A page whose text is mostly set this way is read as
a vertical page (engine/structure/reading_order.py)."""

from __future__ import annotations

from engine.text import has_cjk, joins_unspaced
from engine.types import Block, BlockKind, Box, Line

# An OCR line is a column when its box is this much taller than wide: the ratio at which
# engine/imaging.crop_quad turns a crop to read it as a column.
TALL_RATIO = 1.5
# Of a page's characters, at least this share in vertical lines makes it a vertical page. On
# the generated pages (tools/structure, seed 1) vertical pages had 0.998-1.0, every other page
# (English and Chinese, born-digital and scanned) 0.0: any share between reads them all alike;
# the middle is taken, so that a page half set each way is read as most of its text is.
VERTICAL_PAGE_SHARE = 0.5
# Thresholds below were chosen on the generated vertical pages (tools/structure, seed 1, ten
# pages born-digital and ten scanned; order-sensitive similarity digital/scanned, with
# character sizes from column_size) and checked on seed 2 (0.999/0.985) and the dev set.
# Pieces of one column follow each other with at most this gap, in character sizes: a space
# set in the column leaves one character's gap, the blank between two tiers of columns more.
# 0.6-1.5 all read 0.999/0.988 (the generator leaves 1.5 characters or more between tiers;
# measured with box widths as sizes, before column_size, 1.5 joined columns across them).
COLUMN_GAP_CHARS = 1.1
# A gap of at least this many characters inside a column is a space between Latin words.
SPACE_GAP_CHARS = 0.5
# Neighbouring columns of one paragraph stand at most 1 + this many characters apart, centre
# to centre (Chinese text is set with 0.5-1 character between columns): 0.3 read
# 0.981/0.973, 0.6 0.998/0.988, 0.9-2.0 0.999/0.988.
COLUMN_PITCH_CHARS = 0.9
# ... and are set in the same size within this share: 0.1-0.5 all read 0.999/0.987-0.988;
# 0.3 keeps headings set 1.3 times the body or more apart.
SAME_SIZE = 0.3
# A column starting this many characters below its paragraph's top starts a new paragraph
# (Chinese print indents two): 0.5-1.5 read 0.999/0.988, 2.5 0.991/0.981.
INDENT_CHARS = 1.0
# A paragraph of at most this many columns and characters, set this much larger than the
# body, is a heading.
HEADING_MAX_COLUMNS = 3
HEADING_MAX_CHARS = 60
HEADING_SIZE_RATIO = 1.15


def writes_unspaced(text: str) -> bool:
    return any(joins_unspaced(ch) for ch in text)


def is_vertical(line: Line) -> bool:
    """Whether a line is a column of vertical CJK writing: written downwards in the text layer,
    or an OCR box much taller than wide, holding CJK writing."""
    text = line.text.strip()
    if not text:
        return False
    if line.vertical:
        return writes_unspaced(text) or len(text) == 1
    return (has_cjk(text) and len(text) >= 2
            and line.box.height >= TALL_RATIO * max(line.box.width, 1e-6))


def column_size(line: Line) -> float:
    """A vertical line's character size: its font size, else its length per character (OCR
    boxes are padded in width, by more the longer the column: widths of one page's full and
    short columns differ by half)."""
    if line.font_size > 0:
        return line.font_size
    count = len(line.text.strip())
    return line.box.height / count if count >= 2 else line.box.width


def is_vertical_page(lines: list[Line]) -> bool:
    """Whether most of the page's characters stand in vertical columns."""
    total = sum(len(ln.text.strip()) for ln in lines)
    down = sum(len(ln.text.strip()) for ln in lines if is_vertical(ln))
    return total > 0 and down >= VERTICAL_PAGE_SHARE * total


def _join(upper: str, lower: str, spaced: bool = True) -> str:
    """Two pieces of text, one after the other: with a space between them when there is room
    for one (`spaced`) and one side is not CJK writing."""
    if (spaced and upper and lower
            and not (joins_unspaced(upper[-1]) and joins_unspaced(lower[0]))):
        return upper + " " + lower
    return upper + lower


def merge_columns(lines: list[Line]) -> list[Line]:
    """Pieces of one column (single characters of a text layer written downwards, a column the
    detector cut in two) joined top to bottom into one vertical line."""
    merged: list[Line] = []
    for line in sorted(lines, key=lambda ln: (ln.box.y0, ln.box.x0)):
        size = column_size(line)
        for i in range(len(merged) - 1, -1, -1):
            above = merged[i]
            overlap = min(above.box.x1, line.box.x1) - max(above.box.x0, line.box.x0)
            gap = line.box.y0 - above.box.y1
            if (overlap >= 0.5 * min(above.box.width, line.box.width)
                    and -0.3 * size <= gap <= COLUMN_GAP_CHARS * size
                    and abs(column_size(above) - size) <= SAME_SIZE * size):
                merged[i] = Line(text=_join(above.text.strip(), line.text.strip(),
                                            spaced=gap >= SPACE_GAP_CHARS * size),
                                 box=above.box.union(line.box),
                                 score=min(above.score, line.score),
                                 font_size=max(above.font_size, line.font_size),
                                 bold=above.bold, vertical=True, words=above.words + line.words)
                break
        else:
            merged.append(Line(text=line.text.strip(), box=line.box, score=line.score,
                               font_size=line.font_size, bold=line.bold, vertical=True,
                               words=line.words))
    return merged


def _follows(group: list[Line], line: Line) -> bool:
    """Whether `line` is the next column (to the left) of the paragraph `group`."""
    last = group[-1]
    size = column_size(line)
    if abs(column_size(last) - size) > SAME_SIZE * max(size, 1e-6) or last.bold != line.bold:
        return False
    pitch = last.box.center_x - line.box.center_x
    if pitch < 0.5 * size or pitch > (1 + COLUMN_PITCH_CHARS) * size:
        return False
    overlap = min(last.box.y1, line.box.y1) - max(last.box.y0, line.box.y0)
    if overlap < 0.3 * min(last.box.height, line.box.height):
        return False
    top = min(ln.box.y0 for ln in group)
    return line.box.y0 - top <= INDENT_CHARS * size


def body_column_size(lines: list[Line]) -> float:
    """The character size most vertical characters are set in."""
    weights: dict[float, int] = {}
    for line in lines:
        size = round(column_size(line), 0)
        weights[size] = weights.get(size, 0) + len(line.text)
    return max(weights.items(), key=lambda kv: kv[1])[0] if weights else 0.0


def vertical_blocks(lines: list[Line]) -> list[Block]:
    """Vertical lines grouped into paragraphs (columns right to left) and classified: a short
    paragraph set larger than the body is a heading."""
    columns = merge_columns(lines)
    body = body_column_size(columns)
    groups: list[list[Line]] = []
    for line in sorted(columns, key=lambda ln: (-ln.box.x1, ln.box.y0)):
        for group in reversed(groups[-12:]):
            if _follows(group, line):
                group.append(line)
                break
        else:
            groups.append([line])
    blocks = []
    for group in groups:
        box = group[0].box
        for ln in group[1:]:
            box = box.union(ln.box)
        text = ""
        for ln in group:
            text = _join(text, ln.text)
        score = min(ln.score for ln in group)
        size = max(column_size(ln) for ln in group)
        if (body > 0 and size >= HEADING_SIZE_RATIO * body and len(text) <= HEADING_MAX_CHARS
                and len(group) <= HEADING_MAX_COLUMNS):
            blocks.append(Block(BlockKind.SECTION_HEADER, box, tuple(group), text, score,
                                level=2 if size >= 1.6 * body else 3))
        else:
            blocks.append(Block(BlockKind.TEXT, box, tuple(group), text, score))
    return blocks


def transpose(box: Box) -> Box:
    """A vertical page's box in the frame where it reads like a horizontal page: down a column
    becomes left to right, and columns from the right become lines from the top."""
    return Box(box.y0, -box.x1, box.y1, -box.x0)
