"""Vertical Chinese and Japanese writing: columns read top to bottom, right to left.

Such lines are told from their geometry (a box much taller than wide holding CJK writing, as
OCR finds them) or from the text layer's writing direction (a PDF written downwards gives one
line per character, which are joined again into columns here). Columns side by side become one
paragraph, read from the right; a column starting two or more characters down opens a new
paragraph, as Chinese print indents them. A page whose text is mostly set this way is read as
a vertical page (engine/structure/reading_order.py)."""

from __future__ import annotations

from engine.structure.vertical_rules import VERTICAL, VerticalRules
from engine.text import has_cjk, joins_unspaced
from engine.types import Block, BlockKind, Box, Line


def writes_unspaced(text: str) -> bool:
    return any(joins_unspaced(ch) for ch in text)


def is_vertical(line: Line, rules: VerticalRules = VERTICAL) -> bool:
    """Whether a line is a column of vertical CJK writing: written downwards in the text layer,
    or an OCR box much taller than wide, holding CJK writing."""
    text = line.text.strip()
    if not text:
        return False
    if line.vertical:
        return writes_unspaced(text) or len(text) == 1
    return (has_cjk(text) and len(text) >= 2
            and line.box.height >= rules.tall_ratio * max(line.box.width, 1e-6))


def column_size(line: Line) -> float:
    """A vertical line's character size: its font size, else its length per character (OCR
    boxes are padded in width, by more the longer the column: widths of one page's full and
    short columns differ by half)."""
    if line.font_size > 0:
        return line.font_size
    count = len(line.text.strip())
    return line.box.height / count if count >= 2 else line.box.width


def is_vertical_page(lines: list[Line], rules: VerticalRules = VERTICAL) -> bool:
    """Whether most of the page's characters stand in vertical columns."""
    total = sum(len(ln.text.strip()) for ln in lines)
    down = sum(len(ln.text.strip()) for ln in lines if is_vertical(ln, rules))
    return total > 0 and down >= rules.vertical_page_share * total


def _join(upper: str, lower: str, spaced: bool = True) -> str:
    """Two pieces of text, one after the other: with a space between them when there is room
    for one (`spaced`) and one side is not CJK writing."""
    if (spaced and upper and lower
            and not (joins_unspaced(upper[-1]) and joins_unspaced(lower[0]))):
        return upper + " " + lower
    return upper + lower


def merge_columns(lines: list[Line], rules: VerticalRules = VERTICAL) -> list[Line]:
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
                    and -0.3 * size <= gap <= rules.column_gap_chars * size
                    and abs(column_size(above) - size) <= rules.same_size * size):
                merged[i] = Line(text=_join(above.text.strip(), line.text.strip(),
                                            spaced=gap >= rules.space_gap_chars * size),
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


def _follows(group: list[Line], line: Line, rules: VerticalRules = VERTICAL) -> bool:
    """Whether `line` is the next column (to the left) of the paragraph `group`."""
    last = group[-1]
    size = column_size(line)
    if abs(column_size(last) - size) > rules.same_size * max(size, 1e-6) or last.bold != line.bold:
        return False
    pitch = last.box.center_x - line.box.center_x
    if pitch < 0.5 * size or pitch > (1 + rules.column_pitch_chars) * size:
        return False
    overlap = min(last.box.y1, line.box.y1) - max(last.box.y0, line.box.y0)
    if overlap < 0.3 * min(last.box.height, line.box.height):
        return False
    top = min(ln.box.y0 for ln in group)
    return line.box.y0 - top <= rules.indent_chars * size


def body_column_size(lines: list[Line]) -> float:
    """The character size most vertical characters are set in."""
    weights: dict[float, int] = {}
    for line in lines:
        size = round(column_size(line), 0)
        weights[size] = weights.get(size, 0) + len(line.text)
    return max(weights.items(), key=lambda kv: kv[1])[0] if weights else 0.0


def vertical_blocks(lines: list[Line], rules: VerticalRules = VERTICAL) -> list[Block]:
    """Vertical lines grouped into paragraphs (columns right to left) and classified: a short
    paragraph set larger than the body is a heading."""
    columns = merge_columns(lines, rules)
    body = body_column_size(columns)
    groups: list[list[Line]] = []
    for line in sorted(columns, key=lambda ln: (-ln.box.x1, ln.box.y0)):
        for group in reversed(groups[-12:]):
            if _follows(group, line, rules):
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
        if (body > 0 and size >= rules.heading_size_ratio * body
                and len(text) <= rules.heading_max_chars
                and len(group) <= rules.heading_max_columns):
            blocks.append(Block(BlockKind.SECTION_HEADER, box, tuple(group), text, score,
                                level=2 if size >= 1.6 * body else 3))
        else:
            blocks.append(Block(BlockKind.TEXT, box, tuple(group), text, score))
    return blocks


def transpose(box: Box) -> Box:
    """A vertical page's box in the frame where it reads like a horizontal page: down a column
    becomes left to right, and columns from the right become lines from the top."""
    return Box(box.y0, -box.x1, box.y1, -box.x0)
