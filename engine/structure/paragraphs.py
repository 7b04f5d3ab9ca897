"""Group text lines into blocks by geometry: paragraphs, headings and list items."""

from __future__ import annotations

import re
import statistics
from dataclasses import replace
from typing import Callable

from engine.structure.paragraph_rules import PARAGRAPHS, ParagraphRules
from engine.structure.row_rules import ROWS, RowRules
from engine.structure.rows import merge_fragments
from engine.structure.vertical import is_vertical, vertical_blocks
from engine.structure.vertical_rules import VERTICAL, VerticalRules
from engine.text import joins_unspaced
from engine.types import Block, BlockKind, Box, Line

BULLET_RE = re.compile(r"^\s*([•●◦▪■□·‣⁃➢❖✓\-–*]|\(?\d{1,3}[.)]|\(?[a-zA-Z][.)])\s+")
# An item number read straight onto Chinese text ("12.解方程": OCR keeps no space there, and
# Chinese print sets none) is an item number all the same; a space is put after it.
CJK_ITEM_RE = re.compile(r"^(\s*\(?\d{1,3}[.)])(?=[\u3400-\u4dbf\u4e00-\u9fff])")


def body_font_size(lines: list[Line]) -> float:
    """The font size (or line height for OCR lines) that most characters are set in."""
    weights: dict[float, int] = {}
    for line in lines:
        size = round(_size(line), 0)
        weights[size] = weights.get(size, 0) + len(line.text)
    if not weights:
        return 0.0
    return max(weights.items(), key=lambda kv: kv[1])[0]


def _size(line: Line) -> float:
    return line.font_size if line.font_size > 0 else line.box.height


def build_blocks(lines: list[Line], page_lines: list[Line] | None = None,
                 vertical: VerticalRules = VERTICAL, *, rows: RowRules = ROWS,
                 rules: ParagraphRules = PARAGRAPHS) -> list[Block]:
    """Consecutive lines that touch vertically, overlap horizontally and share a size form a
    block. Lines must be given in top-to-bottom order within their column. `page_lines` and
    `rows`: as for merge_fragments. Columns of vertical CJK writing form their own paragraphs
    (engine/structure/vertical.py, under `vertical`). `rules`: what a heading is and when a
    block's short lines stay apart (engine/structure/paragraph_rules.py)."""
    columns = [ln for ln in lines if is_vertical(ln, vertical)]
    if columns:
        across = [ln for ln in lines if not is_vertical(ln, vertical)]
        return vertical_blocks(columns, vertical) + (
            build_blocks(across, page_lines, vertical, rows=rows, rules=rules) if across else [])
    if not lines:
        return []
    lines = merge_fragments([_spaced_item(ln) for ln in lines], page_lines, rows)
    body = body_font_size(lines)
    groups: list[list[Line]] = []
    for line in sorted(lines, key=lambda ln: (ln.box.y0, ln.box.x0)):
        target = _find_group(groups, line, rules)
        if target is None:
            groups.append([line])
        else:
            target.append(line)
    blocks = []
    for group in groups:
        for part in _split_list_items(group):
            blocks.extend(split_short_lines(part, page_lines or lines, rules))
    return [_classify(block_lines, body, rules) for block_lines in blocks]


def _spaced_item(line: Line) -> Line:
    match = CJK_ITEM_RE.match(line.text)
    if match is None:
        return line
    return replace(line, text=f"{match.group(1)} {line.text[match.end():]}")


def _find_group(groups: list[list[Line]], line: Line,
                rules: ParagraphRules = PARAGRAPHS) -> list[Line] | None:
    best: list[Line] | None = None
    for group in reversed(groups[-12:]):
        last = group[-1]
        height = max(min(_size(last), _size(line)), 1.0)
        gap = line.box.y0 - last.box.y1
        if gap > 0.9 * height or gap < -0.5 * height:
            continue
        # Same size and weight: headings and body text never share a block. OCR lines are
        # sized by their boxes, which the detector draws a fifth higher or lower on a line
        # of the same type: once two lines of a block set its size, a line's is compared with
        # the larger.
        ocr = not (last.font_size or line.font_size)
        ref = max(_size(last), _size(line)) if ocr and len(group) > 1 else height
        if abs(_size(last) - _size(line)) > rules.same_size_share * ref or last.bold != line.bold:
            continue
        overlap = min(last.box.x1, line.box.x1) - max(last.box.x0, line.box.x0)
        if overlap < 0.3 * min(last.box.width, line.box.width):
            continue
        # A line starting well right of the block's left edge after a short line is a new
        # paragraph (first-line indent is the common case and stays in the block).
        block_x0 = min(ln.box.x0 for ln in group)
        if line.box.x0 - block_x0 > 3 * height and len(group) > 1:
            continue
        best = group
        break
    return best


