"""Tables across pages: a table that ends at the foot of one page and goes on at the head of the
next (the same columns, or its header row repeated) becomes one table on its first page; the
repeated header is dropped and the later parts are marked as continuations."""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass, replace

import numpy as np

from engine.tables.cell_numbers import parse_number, uses_decimal_comma
from engine.tables.across_pages_rules import RULES, AcrossPagesRules
from engine.content.tables import Table, TableCell, TableTooLarge, filled_rows, with_head
from engine.types import Block, BlockKind, Line, PageResult

SET_ASIDE = frozenset({BlockKind.HEADER, BlockKind.FOOTER, BlockKind.FOOTNOTE})
"""Blocks that do not end a table's page or start the next one: furniture and footnotes."""


@dataclass(frozen=True)
class TablePart:
    """One page's piece of a table: where it is, its grid and where its columns line up."""

    page_index: int
    block_index: int
    grid: Table
    marks: tuple[tuple[float, float, float], ...]
    """Its lines' left, right and middle, as shares of the page's width (line_marks)."""
    edges: tuple[tuple[float, ...], ...]
    """Where its columns line up (column_edges)."""
    head_blocks: tuple[int, ...] = ()
    """Blocks in one row right above the table that the layout model took for headings or text:
    the table's header row, outside its grid."""
    head_rows: tuple[tuple[str, ...], ...] = ()
    """The head blocks' lines as rows, each left to right."""
    head_texts: tuple[str, ...] = ()
    """The header row's texts, left to right: the head blocks' first row, else the grid's."""
    tail_blocks: tuple[int, ...] = ()
    """Blocks in one band right under the table: its last rows, set apart by the layout model."""
    tail_rows: tuple[tuple[str, ...], ...] = ()
    """The tail blocks' lines as rows, each left to right."""


def join_tables_across_pages(pages: list[PageResult], rules: AcrossPagesRules = RULES
                             ) -> list[PageResult]:
    """Pages with every table that continues on the next page joined into its first part."""
    pages = list(pages)
    chain: list[TablePart] = []  # the parts of the table being joined, first one first
    for index, page in enumerate(pages):
        start = _first_part(page, index, rules)
        if chain and start is not None and _continues(pages, chain, start, rules):
            chain.append(start)
        else:
            _commit(pages, chain, rules)
            chain = []
        end = _last_part(page, index, rules)
        if end is None:
            _commit(pages, chain, rules)
            chain = []
        elif not chain or chain[-1].page_index != index or chain[-1].block_index != end.block_index:
            _commit(pages, chain, rules)
            chain = [end]
    _commit(pages, chain, rules)
    return pages


def _body(page: PageResult, rules: AcrossPagesRules) -> list[tuple[int, Block]]:
    """The page's blocks that end or open its body: not furniture or footnotes, nor a block
    lying inside a table's box (a column of it the layout model set apart)."""
    tables = [b.box for b in page.blocks if b.kind is BlockKind.TABLE]
    return [(i, b) for i, b in enumerate(page.blocks) if b.kind not in SET_ASIDE and (
        b.kind is BlockKind.TABLE
        or not any(b.box.share_inside(box) >= rules.inside_table for box in tables))]


def _last_part(page: PageResult, index: int, rules: AcrossPagesRules) -> TablePart | None:
    """The page's table when it ends the page's body (or only its last rows, set apart as
    blocks, follow it) and reaches the page's foot."""
    body = _body(page, rules)
    at = next((n for n in range(len(body) - 1, -1, -1)
               if body[n][1].kind is BlockKind.TABLE), None)
    if at is None:
        return None
    block_index, block = body[at]
    tail = _stray_row(body[at + 1:], block, rules, above=False)
    if block.table is None or len(tail) != len(body) - at - 1:
        return None  # something else ends the page
    if any(b.box.center_y > block.box.y1 for _, b in body[:at]):
        return None  # a column of text runs on below the table
    bottom = max([block.box.y1] + [page.blocks[i].box.y1 for i in tail])
    floor = min((b.box.y0 for b in page.blocks if b.kind in SET_ASIDE and b.box.y0 >= bottom),
                default=float(page.height))
    if floor - bottom > rules.max_room_below * page.height:
        return None
    head = _stray_row(body[:at], block, rules, above=True)
    return _part(page, index, block_index, head, tail, rules)


