"""Tables without ruling lines on born-digital pages, found from where the text layer sets its
words: several rows in a row, each of three or more pieces, whose pieces fall into the same
columns (a blank stripe down the rows between every two columns), one of them numbers.

The layout model reads such a table as text blocks and list items now and then (a table
continued on the next page, its header left behind, most of all), and the table model, shown a
crop without rules, may see one column in it. A text layer's lines are exact: a cell set on its
own is a line of its own, so its columns can be read off the lines' boxes alone."""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from engine.tables.cell_numbers import parse_number
from engine.page import PageState
from engine.content.tables import Table, TableCell
from engine.tables.evidence import ruled
from engine.tables.evidence_rules import TABLE_EVIDENCE, TableEvidenceRules
from engine.tables.lineless_rules import LINELESS, LinelessRules
from engine.types import BlockKind, Box, Line, Region, TextSource

# Regions a table found here takes in: the text and list regions mostly inside it.
TAKEN_KINDS = frozenset({BlockKind.TEXT, BlockKind.LIST_ITEM})
# Lines such a table is read from: those of text, list and table regions, and those no region
# holds (a row's first cell half outside a small region the layout model drew on it).
LOOSE = TAKEN_KINDS | {BlockKind.TABLE, None}


@dataclass(frozen=True)
class LinelessTable:
    """A table read off its lines: its box and its grid (the first row the head when bold)."""

    box: Box
    grid: Table
    lines: tuple[Line, ...]


def _rows(lines: list[Line], rules: LinelessRules = LINELESS) -> list[list[Line]]:
    """Lines grouped into visual rows, top to bottom, each row left to right."""
    rows: list[list[Line]] = []
    for line in sorted(lines, key=lambda ln: ln.box.center_y):
        if rows:
            top = min(ln.box.y0 for ln in rows[-1])
            bottom = max(ln.box.y1 for ln in rows[-1])
            overlap = min(bottom, line.box.y1) - max(top, line.box.y0)
            if overlap >= rules.same_row * min(bottom - top, line.box.height):
                rows[-1].append(line)
                continue
        rows.append([line])
    return [sorted(row, key=lambda ln: ln.box.x0) for row in rows]


def _pieces(row: list[Line], gap: float) -> list[tuple[float, float]]:
    """The row's stretches of ink along x, lines closer than `gap` taken as one."""
    pieces: list[list[float]] = []
    for line in row:
        if pieces and line.box.x0 - pieces[-1][1] < gap:
            pieces[-1][1] = max(pieces[-1][1], line.box.x1)
        else:
            pieces.append([line.box.x0, line.box.x1])
    return [(a, b) for a, b in pieces]


def _columns(rows: list[list[tuple[float, float]]], gap: float) -> list[tuple[float, float]]:
    """Column stretches of the rows' pieces together: x ranges no blank stripe of `gap` cuts."""
    spans = sorted(p for row in rows for p in row)
    columns: list[list[float]] = []
    for x0, x1 in spans:
        if columns and x0 - columns[-1][1] < gap:
            columns[-1][1] = max(columns[-1][1], x1)
        else:
            columns.append([x0, x1])
    return [(a, b) for a, b in columns]


def _is_table(rows: list[list[tuple[float, float]]], gap: float,
              rules: LinelessRules = LINELESS) -> bool:
    columns = _columns(rows, gap)
    if len(rows) < rules.min_rows or len(columns) < rules.min_cols:
        return False
    # Every piece lies in one column by construction; a row is a table row when it fills
    # most columns with one piece each.
    for row in rows:
        if len(row) > len(columns) or len(row) < rules.min_filled * len(columns):
            return False
    return True


def find_tables(lines: list[Line], rules: LinelessRules = LINELESS) -> list[LinelessTable]:
    """The lineless tables among `lines` (a text layer's, on one page): maximal runs of rows
    whose pieces keep three or more columns apart, each read into a grid."""
    if not lines:
        return []
    height = float(np.median([ln.box.height for ln in lines]))
    gap = rules.cell_gap * height
    rows = _rows([ln for ln in lines if ln.text.strip() and not ln.vertical], rules)
    pieces = [_pieces(row, gap) for row in rows]
    found: list[LinelessTable] = []
    start = 0
    while start < len(rows):
        end = start
        while end + 1 < len(rows):
            step = rows[end + 1][0].box.center_y - rows[end][0].box.center_y
            if step > rules.max_row_step * height or len(pieces[end + 1]) < rules.min_cols:
                break
            if len(pieces[start]) < rules.min_cols or not _aligned(pieces[start:end + 2], gap):
                break
            end += 1
        if end - start + 1 >= rules.min_rows and _is_table(pieces[start:end + 1], gap, rules):
            table = _read(rows[start:end + 1], gap, rules)
            if table is not None:
                found.append(table)
            start = end + 1
        else:
            start += 1
    return found


