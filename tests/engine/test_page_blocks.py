"""The blocks stage's own recipe (engine/structure/page_blocks.py): its steps run in the order
BLOCK_STEPS lists them, each one a step a tool can stop before or leave out."""

from __future__ import annotations

from engine.structure.page_blocks import (BLOCK_STEPS, assemble_page, blocks_after,
                                          steps_before)
from engine.types import BlockKind, Box, Line, Region


def line(text, x0, y0, x1, y1, size=10.0):
    return Line(text=text, box=Box(x0, y0, x1, y1), font_size=size)


LINES = [line("1 A note.", 0, 2, 200, 12), line("Body text.", 0, 42, 200, 52)]
REGIONS = [Region(BlockKind.FOOTNOTE, Box(0, 0, 300, 20)),
           Region(BlockKind.TEXT, Box(0, 40, 300, 60))]


def test_every_step_is_named_once_and_the_page_runs_them_in_order():
    names = [name for name, _ in BLOCK_STEPS]
    assert len(names) == len(set(names)) >= 12
    assert names.index("assign_lines") < names.index("reading_order") < names.index("footnotes")
    assert [b.kind for b in assemble_page(LINES, REGIONS)] == [BlockKind.TEXT,
                                                              BlockKind.FOOTNOTE]


def test_the_blocks_between_two_steps_and_a_step_left_out():
    before = blocks_after(LINES, REGIONS, None, steps_before("reading_order"))
    assert [b.kind for b in before.blocks] == [BlockKind.FOOTNOTE, BlockKind.TEXT]
    assert [ln.text for r in before.held for ln in r.lines] == ["1 A note.", "Body text."]
    without_footnotes = tuple(step for step in BLOCK_STEPS if step[0] != "footnotes")
    blocks = assemble_page(LINES, REGIONS, steps=without_footnotes)
    assert [b.kind for b in blocks] == [BlockKind.FOOTNOTE, BlockKind.TEXT]


def test_without_regions_the_lines_are_grouped_by_geometry_alone():
    page = blocks_after(LINES, None, None, BLOCK_STEPS)
    assert page.held == [] and [b.text for b in page.blocks] == ["1 A note.", "Body text."]