def _first_part(page: PageResult, index: int, rules: AcrossPagesRules) -> TablePart | None:
    """The page's table when it opens the page's body (after a caption that says the table
    goes on, or its header row set apart as blocks) and starts at its head."""
    body = [(i, b) for i, b in _body(page, rules) if not (
        b.kind is BlockKind.CAPTION and rules.continued_caption.search(b.text))]
    at = next((n for n, (_, b) in enumerate(body) if b.kind is BlockKind.TABLE), None)
    if at is None:
        return None
    block_index, block = body[at]
    head = _stray_row(body[:at], block, rules, above=True)
    if block.table is None or len(head) != at:
        return None  # something else opens the page
    if any(b.box.center_y < block.box.y0 for _, b in body[at + 1:]):
        return None  # text stands above the table in another column
    ceiling = max((b.box.y1 for b in page.blocks if b.kind in SET_ASIDE
                   and b.box.y1 <= block.box.y0), default=0.0)
    top = min([block.box.y0] + [page.blocks[i].box.y0 for i in head])
    if top - ceiling > rules.max_room_above * page.height:
        return None
    tail = _stray_row(body[at + 1:], block, rules, above=False)
    return _part(page, index, block_index, head, tail, rules)


def _stray_row(blocks: list[tuple[int, Block]], table: Block, rules: AcrossPagesRules,
               above: bool) -> tuple[int, ...]:
    """The blocks next to the table (the end of `blocks` above it, the start below it) that
    stand in one band touching it, inside its width: rows of the table that the layout model
    set apart (two blocks of a line each, a header or a row; or three blocks or more of
    several lines, rows: two blocks of several lines may be two columns of text)."""
    row: list[tuple[int, Block]] = []
    for i, block in (reversed(blocks) if above else blocks):
        box = block.box
        height = float(np.median([ln.box.height for ln in block.lines])) if block.lines \
            else box.height
        gap = table.box.y0 - box.y1 if above else box.y0 - table.box.y1
        if (not block.lines or block.kind is BlockKind.TABLE
                or box.x0 < table.box.x0 - rules.head_gap * height
                or box.x1 > table.box.x1 + rules.head_gap * height
                or gap < -height / 2 or gap > rules.head_gap * height
                or any(min(box.y1, b.box.y1) - max(box.y0, b.box.y0)
                       < min(box.height, b.box.height) / 2 for _, b in row)):
            break
        row.append((i, block))
    if len(row) < 2 or (len(row) < 3 and any(len(b.lines) > 1 for _, b in row)):
        return ()
    return tuple(sorted(i for i, _ in row))


def _rows_of(blocks: list[Block]) -> tuple[tuple[str, ...], ...]:
    """The lines of `blocks` in rows (middles within half a line's height), each left to
    right."""
    lines = sorted((ln for b in blocks for ln in b.lines), key=lambda ln: ln.box.center_y)
    rows: list[list] = []
    for line in lines:
        if rows and line.box.center_y - rows[-1][0].box.center_y <= rows[-1][0].box.height / 2:
            rows[-1].append(line)
        else:
            rows.append([line])
    return tuple(tuple(ln.text for ln in sorted(row, key=lambda ln: ln.box.x0)) for row in rows)


def _part(page: PageResult, index: int, block_index: int, head: tuple[int, ...],
          tail: tuple[int, ...], rules: AcrossPagesRules) -> TablePart | None:
    block = page.blocks[block_index]
    try:
        grid = filled_rows(block.table)
    except TableTooLarge:
        return None
    grid = without_empty_top(grid)
    if grid.rows == 0 or grid.cols < 2:
        return None
    head_rows = _rows_of([page.blocks[i] for i in head])
    texts = head_rows[0] if head_rows else tuple(
        c.text for c in sorted(grid.cells, key=lambda c: c.col) if c.row == 0)
    # With the lines of a column the layout model set apart inside the table's box.
    inside = [ln for b in page.blocks if b.kind is not BlockKind.TABLE
              and b.box.share_inside(block.box) >= rules.inside_table for ln in b.lines]
    marks = line_marks(block.lines + tuple(inside), page.width)
    return TablePart(index, block_index, grid, marks, column_edges(marks, grid.rows, rules),
                     head, head_rows, texts, tail, _rows_of([page.blocks[i] for i in tail]))


def without_empty_top(grid: Table) -> Table:
    """`grid` without the empty rows the table model sometimes reads above a table's first
    (a rule over the table taken for a row), so that a header repeated under it is seen."""
    top = 0
    while top < grid.rows and all(not c.text and c.rowspan == 1 for c in grid.cells
                                  if c.row == top):
        top += 1
    if top == 0:
        return grid
    return Table(tuple(replace(c, row=c.row - top) for c in grid.cells if c.row >= top),
                     grid.rows - top, grid.cols)