def split_short_lines(lines: list[Line], page_lines: list[Line],
                      rules: ParagraphRules = PARAGRAPHS) -> list[list[Line]]:
    """The lines of a block of OCR lines, split where a line was broken on purpose.

    A line break is deliberate when the next line's first word would have fit in the room left
    on the line (flowing text wraps only when it does not): a chat's sender above the message,
    a settings page's labels. The room runs to the nearest text to the right on the line's row
    (less a gap of `rules.gutter_chars`), or to the page's rightmost text; in a block set flush
    right, the room at the line's start counts too; beside a column's text, or at the page's
    edge, the room ends at the line's own column's measure where that column wraps
    (`_measure`). A block of OCR lines more than `rules.hard_break_share` of whose breaks are
    deliberate keeps every line apart; in one with fewer, each deliberate break ends a
    paragraph (prose has one before a paragraph's last line, where it runs into the next);
    text-layer lines keep the PDF's own paragraphs."""
    if len(lines) < 2 or not all(ln.words for ln in lines) or _justified(lines, rules):
        return [lines]
    page_left = min(ln.box.x0 for ln in page_lines)
    page_right = max(ln.box.x1 for ln in page_lines)
    starts = [_room_start(line, page_lines, page_left, rules) for line in lines]
    # Set flush right with more room before each line than the line takes (a settings page's
    # values; not a justified column, whose room is its gutter): the room is at the start.
    flush_right = (max(ln.box.x1 for ln in lines) - min(ln.box.x1 for ln in lines)
                   <= min(_char_width(ln) for ln in lines)
                   and all(ln.box.x0 - start >= ln.box.width for ln, start in zip(lines, starts)))
    ends = [_room_end(line, page_lines, page_right, rules) for line in lines]
    breaks = [_fits_after(line, following, end, rules)
              or flush_right and _fits_before(line, following, start, rules)
              for line, following, start, end in zip(lines, lines[1:], starts, ends)]
    if sum(breaks) > rules.hard_break_share * (len(lines) - 1):
        return [[line] for line in lines]
    parts = [[lines[0]]]
    for line, deliberate in zip(lines[1:], breaks):
        if deliberate:
            parts.append([])
        parts[-1].append(line)
    return parts


def _justified(lines: list[Line], rules: ParagraphRules) -> bool:
    """Whether the lines are a justified column's, which wraps at its measure whatever room
    the page leaves beside it (a column beside a picture, or a gutter wider than a word): at
    least `rules.justified_lines` lines, all but the last ending together and all but the
    first and the last starting together (within a character), the first there too or
    indented by at most `rules.justified_gap_chars` characters, and no gap between two words
    wider than that (a settings page's rows, label and value on one line, start and end
    together too, far apart inside)."""
    body = lines[:-1]
    if len(lines) < rules.justified_lines:
        return False
    char = min(_char_width(ln) for ln in body)
    starts = [ln.box.x0 for ln in body[1:]]
    ends = [ln.box.x1 for ln in body]
    indent = body[0].box.x0 - min(starts)
    gaps = [b.box.x0 - a.box.x1 for ln in lines for a, b in zip(ln.words, ln.words[1:])]
    return (max(ends) - min(ends) <= char and max(starts) - min(starts) <= char
            and -char <= indent <= rules.justified_gap_chars * char
            and max(gaps, default=0.0) <= rules.justified_gap_chars * char)


def _char_width(line: Line) -> float:
    return line.box.width / max(len(line.text), 1)


def _room_end(line: Line, page_lines: list[Line], page_right: float,
              rules: ParagraphRules) -> float:
    beside = [other.box.x0 for other in page_lines if other.box.x0 >= line.box.x1
              and other.box.y0 < line.box.center_y < other.box.y1]
    if not beside:
        return min(page_right, _measure(line, page_lines, float("inf"), rules))
    end = min(beside) - rules.gutter_chars * _char_width(line)
    far = rules.measure_gutter_chars * _char_width(line)
    # Beside text far from the measure (a form's labels and their values), a measure needs
    # more lines that wrap at it.
    measure = _measure(line, page_lines, min(beside), rules, far_from=min(beside) - far)
    return min(end, measure)


def _measure(line: Line, page_lines: list[Line], next_column: float,
             rules: ParagraphRules, far_from: float = float("-inf")) -> float:
    """Where the column of `line` ends, before another column's text at `next_column` (or
    the page's edge): the furthest its lines reach in the rows around (`rules.measure_lines`
    line heights up and down), a line of it being one that starts within the line's span and
    ends before the next column. Only a column that wraps has a measure: at least
    `rules.measure_min_lines` of its lines end within `rules.measure_share` of its width of
    the furthest (`rules.measure_far_lines` when the furthest ends before `far_from`, far from
    the next column); otherwise (short lines set apart, a side bar's items, a form's labels)
    none, and the room runs on to the next column or the page's edge. A ragged column's line
    before a short word ("...has 15" / "pairs.") wrapped there; the gutter beyond its measure
    is no room."""
    reach = rules.measure_lines * max(line.box.height, 1.0)
    char = _char_width(line)
    column = [other.box for other in page_lines
              if line.box.x0 - char <= other.box.x0 < line.box.x1 and other.box.x1 < next_column
              and abs(other.box.center_y - line.box.center_y) <= reach]
    if not column:
        return float("inf")
    furthest = max(box.x1 for box in column)
    slack = rules.measure_share * (furthest - min(box.x0 for box in column))
    near = sum(box.x1 >= furthest - slack for box in column)
    wanted = rules.measure_far_lines if furthest < far_from else rules.measure_min_lines
    return furthest if near >= wanted else float("inf")


