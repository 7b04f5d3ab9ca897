"""Vertical CJK writing (engine/structure/vertical.py): columns told from the text layer's
direction or from OCR boxes' shape, joined into paragraphs right to left, and pages read
tier by tier, each tier's columns from the right."""

from __future__ import annotations

import random

from engine.structure.page_blocks import assemble_page
from engine.structure.furniture import mark_furniture
from engine.structure.paragraphs import build_blocks
from engine.structure.reading_order import order_blocks
from engine.structure.vertical import (is_vertical, is_vertical_page, merge_columns,
                                       vertical_blocks)
from engine.types import Block, BlockKind, Box, Line, PageResult, Region, TextSource
from table_samples import table_of

SIZE = 12.0
PITCH = 18.0  # column to column: 1.5 characters, as Chinese text is set


def chars(text: str, x1: float, y0: float, size: float = SIZE) -> list[Line]:
    """A column as a PDF written downwards gives it: one line per character."""
    return [Line(ch, Box(x1 - size, y0 + i * size, x1, y0 + (i + 1) * size), font_size=size,
                 vertical=True) for i, ch in enumerate(text)]


def ocr_column(text: str, x1: float, y0: float, size: float = SIZE) -> Line:
    """A column as OCR reads it: one tall box, the text top to bottom, no direction flag."""
    return Line(text, Box(x1 - size, y0, x1, y0 + len(text) * size))


def paragraph(columns: list[str], x1: float, y0: float, indent: int = 2) -> list[Line]:
    """Columns of one paragraph from `x1` leftwards, the first `indent` characters down."""
    lines = []
    for i, text in enumerate(columns):
        lines.append(ocr_column(text, x1 - i * PITCH, y0 + (indent * SIZE if i == 0 else 0)))
    return lines


def test_columns_are_told_from_direction_or_shape_and_need_cjk_writing():
    assert is_vertical(chars("中", 100, 0)[0])
    assert is_vertical(ocr_column("竖排文字", 100, 0))
    assert not is_vertical(Line("横排文字", Box(0, 0, 48, 12)))
    # A Latin line standing on end (an arXiv stamp, an axis label) is not vertical writing.
    assert not is_vertical(Line("arXiv:2101.00001v1", Box(0, 0, 12, 200)))
    assert not is_vertical(Line("Temperature", Box(0, 0, 12, 120), vertical=True))


def test_single_characters_of_a_text_layer_become_columns_read_downwards():
    lines = chars("第一列文字", 200, 50) + chars("第二列", 182, 50)
    random.Random(3).shuffle(lines)
    columns = merge_columns(lines)
    assert sorted(c.text for c in columns) == ["第一列文字", "第二列"]
    assert all(c.vertical for c in columns)


def test_a_column_is_not_joined_across_the_blank_between_two_tiers():
    upper = chars("上段末尾", 200, 50)
    lower = chars("下段开头", 200, 50 + 4 * SIZE + 1.5 * SIZE)
    assert sorted(c.text for c in merge_columns(upper + lower)) == ["上段末尾", "下段开头"]


def test_a_space_inside_a_column_is_kept_only_between_latin_words():
    lines = chars("用", 200, 0) + [Line("ls", Box(188, 13, 200, 25), font_size=SIZE,
                                       vertical=True)] + chars("命令", 200, 25)
    assert [c.text for c in merge_columns(lines)] == ["用ls命令"]
    gap = chars("ab", 200, 0) + chars("cd", 200, 3 * SIZE)
    assert [c.text for c in merge_columns(gap)] == ["ab cd"]


def test_columns_side_by_side_are_one_paragraph_read_from_the_right():
    lines = paragraph(["第一段第一列", "第一段第二列文字", "第一段末"], 500, 100)
    lines += paragraph(["第二段开始了", "第二段第二列文字"], 500 - 3 * PITCH, 100)
    blocks = vertical_blocks(list(reversed(lines)))
    assert [b.text for b in blocks] == ["第一段第一列第一段第二列文字第一段末",
                                        "第二段开始了第二段第二列文字"]


def test_a_larger_column_is_a_heading():
    title = ocr_column("标题文字", 560, 40, size=24)
    body = paragraph(["正文第一列文字内容", "正文第二列文字内容"], 520, 40)
    blocks = build_blocks([*body, title])
    assert [b.kind for b in blocks] == [BlockKind.SECTION_HEADER, BlockKind.TEXT]


def block(name: str, x0: float, y0: float, x1: float, y1: float,
          kind: BlockKind = BlockKind.TEXT) -> Block:
    return Block(kind, Box(x0, y0, x1, y1), text=name,
                 lines=(Line(name, Box(x1 - SIZE, y0, x1, y1), font_size=SIZE, vertical=True),))


def test_a_vertical_page_reads_each_tier_from_the_right_then_the_next_tier():
    title = block("title", 530, 50, 556, 300, BlockKind.SECTION_HEADER)
    upper = [block(f"U{i}", 430 - 100 * i, 50, 510 - 100 * i, 380) for i in range(4)]
    head = block("lower head", 540, 420, 556, 600, BlockKind.SECTION_HEADER)
    lower = [block(f"D{i}", 430 - 100 * i, 420, 520 - 100 * i, 790) for i in range(4)]
    blocks = [*lower, *upper, head, title]
    random.Random(5).shuffle(blocks)
    names = [b.text for b in order_blocks(blocks, vertical=True)]
    assert names == ["title", "U0", "U1", "U2", "U3", "lower head", "D0", "D1", "D2", "D3"]
    # Read as a horizontal page, the same blocks come out column by column from the left.
    assert [b.text for b in order_blocks(blocks)][:2] != ["title", "U0"]


def test_a_page_of_columns_is_vertical_and_the_layout_models_table_is_set_aside():
    lines = paragraph(["竖排的第一列文字", "竖排的第二列文字", "竖排第三列"], 500, 100)
    lines += paragraph(["另一段的第一列", "另一段的第二列文字"], 500 - 3 * PITCH, 100)
    assert is_vertical_page(lines)
    assert not is_vertical_page([Line("横排的一行中文文字", Box(0, 0, 108, 12))])
    # The layout model, trained on horizontal pages, boxes the columns as a table.
    table = Region(BlockKind.TABLE, Box(380, 90, 510, 300), table=table_of("<table></table>"))
    blocks = assemble_page(lines, [table], page_area=600.0 * 800.0)
    assert [b.kind for b in blocks] == [BlockKind.TEXT, BlockKind.TEXT]
    assert blocks[0].text.startswith("竖排的第一列") and blocks[1].text.startswith("另一段")


def test_a_column_at_the_right_edge_of_a_vertical_page_is_not_a_margin_note():
    title = Block(BlockKind.SECTION_HEADER, Box(560, 40, 584, 300), text="标题在右边",
                  lines=tuple(merge_columns(chars("标题在右边", 584, 40, size=24))))
    body = [block(f"正文{i}", 430 - 100 * i, 50, 540 - 100 * i, 780) for i in range(5)]
    page = PageResult(page_number=1, width=600, height=800, dpi=72.0,
                      text_source=TextSource.TEXT_LAYER, text_source_reason="test",
                      blocks=(title, *body))
    marked = mark_furniture([page])[0]
    assert marked.blocks[0].kind is BlockKind.SECTION_HEADER
