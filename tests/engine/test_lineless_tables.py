"""Lineless tables found from a text layer's alignment (engine/tables/lineless.py): a generated
born-digital page with a table set without rules, which the layout model read as text blocks,
becomes one table region with its cells; prose and text set in columns stay text."""

from __future__ import annotations

import numpy as np
import pymupdf
import pytest

from engine.input.text_layer import extract_lines
from engine.page import PageState
from engine.tables.lineless import find_lineless_tables, find_tables, table_in_region
from engine.types import BlockKind, Region, TextSource

SCALE = 2.0
HEADER = ("Item", "Count", "Share", "Note")
ROWS = [("alpha beta", "1,204", "12%", "kept"), ("gamma", "87", "3%", "moved out"),
        ("delta epsilon", "5,310", "41%", "kept"), ("zeta", "932", "9%", "late"),
        ("eta theta", "16", "1%", "new"), ("iota", "2,048", "34%", "kept")]
LEFTS = (60, 230, 330, 430)
PROSE = ("Tables set without rules are common in reports. Their columns are kept apart by "
         "white space alone, and a reader finds them by the way the words line up.")


def _page(draw) -> tuple[list, np.ndarray]:
    """A page drawn by `draw(page)`: its text-layer lines and its picture, at SCALE."""
    document = pymupdf.open()
    page = document.new_page(width=595, height=842)
    draw(page)
    lines = extract_lines(page, SCALE)
    pixmap = page.get_pixmap(matrix=pymupdf.Matrix(SCALE, SCALE))
    image = np.frombuffer(pixmap.samples, np.uint8).reshape(pixmap.h, pixmap.w, pixmap.n)
    return lines, np.ascontiguousarray(image[..., :3])


def _table_page(page) -> None:
    page.insert_textbox(pymupdf.Rect(60, 60, 530, 140), PROSE, fontsize=11)
    for r, row in enumerate((HEADER, *ROWS)):
        for x, text in zip(LEFTS, row):
            page.insert_text((x, 180 + 18 * r), text, fontsize=10,
                             fontname="hebo" if r == 0 else "helv")


@pytest.fixture(scope="module")
def table_page():
    return _page(_table_page)


def _state(lines, image, regions) -> PageState:
    return PageState(document=None, page_number=1, options=None, image=image, scale=SCALE,
                     text_source=TextSource.TEXT_LAYER, lines=tuple(lines),
                     regions=tuple(regions))


def _row_regions(lines) -> list[Region]:
    """What the layout model made of such a page: a text region for every line."""
    return [Region(BlockKind.TEXT, line.box) for line in lines]


def test_a_lineless_table_is_read_off_the_text_layer(table_page):
    lines, _ = table_page
    [table] = find_tables(lines)
    grid = table.grid
    assert (grid.rows, grid.cols) == (len(ROWS) + 1, len(HEADER))
    texts = {(c.row, c.col): c.text for c in grid.cells}
    assert tuple(texts[0, c] for c in range(4)) == HEADER
    assert tuple(texts[2, c] for c in range(4)) == ROWS[1]
    assert all(c.header == (c.row == 0) for c in grid.cells)
    assert table.box.y0 > max(ln.box.y1 for ln in lines if ln.text.startswith("Tables"))


def test_text_blocks_that_set_a_table_become_one_table_region(table_page):
    lines, image = table_page
    page = find_lineless_tables(_state(lines, image, _row_regions(lines)), None)
    tables = [r for r in page.regions if r.kind is BlockKind.TABLE]
    assert len(tables) == 1 and tables[0].table is not None
    grid = tables[0].table
    assert grid.header_rows == 1
    assert (grid.rows, grid.cols) == (len(ROWS) + 1, len(HEADER))
    # The prose above stays text; the rows' text regions went into the table.
    texts = [r for r in page.regions if r.kind is BlockKind.TEXT]
    assert texts and all(r.box.y1 < 160 * SCALE for r in texts)
    assert all(r.box.share_inside(tables[0].box) < 0.5 for r in texts)


def test_an_ocr_page_and_a_ruled_table_are_left_alone(table_page):
    lines, image = table_page
    state = _state(lines, image, _row_regions(lines))
    ocr = find_lineless_tables(PageState(**{**state.__dict__, "text_source": TextSource.OCR}),
                               None)
    assert ocr is not None and all(r.kind is BlockKind.TEXT for r in ocr.regions)

    def ruled_page(page) -> None:
        _table_page(page)
        for r in range(len(ROWS) + 2):
            page.draw_line((55, 167 + 18 * r), (520, 167 + 18 * r), width=0.6)

    lines, image = _page(ruled_page)
    page = find_lineless_tables(_state(lines, image, _row_regions(lines)), None)
    assert all(r.kind is BlockKind.TEXT for r in page.regions)


def test_prose_in_columns_is_no_table():
    def columns(page) -> None:
        words = ("the reader finds a column of words here and there again").split()
        for r in range(12):
            for c, x in enumerate((60, 230, 400)):
                page.insert_text((x, 100 + 14 * r), " ".join(words[(r + c) % 5:][:4]),
                                 fontsize=10)

    lines, _ = _page(columns)
    assert find_tables(lines) == []
    assert table_in_region(lines) is None


def test_a_table_region_the_table_model_misread_is_read_from_its_lines(table_page):
    lines, _ = table_page
    rows = [ln for ln in lines if ln.box.y0 > 160 * SCALE]
    grid = table_in_region(rows)
    assert grid is not None and (grid.rows, grid.cols) == (len(ROWS) + 1, len(HEADER))
    # A region holding more than the table (a paragraph too) is not one lineless table.
    assert table_in_region(lines) is None


def test_a_region_holding_prose_beside_the_rows_is_not_taken_in(table_page):
    lines, image = table_page
    # One text region over the paragraph and the rows: taking it into the table would drop
    # the paragraph's lines, so the page is left as the layout model saw it.
    whole = lines[0].box
    for line in lines[1:]:
        whole = whole.union(line.box)
    region = Region(BlockKind.TEXT, whole)
    page = find_lineless_tables(_state(lines, image, [region]), None)
    assert page.regions == (region,)
