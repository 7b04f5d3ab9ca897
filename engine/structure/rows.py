"""Pieces of one visual line joined: a font change, a superscript, the far-apart words of a
justified narrow column, never two columns across their gutter."""

from __future__ import annotations

from engine.types import Line

# Pieces of one line are at most this many line heights apart: justified text stretches word
# gaps past one em, while column gutters are wider (and layout regions separate columns anyway).
MAX_WORD_GAP = 1.5
# A justified line of a narrow column, one or two words to the line, spreads its words further
# apart still, and the text detector then finds each word alone ("This        module"). Such
# pieces up to JUSTIFIED_GAP line heights apart are one line when the lines above and below
# (within JUSTIFIED_REACH_LINES) together leave no blank column in the gap wider than
# COMMON_BLANK line heights: a gutter is blank in every row, a justified line's spaces fall
# elsewhere in each. The three values were first set by looking at one generated scanned
# broadsheet (seed 1, page 006: gaps of 2.8 line heights, coincidental blanks of 0.27 line
# heights over 2.5 lines of rows, none over 4), then checked, together with the band rule of
# reading_order.py, on the generated set (seeds 1 and 2), the real published pages and the dev
# set: no page of the generated set lower, the dev set unchanged. Swept afterwards on the 80
# scanned pages of generated seed 1 (tools.structure.ab_order collect, then reassemble with
# each of GAP 3/4/5 x REACH 3/4/5 x BLANK 0.15/0.25/0.35): every setting scores 0.9811-0.9815
# (broadsheets 0.953-0.957; these values 0.9813 and 0.955), a plateau, so they stay; the sweep
# did not cover the published pages or seed 2.
JUSTIFIED_GAP = 4.0
JUSTIFIED_REACH_LINES = 4.0
COMMON_BLANK = 0.25


def merge_fragments(lines: list[Line], page_lines: list[Line] | None = None) -> list[Line]:
    """Pieces of one visual line (font changes, superscripts) become one line: they share the
    line's vertical extent and follow each other with no more than a stretched word space of
    gap, and no column gutter runs between them. `page_lines`: every line of the page, to see
    the gutter from (a layout region can hold lines of two columns); default `lines`."""
    context = lines if page_lines is None else page_lines
    merged: list[Line] = []
    # Lines still open to a piece on their right, most recent last: taken left to right, a line
    # that ends further left than any gap allows can take no later piece. (A fixed window of the
    # last lines lost the pieces of an index row: a column of 60 entries starts between them.)
    reach = max([JUSTIFIED_GAP * max(ln.box.height, 1.0) for ln in lines]
                + [ln.box.width for ln in lines], default=1.0)
    open_rows: list[int] = []
    for line in sorted(lines, key=lambda ln: (ln.box.x0, ln.box.y0)):
        open_rows = [i for i in open_rows if merged[i].box.x1 + reach >= line.box.x0]
        for i in reversed(open_rows):
            prev = merged[i]
            if prev.vertical or line.vertical:
                continue
            height = max(min(prev.box.height, line.box.height), 1.0)
            overlap = min(prev.box.y1, line.box.y1) - max(prev.box.y0, line.box.y0)
            gap = line.box.x0 - prev.box.x1
            if overlap >= 0.5 * height and gap >= -0.2 * height and _one_row(
                    prev, line, gap / height, context, lines, merged):
                big = prev if len(prev.text) >= len(line.text) else line
                # A drop cap is one tall letter that begins the word beside it.
                drop_cap = len(prev.text) == 1 and prev.box.height >= 2 * line.box.height
                joiner = "" if drop_cap else " "
                merged[i] = Line(text=prev.text + joiner + line.text,
                                 box=line.box if drop_cap else prev.box.union(line.box),
                                 score=min(prev.score, line.score), font_size=big.font_size,
                                 bold=big.bold, vertical=False,
                                 words=prev.words + line.words)
                break
        else:
            merged.append(line)
            open_rows.append(len(merged) - 1)
    return merged


# A row's first piece begins within this many line heights of its column's full rows (a
# paragraph's first line is indented by about one): a running head over a page's text column,
# its page number flush with the column's edge, begins far inside it.
PARAGRAPH_INDENT = 2.0