def line_marks(lines: Iterable[Line], page_width: int) -> tuple[tuple[float, float, float], ...]:
    """Each horizontal line of a table as (left, right, middle), shares of the page's width."""
    if page_width <= 0:
        return ()
    return tuple((ln.box.x0 / page_width, ln.box.x1 / page_width, ln.box.center_x / page_width)
                 for ln in lines if not ln.vertical and not ln.slanted and ln.text.strip())


def column_edges(marks: tuple[tuple[float, float, float], ...], rows: int,
                 rules: AcrossPagesRules = RULES) -> tuple[tuple[float, ...], ...]:
    """Where the table's columns line up: for left edges, right edges and middles apart, the
    places shared by lines of two rows or more (one row: every line's), as page-width shares."""
    least = 2 if rows >= 3 else 1
    found = []
    for values in zip(*marks) if marks else ((), (), ()):
        places: list[list[float]] = []
        for value in sorted(values):
            if places and value - places[-1][-1] <= rules.align_tolerance:
                places[-1].append(value)
            else:
                places.append([value])
        found.append(tuple(float(np.median(p)) for p in places if len(p) >= least))
    return tuple(found)


def aligned_share(marks: tuple[tuple[float, float, float], ...],
                  edges: tuple[tuple[float, ...], ...], rules: AcrossPagesRules = RULES) -> float:
    """The share of `marks` (lines) whose left, right or middle lies on one of `edges`."""
    if not marks or not edges:
        return 0.0
    hits = sum(any(any(abs(value - edge) <= rules.align_tolerance for edge in places)
                   for value, places in zip(mark, edges)) for mark in marks)
    return hits / len(marks)


def same_columns(a: TablePart, b: TablePart, least: float, rules: AcrossPagesRules = RULES
                 ) -> bool:
    """At least `least` of each part's lines stand on the other's column edges (left, right
    or middle)."""
    return min(aligned_share(a.marks, b.edges, rules),
               aligned_share(b.marks, a.edges, rules)) >= least


def _continues(pages: list[PageResult], chain: list[TablePart], part: TablePart,
               rules: AcrossPagesRules) -> bool:
    """Whether `part`, opening its page, goes on with the table whose parts are `chain`."""
    last = chain[-1]
    if part.page_index != last.page_index + 1 \
            or pages[part.page_index].page_number != pages[last.page_index].page_number + 1:
        return False
    first = chain[0]
    repeated = header_skip(first, part, rules) is not None
    lead = _lead_row(first, part, rules)
    if part.head_blocks and not repeated and not lead:
        return False  # a header row unlike the first part's: another table
    if not repeated and not lead and is_header_row(part.grid, 0, rules) and (
            first.head_blocks or is_header_row(first.grid, 0, rules)):
        return False  # a header of its own, unlike the first part's: another table
    if part.grid.cols != first.grid.cols:
        # The table model split one part's cells differently: the same table only when its
        # lines stand on the same columns, nearly all of them or, under a repeated header,
        # enough to tell the header did not repeat by chance.
        return same_columns(last, part, rules.min_aligned_share_header if repeated
                            else rules.min_aligned_share_uneven)
    return repeated or same_columns(last, part, rules.min_aligned_share)


def _lead_row(first: TablePart, part: TablePart, rules: AcrossPagesRules) -> bool:
    """Whether the blocks above `part` are its first rows of data, which the layout model set
    apart from the table: no repeated header, and a number among their first row."""
    return bool(part.head_blocks) and header_skip(first, part, rules) is None and any(
        parse_number(text) is not None for text in part.head_texts)


def header_skip(first: TablePart, part: TablePart, rules: AcrossPagesRules = RULES
                ) -> int | None:
    """How many rows of `part`'s grid repeat the table's header (0: the repeated header stands
    above the grid, as blocks), or None when `part` repeats no header."""
    if first.head_blocks or part.head_blocks:
        if not _similar(first.head_texts, part.head_texts, rules):
            return None
        return 0 if part.head_blocks else 1
    count = repeated_header_rows(first.grid, part.grid, rules)
    return count or None


def _similar(a: tuple[str, ...] | list[str], b: tuple[str, ...] | list[str],
             rules: AcrossPagesRules) -> bool:
    a = ["".join(t.lower().split()) for t in a]
    b = ["".join(t.lower().split()) for t in b]
    # Cell by cell when both rows have as many; else the row's text as a whole.
    glue = "|" if len(a) == len(b) else ""
    return any(a) and difflib.SequenceMatcher(
        None, glue.join(a), glue.join(b)).ratio() >= rules.header_similarity