def _aligned(rows: list[list[tuple[float, float]]], gap: float) -> bool:
    """The rows keep as many columns together as their widest row has pieces."""
    return len(_columns(rows, gap)) == max(len(row) for row in rows)


def _numeric_column(texts: list[list[list[str]]], rules: LinelessRules = LINELESS) -> bool:
    """Some column below the first row holds numbers in most of its cells."""
    body = texts[1:]
    for col in range(len(texts[0])):
        cells = [" ".join(row[col]) for row in body if row[col]]
        numbers = sum(parse_number(cell.rstrip("%")) is not None for cell in cells)
        if cells and numbers >= rules.numeric_share * len(body):
            return True
    return False


def _read(rows: list[list[Line]], gap: float, rules: LinelessRules = LINELESS
          ) -> LinelessTable | None:
    columns = _columns([_pieces(row, gap) for row in rows], gap)
    texts: list[list[list[str]]] = [[[] for _ in columns] for _ in rows]
    for r, row in enumerate(rows):
        for line in row:
            middle = (line.box.x0 + line.box.x1) / 2
            col = next(i for i, (x0, x1) in enumerate(columns) if x0 - gap < middle < x1 + gap)
            texts[r][col].append(line.text.strip())
    words = [len(" ".join(cell).split()) for row in texts for cell in row if cell]
    if not words or sum(words) / len(words) > rules.max_cell_words or not _numeric_column(
            texts, rules):
        return None
    head = all(line.bold for line in rows[0]) and not any(
        line.bold for row in rows[1:] for line in row)
    cells = tuple(TableCell(r, c, " ".join(texts[r][c]), header=head and r == 0)
                  for r in range(len(rows)) for c in range(len(columns)))
    all_lines = tuple(line for row in rows for line in row)
    box = all_lines[0].box
    for line in all_lines[1:]:
        box = box.union(line.box)
    return LinelessTable(box, Table(cells, len(rows), len(columns), header_rows=1 if head else 0), all_lines)


def find_lineless_tables(page: PageState, models, evidence: TableEvidenceRules = TABLE_EVIDENCE,
                         rules: LinelessRules = LINELESS) -> PageState:
    """The page stage: on a page read from its text layer, text and list regions that together
    set a lineless table become one table region with its cells. Table regions inside it go
    into it too (the layout model boxes a stretch of its rows as a table now and then); a
    table found inside table regions alone, or one with ruling lines (`evidence`), is the
    table model's."""
    if page.regions is None or page.text_source is not TextSource.TEXT_LAYER:
        return page
    regions = list(page.regions)
    homes = {id(line): _home(line, regions) for line in page.lines}
    loose = [line for line in page.lines if homes[id(line)] in LOOSE]
    changed = False
    for table in find_tables(loose, rules):
        from_text = sum(homes[id(line)] is not BlockKind.TABLE for line in table.lines)
        if from_text < rules.min_text_lines or ruled(page.crop(table.box), evidence):
            continue
        taken = [r for r in regions if r.kind in TAKEN_KINDS | {BlockKind.TABLE}
                 and r.box.share_inside(table.box) >= rules.taken_share]
        if _leaves_out(page.lines, table, taken) or _held_elsewhere(table, regions, taken):
            continue
        regions = [r for r in regions if all(r is not t for t in taken)]
        regions.append(Region(kind=BlockKind.TABLE, box=table.box, label="lineless",
                              table=table.grid))
        changed = True
    return replace(page, regions=tuple(regions)) if changed else page


def _leaves_out(lines: tuple[Line, ...], table: LinelessTable, taken: list[Region]) -> bool:
    """Whether taking the regions into the table would lose text: a line with text inside the
    table's box, or held by a region it takes, that is not one of the table's cells."""
    cells = {id(line) for line in table.lines}
    return any(line.text.strip() and id(line) not in cells and (
        line.box.share_inside(table.box) >= 0.5
        or any(line.box.share_inside(r.box) >= 0.5 for r in taken)) for line in lines)


def _held_elsewhere(table: LinelessTable, regions: list[Region], taken: list[Region]) -> bool:
    """Whether a cell's line stays held by a region the table does not take (its text would
    then be read twice, in that region and in the table)."""
    kept = [r for r in regions if all(r is not t for t in taken)]
    return any(line.box.share_inside(r.box) >= 0.5 for line in table.lines for r in kept)


def _home(line: Line, regions: list[Region]) -> BlockKind | None:
    """The kind of the region holding most of the line (None: no region holds half of it)."""
    best, share = None, 0.0
    for region in regions:
        inside = line.box.share_inside(region.box)
        if inside > share:
            best, share = region.kind, inside
    return best if share >= 0.5 else None


def table_in_region(lines: list[Line], rules: LinelessRules = LINELESS) -> Table | None:
    """A table region's lines read as one lineless table, when they all are one."""
    tables = find_tables(lines, rules)
    if len(tables) != 1 or len(tables[0].lines) != len([ln for ln in lines if ln.text.strip()]):
        return None
    return tables[0].grid