def _one_row(left: Line, right: Line, gap: float, context: list[Line], own: list[Line],
             rows: list[Line]) -> bool:
    """Whether two level pieces `gap` line heights apart are one line's words: no gutter runs
    between near pieces; spread words fill a wide gap's column, or a line of their own region
    spans the row (a justified row of two or three words in a narrow column spreads them four
    and more line heights apart), from where the row begins. `rows`: the region's lines merged
    so far, the pieces of every row left of `right` joined."""
    if gap <= MAX_WORD_GAP:
        return not _gutter_between(left, right, context)
    if gap <= JUSTIFIED_GAP and _spread_words(left, right, context, own):
        return True
    start = min((ln.box.x0 for ln in rows if ln is not right and level_with(ln, left)),
                default=left.box.x0)
    return justified_span(start, right.box.x1, right, rows, indent=PARAGRAPH_INDENT)


def level_with(a: Line, b: Line) -> bool:
    """Whether two lines stand on one row (half the lower one's height shared)."""
    overlap = min(a.box.y1, b.box.y1) - max(a.box.y0, b.box.y0)
    return overlap >= 0.5 * min(max(a.box.height, 1.0), max(b.box.height, 1.0))


def justified_span(start: float, end: float, row: Line, lines: list[Line],
                   indent: float | None = None) -> bool:
    """Whether a line of `lines` as high as `row`, on another row within JUSTIFIED_REACH_LINES,
    runs from `start` to `end` and is flush with `end` (within FLUSH_LINES of the height): a
    full row of the justified column that `row`'s pieces from `start` to `end` lie in. `end`
    left of `start` looks for a line starting flush with it. `indent`: the line also begins
    within this many line heights of `start` (`start` is where the row begins)."""
    height = max(row.box.height, 1.0)
    slack, reach = FLUSH_LINES * height, JUSTIFIED_REACH_LINES * height
    lead = float("inf") if indent is None else indent * height
    for other in lines:
        box = other.box
        if (other.vertical or abs(box.height - height) > SAME_HEIGHT * height
                or not row.box.y0 - reach <= box.center_y <= row.box.y1 + reach
                or min(box.y1, row.box.y1) - max(box.y0, row.box.y0) > 0.5 * height):
            continue
        if (end >= start and start - lead <= box.x0 <= start + slack
                and abs(box.x1 - end) <= slack):
            return True
        if (end < start and start + lead >= box.x1 >= start - slack
                and abs(box.x0 - end) <= slack):
            return True
    return False


# How far above and below a gap its neighbours are looked for, in line heights.
GUTTER_REACH_LINES = 2.5
# The share of a gap at either edge that a neighbour may reach into and still end before it.
# Chosen on the real two-column pages of tools/structure published (40 pages, born-digital):
# seed 1 read 0.908 with no slack, 0.926 at 0.02-0.1, 0.938 at 0.2-0.45; seed 2 (held out)
# 0.926-0.927 at every value; the generated set (seed 1, 8 pages per family, born-digital and
# scanned) and the dev set read the same with 0.2 as with none.
GUTTER_EDGE_SLACK = 0.2


# Lines within this share of the pieces' height are set in their size; a column's lines end
# (start) flush with a piece when within FLUSH_LINES of its height of its end (start).
SAME_HEIGHT = 0.2
FLUSH_LINES = 0.5
# Rows flush with both pieces on the side no line crosses: one row of a narrow justified column
# can end and start level with the next row's words by chance ("for all" over "or it");
# a gutter's edges hold in every row.
FLUSH_ROWS = 2


def _gutter_between(left: Line, right: Line, lines: list[Line]) -> bool:
    """Whether the gap between two pieces of a row is a column gutter: lines just above or below
    end before it and start after it, and none runs across it. Inside a paragraph the lines
    around a font change run through the gap; in two columns of short items (exercises, a
    narrow gutter) nothing does. A row with no neighbours is not judged a gutter.

    At the top of two columns a headline or a lead paragraph across both runs through the gap
    above their first row (at their foot a picture or the next story below the last): one side
    is enough when the lines there, in the pieces' size, end and start flush with the pieces
    (within FLUSH_LINES of their height), as justified columns do at a gutter; a paragraph's
    short last line under the row ends anywhere."""
    # Justified lines end exactly at the gutter's edge (to the hundredth of a point, or a pixel
    # of a scan): touching the gap is not running across it.
    slack = GUTTER_EDGE_SLACK * max(right.box.x0 - left.box.x1, 0.0)
    x0, x1 = left.box.x1 + slack, right.box.x0 - slack
    height = max(min(left.box.height, right.box.height), 1.0)
    reach = GUTTER_REACH_LINES * height
    top, bottom = min(left.box.y0, right.box.y0) - reach, max(left.box.y1, right.box.y1) + reach
    middle = right.box.center_y
    # Per side (0 above, 1 below): runs across, ends before, starts after, the last two flush.
    seen: list[list] = [[False, False, False, 0, 0], [False, False, False, 0, 0]]
    for other in lines:
        if other.vertical or other.box.y1 < top or other.box.y0 > bottom:
            continue
        row = min(other.box.y1, right.box.y1) - max(other.box.y0, right.box.y0)
        if row > 0.5 * min(other.box.height, right.box.height):
            continue  # a piece of this same row, not a neighbour
        side = seen[int(other.box.center_y > middle)]
        side[0] |= other.box.x0 < x1 and other.box.x1 > x0
        side[1] |= other.box.x1 <= x0
        side[2] |= other.box.x0 >= x1
        if abs(other.box.height - height) <= SAME_HEIGHT * height:
            side[3] += other.box.x1 <= x0 and left.box.x1 - other.box.x1 <= FLUSH_LINES * height
            side[4] += other.box.x0 >= x1 and other.box.x0 - right.box.x0 <= FLUSH_LINES * height
    (across0, before0, after0, _, _), (across1, before1, after1, _, _) = seen
    if not (across0 or across1):
        return (before0 or before1) and (after0 or after1)
    return any(not side[0] and min(side[3], side[4]) >= FLUSH_ROWS for side in seen)