def _row_texts(grid: Table, row: int) -> list[str]:
    return [c.text for c in sorted(grid.cells, key=lambda c: c.col) if c.row == row]


def repeated_header_rows(first: Table, part: Table, rules: AcrossPagesRules = RULES
                         ) -> int:
    """How many leading rows of `part` repeat the leading rows of `first`, one for one."""
    count = 0
    while count < min(rules.max_header_rows, first.rows - 1, part.rows) \
            and _similar(_row_texts(first, count), _row_texts(part, count), rules):
        count += 1
    return count


def is_header_row(grid: Table, row: int, rules: AcrossPagesRules = RULES) -> bool:
    """No number in the row, over a column whose next rows are mostly numbers."""
    comma = uses_decimal_comma(c.text for c in grid.cells)
    cells = [c for c in grid.cells if c.row == row]
    if any(parse_number(c.text, comma) is not None for c in cells if c.text):
        return False
    below = [c for c in grid.cells if row < c.row <= row + rules.numeric_rows and c.text]
    for cell in cells:
        column = [c for c in below if c.col == cell.col and c.colspan == 1]
        numbers = sum(parse_number(c.text, comma) is not None for c in column)
        if column and numbers >= rules.numeric_share * len(column):
            return True
    return False


def part_rows(first: TablePart, part: TablePart, rules: AcrossPagesRules = RULES) -> Table:
    """The rows a later part adds to the table: without a repeated header, with its first
    row of data when the layout model set it apart as blocks; all of them body rows."""
    skip = header_skip(first, part, rules) or 0
    lead = _lead_row(first, part, rules)
    grid = Table(tuple(replace(c, row=c.row - skip, header=False)
                           for c in part.grid.cells if c.row >= skip),
                     part.grid.rows - skip, part.grid.cols)
    return joined_grid([with_rows(Table((), 0, 0), part.head_rows), grid]) if lead else grid


def with_rows(grid: Table, rows: tuple[tuple[str, ...], ...]) -> Table:
    """`grid` with `rows` (texts left to right) added under it as body rows."""
    cells = list(grid.cells) + [TableCell(grid.rows + r, c, text)
                                for r, row in enumerate(rows) for c, text in enumerate(row)]
    return Table(tuple(cells), grid.rows + len(rows),
                     max([grid.cols] + [len(row) for row in rows]))


def joined_grid(parts: list[Table]) -> Table:
    """The parts' rows one under the other."""
    cells = list(parts[0].cells)
    rows = parts[0].rows
    for grid in parts[1:]:
        cells.extend(replace(c, row=c.row + rows) for c in grid.cells)
        rows += grid.rows
    return Table(tuple(cells), rows, max(g.cols for g in parts))


def _commit(pages: list[PageResult], chain: list[TablePart], rules: AcrossPagesRules) -> None:
    """The chain's table written whole on its first part's block, the later parts marked."""
    if len(chain) < 2:
        return
    first = chain[0]
    grids = [first.grid] + [part_rows(first, part, rules) for part in chain[1:]]
    # The last rows of every part but the last, when the layout model set them apart below it.
    grids = [with_rows(grid, part.tail_rows) if n < len(chain) - 1 else grid
             for n, (grid, part) in enumerate(zip(grids, chain))]
    grid = joined_grid(grids)
    numbers = tuple(pages[part.page_index].page_number for part in chain)
    _replace_block(pages, first.page_index, first.block_index,
                   table=with_head(grid.cells, grid.rows, grid.cols), table_pages=numbers)
    for part in chain[:-1]:
        for i in part.tail_blocks:
            _replace_block(pages, part.page_index, i, continues_from_page=numbers[0])
    for part in chain[1:]:
        _replace_block(pages, part.page_index, part.block_index, continues_from_page=numbers[0])
        # Its header row or first row, set apart as blocks, is in the table now.
        if header_skip(first, part, rules) == 0 or _lead_row(first, part, rules):
            for i in part.head_blocks:
                _replace_block(pages, part.page_index, i, continues_from_page=numbers[0])


def _replace_block(pages: list[PageResult], page_index: int, block_index: int, **changes
                   ) -> None:
    page = pages[page_index]
    blocks = list(page.blocks)
    blocks[block_index] = replace(blocks[block_index], **changes)
    pages[page_index] = replace(page, blocks=tuple(blocks))
