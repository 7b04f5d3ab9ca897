"""engine.structure.reading_order: columns by whitespace cuts, full-width blocks as separators."""

from __future__ import annotations

import random

from engine.structure.reading_order import order_blocks
from engine.types import Block, BlockKind, Box


def block(name: str, x0: float, y0: float, x1: float, y1: float) -> Block:
    return Block(BlockKind.TEXT, Box(x0, y0, x1, y1), text=name)


def names(blocks: list[Block]) -> list[str]:
    return [b.text for b in blocks]


TITLE = block("title", 50, 20, 550, 50)
LEFT = [block(f"L{i}", 50, 100 + 100 * i, 290, 180 + 100 * i) for i in range(3)]
RIGHT = [block(f"R{i}", 310, 100 + 100 * i, 550, 180 + 100 * i) for i in range(3)]


def test_title_then_left_column_then_right_column():
    shuffled = [*RIGHT, TITLE, *LEFT]
    random.Random(4).shuffle(shuffled)
    assert names(order_blocks(shuffled)) == ["title", "L0", "L1", "L2", "R0", "R1", "R2"]


def test_full_width_block_between_two_column_sections():
    figure = block("figure", 50, 420, 550, 500)
    below_left = block("L3", 50, 520, 290, 600)
    below_right = block("R3", 310, 520, 550, 600)
    blocks = [below_right, figure, *reversed(RIGHT), TITLE, below_left, *LEFT]
    assert names(order_blocks(blocks)) == ["title", "L0", "L1", "L2", "R0", "R1", "R2",
                                           "figure", "L3", "R3"]


def test_single_column_reads_top_down():
    column = [block(f"P{i}", 50, 100 * i, 550, 100 * i + 80) for i in range(4)]
    assert names(order_blocks(list(reversed(column)))) == ["P0", "P1", "P2", "P3"]


def test_trivial_inputs():
    assert order_blocks([]) == []
    assert order_blocks([TITLE]) == [TITLE]