def _spread_words(left: Line, right: Line, lines: list[Line], own: list[Line]) -> bool:
    """Whether a wide gap between two pieces of a row lies inside one justified column: the
    rows above and the rows below (within JUSTIFIED_REACH_LINES) each cover all of it but a
    blank narrower than COMMON_BLANK line heights. A column's first or last row has rows on one
    side only: there nothing lies under (or over) the pieces at all, not even beside the gap
    (a column's foot at the bottom of the page, its last row spread over the width), and a
    line there begins within PARAGRAPH_INDENT of the row's start. Or a
    line of the pieces' own region (`own`), as high as they are, runs across the whole gap
    within JUSTIFIED_REACH_LINES: a gutter is blank in every row of a column, and a narrow column
    of one or two words a row leaves blanks in the same place by chance."""
    if _crossed_nearby(left, right, own):
        return True
    height = max(min(left.box.height, right.box.height), 1.0)
    x0, x1 = left.box.x1, right.box.x0
    reach = JUSTIFIED_REACH_LINES * height
    above: list[tuple[float, float]] = []
    below: list[tuple[float, float]] = []
    near = [False, False]  # any line over (under) the pieces, in the gap or beside it
    aligned = [False, False]  # any of those beginning where the pieces' row does
    for other in lines:
        box = other.box
        if other.vertical or box.x1 <= left.box.x0 or box.x0 >= right.box.x1:
            continue
        row = min(box.y1, right.box.y1) - max(box.y0, right.box.y0)
        if row > 0.5 * min(box.height, right.box.height):
            continue  # a piece of this same row
        in_gap = box.x1 > x0 and box.x0 < x1
        starts_row = abs(box.x0 - left.box.x0) <= PARAGRAPH_INDENT * height
        if left.box.y0 - reach <= box.y1 <= left.box.y0 + 0.5 * height:
            near[0] = True
            aligned[0] |= starts_row
            if in_gap:
                above.append((box.x0, box.x1))
        elif right.box.y1 - 0.5 * height <= box.y0 <= right.box.y1 + reach:
            near[1] = True
            aligned[1] |= starts_row
            if in_gap:
                below.append((box.x0, box.x1))
    sides = [spans for spans, seen in zip((above, below), near) if seen]
    if len(sides) == 1 and not any(aligned):
        return False  # a running head over the text column, its page number at the edge
    return bool(above or below) and all(
        _widest_blank(x0, x1, spans) < COMMON_BLANK * height for spans in sides)


def _crossed_nearby(left: Line, right: Line, own: list[Line]) -> bool:
    height = max(min(left.box.height, right.box.height), 1.0)
    reach = JUSTIFIED_REACH_LINES * height
    return any(not other.vertical and other.box.x0 <= left.box.x1 and other.box.x1 >= right.box.x0
               and abs(other.box.height - height) <= SAME_HEIGHT * height
               and left.box.y0 - reach <= other.box.center_y <= right.box.y1 + reach
               for other in own if other is not left and other is not right)


def _widest_blank(x0: float, x1: float, spans: list[tuple[float, float]]) -> float:
    """The widest stretch of [x0, x1] that no span covers."""
    widest, at = 0.0, x0
    for a, b in sorted(spans):
        if a > at:
            widest = max(widest, min(a, x1) - at)
        at = max(at, b)
        if at >= x1:
            break
    return max(widest, x1 - at)