def _room_start(line: Line, page_lines: list[Line], page_left: float,
                rules: ParagraphRules) -> float:
    beside = [other.box.x1 for other in page_lines if other.box.x1 <= line.box.x0
              and other.box.y0 < line.box.center_y < other.box.y1]
    if not beside:
        return page_left
    return max(beside) + rules.gutter_chars * _char_width(line)


def _fits_before(line: Line, following: Line, left: float, rules: ParagraphRules) -> bool:
    word = following.words[0].box.width
    return line.box.x0 - left >= word + (1 + rules.hard_break_slack) * _char_width(line)


def _fits_after(line: Line, following: Line, right: float, rules: ParagraphRules) -> bool:
    word = following.words[0].box.width
    return right - line.box.x1 >= word + (1 + rules.hard_break_slack) * _char_width(line)


def _split_list_items(group: list[Line]) -> list[list[Line]]:
    """A block whose lines start with bullets is split so that each bullet starts an item."""
    if not any(BULLET_RE.match(ln.text) for ln in group):
        return [group]
    parts: list[list[Line]] = []
    for line in group:
        if BULLET_RE.match(line.text) or not parts:
            parts.append([line])
        else:
            parts[-1].append(line)
    return parts


def _classify(lines: list[Line], body: float, rules: ParagraphRules) -> Block:
    box = lines[0].box
    for ln in lines[1:]:
        box = box.union(ln.box)
    text = join_lines([ln.text for ln in lines])
    score = min(ln.score for ln in lines)
    size = statistics.median(_size(ln) for ln in lines)
    if BULLET_RE.match(lines[0].text):
        return Block(BlockKind.LIST_ITEM, box, tuple(lines), text, score)
    if (body > 0 and size >= rules.heading_size_ratio * body
            and len(text) <= rules.heading_max_chars and len(lines) <= 3
            and any(ch.isalpha() for ch in text)):
        return Block(BlockKind.SECTION_HEADER, box, tuple(lines), text, score,
                     level=2 if size >= 1.6 * body else 3)
    if (all(ln.bold for ln in lines) and len(lines) <= 2 and len(text) <= 80
            and any(ch.isalpha() for ch in text) and not text.rstrip().endswith((".", ",", ";"))):
        # A short, all-bold block set apart from the text is a run-in or side heading.
        return Block(BlockKind.SECTION_HEADER, box, tuple(lines), text, score, level=3)
    return Block(BlockKind.TEXT, box, tuple(lines), text, score)


# "low- and high-level": a hyphen left hanging before "and" or "or" and a hyphenated compound
# is the compound's, not a word broken at the line's end (TeX breaks leave at least three
# letters on the new line, never "or", and "-and" syllables are rare).
_SUSPENDED_HYPHEN = re.compile(r"(and|or|to)\s+\w+-\w")


_HEAD = re.compile(r"[^\W\d_]+$")
_TAIL = re.compile(r"[^\W\d_]+")


def join_lines(texts: list[str], keeps_hyphen: Callable[[str, str], bool] | None = None) -> str:
    """Join the lines of a paragraph: hyphenated word breaks mended, Chinese and Japanese joined
    without spaces (engine.text.joins_unspaced). `keeps_hyphen(head, tail)`: whether a line's
    "head-" before the next line's "tail" is a compound's own hyphen, kept then
    (engine/structure/hyphens.py); without it every such hyphen is a word broken in two."""
    out = ""
    for raw in texts:
        text = raw.strip()
        if not text:
            continue
        if not out:
            out = text
        elif (out.endswith("-") and len(out) >= 2 and out[-2].isalpha() and text[0].islower()
                and not _SUSPENDED_HYPHEN.match(text)):
            head, tail = _HEAD.search(out[:-1]), _TAIL.match(text)
            kept = (keeps_hyphen is not None and head is not None and tail is not None
                    and keeps_hyphen(head.group(), tail.group()))
            out = (out if kept else out[:-1]) + text
        elif joins_unspaced(out[-1]) and joins_unspaced(text[0]):
            out += text
        else:
            out += " " + text
    return out


def lines_box(lines: list[Line]) -> Box:
    box = lines[0].box
    for ln in lines[1:]:
        box = box.union(ln.box)
    return box
