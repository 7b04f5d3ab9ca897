"""Pieces of one visual line joined: a font change, a superscript, the far-apart words of a
justified narrow column, never two columns across their gutter."""

from __future__ import annotations

from engine.structure.row_rules import ROWS, RowRules
from engine.types import Line


def merge_fragments(lines: list[Line], page_lines: list[Line] | None = None,
                    rules: RowRules = ROWS) -> list[Line]:
    """Pieces of one visual line (font changes, superscripts) become one line: they share the
    line's vertical extent and follow each other with no more than a stretched word space of
    gap, and no column gutter runs between them. `page_lines`: every line of the page, to see
    the gutter from (a layout region can hold lines of two columns); default `lines`. `rules`:
    how far apart a line's pieces may be (engine/structure/row_rules.py)."""
    context = lines if page_lines is None else page_lines
    merged: list[Line] = []
    # Lines still open to a piece on their right, most recent last: taken left to right, a line
    # that ends further left than any gap allows can take no later piece. (A fixed window of the
    # last lines lost the pieces of an index row: a column of 60 entries starts between them.)
    reach = max([rules.justified_gap * max(ln.box.height, 1.0) for ln in lines]
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
                    prev, line, gap / height, context, lines, merged, rules):
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


def _one_row(left: Line, right: Line, gap: float, context: list[Line], own: list[Line],
             rows: list[Line], rules: RowRules) -> bool:
    """Whether two level pieces `gap` line heights apart are one line's words: no gutter runs
    between near pieces; spread words fill a wide gap's column, or a line of their own region
    spans the row (a justified row of two or three words in a narrow column spreads them four
    and more line heights apart), from where the row begins. `rows`: the region's lines merged
    so far, the pieces of every row left of `right` joined."""
    if gap <= rules.max_word_gap:
        return not _gutter_between(left, right, context, rules)
    if gap <= rules.justified_gap and _spread_words(left, right, context, own, rules):
        return True
    start = min((ln.box.x0 for ln in rows if ln is not right and level_with(ln, left)),
                default=left.box.x0)
    return justified_span(start, right.box.x1, right, rows, rules.paragraph_indent, rules)


def level_with(a: Line, b: Line) -> bool:
    """Whether two lines stand on one row (half the lower one's height shared)."""
    overlap = min(a.box.y1, b.box.y1) - max(a.box.y0, b.box.y0)
    return overlap >= 0.5 * min(max(a.box.height, 1.0), max(b.box.height, 1.0))


def justified_span(start: float, end: float, row: Line, lines: list[Line],
                   indent: float | None = None, rules: RowRules = ROWS) -> bool:
    """Whether a line of `lines` as high as `row` (within `rules.same_height`), on another row
    within `rules.justified_reach_lines`, runs from `start` to `end` and is flush with `end`
    (within `rules.flush_lines` of the height): a full row of the justified column that `row`'s
    pieces from `start` to `end` lie in. `end` left of `start` looks for a line starting flush
    with it. `indent`: the line also begins within this many line heights of `start` (`start`
    is where the row begins)."""
    height = max(row.box.height, 1.0)
    slack, reach = rules.flush_lines * height, rules.justified_reach_lines * height
    lead = float("inf") if indent is None else indent * height
    for other in lines:
        box = other.box
        if (other.vertical or abs(box.height - height) > rules.same_height * height
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


def _gutter_between(left: Line, right: Line, lines: list[Line], rules: RowRules) -> bool:
    """Whether the gap between two pieces of a row is a column gutter: lines just above or below
    end before it and start after it, and none runs across it. Inside a paragraph the lines
    around a font change run through the gap; in two columns of short items (exercises, a
    narrow gutter) nothing does. A row with no neighbours is not judged a gutter.

    At the top of two columns a headline or a lead paragraph across both runs through the gap
    above their first row (at their foot a picture or the next story below the last): one side
    is enough when the lines there, in the pieces' size, end and start flush with the pieces
    (within `rules.flush_lines` of their height), as justified columns do at a gutter; a paragraph's
    short last line under the row ends anywhere."""
    # Justified lines end exactly at the gutter's edge (to the hundredth of a point, or a pixel
    # of a scan): touching the gap is not running across it.
    slack = rules.gutter_edge_slack * max(right.box.x0 - left.box.x1, 0.0)
    x0, x1 = left.box.x1 + slack, right.box.x0 - slack
    height = max(min(left.box.height, right.box.height), 1.0)
    reach = rules.gutter_reach_lines * height
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
        if abs(other.box.height - height) <= rules.same_height * height:
            flush = rules.flush_lines * height
            side[3] += other.box.x1 <= x0 and left.box.x1 - other.box.x1 <= flush
            side[4] += other.box.x0 >= x1 and other.box.x0 - right.box.x0 <= flush
    (across0, before0, after0, _, _), (across1, before1, after1, _, _) = seen
    if not (across0 or across1):
        return (before0 or before1) and (after0 or after1)
    return any(not side[0] and min(side[3], side[4]) >= rules.flush_rows for side in seen)


def _spread_words(left: Line, right: Line, lines: list[Line], own: list[Line],
                  rules: RowRules) -> bool:
    """Whether a wide gap between two pieces of a row lies inside one justified column: the
    rows above and the rows below (within `rules.justified_reach_lines`) each cover all of it
    but a blank narrower than `rules.common_blank` line heights. A column's first or last row
    has rows on one side only: there nothing lies under (or over) the pieces at all, not even
    beside the gap (a column's foot at the bottom of the page, its last row spread over the
    width), and a line there begins within `rules.paragraph_indent` of the row's start. Or a
    line of the pieces' own region (`own`), as high as they are, runs across the whole gap
    within `rules.justified_reach_lines`: a gutter is blank in every row of a column, and a
    narrow column of one or two words a row leaves blanks in the same place by chance."""
    if _crossed_nearby(left, right, own, rules):
        return True
    height = max(min(left.box.height, right.box.height), 1.0)
    x0, x1 = left.box.x1, right.box.x0
    reach = rules.justified_reach_lines * height
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
        starts_row = abs(box.x0 - left.box.x0) <= rules.paragraph_indent * height
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
        _widest_blank(x0, x1, spans) < rules.common_blank * height for spans in sides)


def _crossed_nearby(left: Line, right: Line, own: list[Line], rules: RowRules) -> bool:
    height = max(min(left.box.height, right.box.height), 1.0)
    reach = rules.justified_reach_lines * height
    return any(not other.vertical and other.box.x0 <= left.box.x1 and other.box.x1 >= right.box.x0
               and abs(other.box.height - height) <= rules.same_height * height
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
