"""Rules met on Chinese pages, on hand-made blocks and lines: stories stacked beside another
story (engine/structure/stories.py), item numbers read straight onto Chinese text, and figure
regions holding a paragraph of CJK writing."""

from __future__ import annotations

import random

from engine.structure.page_blocks import assemble_page
from engine.structure.paragraphs import build_blocks
from engine.structure.reading_order import order_blocks
from engine.types import Block, BlockKind, Box, Line, Region

BODY = 24.0  # body line height, pixels


def text(name: str, x0: float, y0: float, x1: float, y1: float) -> Block:
    lines = tuple(Line(name, Box(x0, y, x1, y + BODY))
                  for y in range(int(y0), int(y1 - BODY) + 1, int(BODY * 1.5)))
    return Block(BlockKind.TEXT, Box(x0, y0, x1, y1), lines, text=name)


def headline(name: str, x0: float, y0: float, x1: float, size: float = 1.5) -> Block:
    line = Line(name, Box(x0, y0, x1, y0 + size * BODY))
    return Block(BlockKind.SECTION_HEADER, line.box, (line,), text=name, level=2)


COLUMNS = [(30 + 260 * i, 260 + 260 * i) for i in range(5)]


def newspaper(lower_head_width: float) -> list[Block]:
    """A lead story down columns 0-2; beside it in columns 3-4 an upper story and, under a
    blank stripe, a lower story whose headline is `lower_head_width` wide."""
    lead = [headline("lead head", 30, 100, 700)]
    lead += [text(f"A{i}", x0, 160, x1, 1200) for i, (x0, x1) in enumerate(COLUMNS[:3])]
    upper = [headline("upper head", 810, 100, 1200, size=1.3)]
    upper += [text(f"B{i}", x0, 150, x1, 600) for i, (x0, x1) in enumerate(COLUMNS[3:])]
    lower = [headline("lower head", 810, 660, 810 + lower_head_width, size=1.3)]
    lower += [text(f"C{i}", x0, 710, x1, 1200) for i, (x0, x1) in enumerate(COLUMNS[3:])]
    return lead + upper + lower


STORY_ORDER = ["lead head", "A0", "A1", "A2", "upper head", "B0", "B1", "lower head", "C0",
               "C1"]


def test_a_story_under_a_one_column_headline_is_read_after_the_story_above_it():
    blocks = newspaper(lower_head_width=240)
    random.Random(2).shuffle(blocks)
    assert [b.text for b in order_blocks(blocks)] == STORY_ORDER


def test_the_same_with_a_headline_across_both_columns():
    blocks = newspaper(lower_head_width=500)
    random.Random(9).shuffle(blocks)
    assert [b.text for b in order_blocks(blocks)] == STORY_ORDER


def test_columns_of_a_paper_pass_beside_a_heading_without_a_stripe():
    """A heading in the left column, set larger, and beside it in the right column only a
    paragraph gap, both paragraphs starting alike under it: left column first, then the
    right one."""
    left = [text("L0", 30, 100, 500, 600), headline("heading", 30, 620, 400, size=1.3),
            text("L1", 30, 660, 500, 1200)]
    right = [text("R0", 540, 100, 1010, 615), text("R1", 540, 640, 1010, 1200)]
    blocks = right + left
    assert [b.text for b in order_blocks(blocks)] == ["L0", "heading", "L1", "R0", "R1"]


def test_an_item_number_read_onto_chinese_text_is_an_item_number():
    lines = [Line(f"{n}.解方程{n}x+1=0。", Box(50, 100 + 30 * i, 400, 124 + 30 * i))
             for i, n in enumerate((11, 12, 13))]
    blocks = build_blocks(lines)
    assert [b.kind for b in blocks] == [BlockKind.LIST_ITEM] * 3
    assert [b.text for b in blocks] == ["11. 解方程11x+1=0。", "12. 解方程12x+1=0。",
                                        "13. 解方程13x+1=0。"]
    # A decimal number or a Latin word after the point stays as it is.
    assert build_blocks([Line("3.5元一斤", Box(50, 100, 200, 124))])[0].text == "3.5元一斤"


def test_a_figure_region_holding_a_paragraph_of_chinese_is_text():
    note = [Line(t, Box(900, 500 + 30 * i, 1140, 524 + 30 * i)) for i, t in enumerate(
        ("目标列表中的列可以按任何顺", "序排列。在目标列中没有出现", "的列将插入缺省值，可能是定",
         "义了的缺省值或者空值。"))]
    body = [Line("正文第一行的文字内容在这里", Box(100, 500, 800, 524))]
    regions = [Region(BlockKind.FIGURE, Box(880, 480, 1160, 640), score=0.4),
               Region(BlockKind.TEXT, Box(90, 490, 810, 530))]
    blocks = assemble_page(body + note, regions, page_area=1200.0 * 1700.0)
    assert [b.kind for b in blocks] == [BlockKind.TEXT, BlockKind.TEXT]
    assert blocks[1].text.startswith("目标列表中的列")
    # A chart with a few labels stays a figure.
    labels = [Line(t, Box(900, 500 + 60 * i, 960, 524 + 60 * i)) for i, t in
              enumerate(("一月", "二月", "三月"))]
    kept = assemble_page(body + labels, regions, page_area=1200.0 * 1700.0)
    assert BlockKind.FIGURE in [b.kind for b in kept]
