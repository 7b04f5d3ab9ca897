"""engine.structure.reading_order: a partial order over blocks (above within shared columns, left
of, unless a block reaching across both lies between), stories stacked under headlines."""

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


def test_a_headline_over_three_of_four_columns_keeps_its_article_together():
    """Masthead; a story under a headline across columns 1-3 beside a one-column story; a second
    story across all four columns below a rule."""
    masthead = block("masthead", 30, 20, 565, 60)
    headline = block("headline", 30, 70, 420, 100)
    story = [block(f"A{i}", 30 + 133 * i, 110, 150 + 133 * i, 400) for i in range(3)]
    side_head = block("side head", 440, 70, 565, 90)
    side = block("side", 440, 95, 565, 400)
    lower_head = block("lower head", 30, 420, 565, 450)
    lower = [block(f"B{i}", 30 + 133 * i, 460, 150 + 133 * i, 800) for i in range(4)]
    blocks = [*lower, side, masthead, *story, lower_head, side_head, headline]
    random.Random(7).shuffle(blocks)
    assert names(order_blocks(blocks)) == ["masthead", "headline", "A0", "A1", "A2", "side head",
                                           "side", "lower head", "B0", "B1", "B2", "B3"]


def test_a_figure_across_three_columns_cuts_the_reading_in_two():
    above = [block(f"U{i}", 50 + 170 * i, 80, 200 + 170 * i, 300) for i in range(3)]
    figure = block("figure", 50, 320, 540, 480)
    below = [block(f"D{i}", 50 + 170 * i, 500, 200 + 170 * i, 780) for i in range(3)]
    blocks = [*reversed(below), figure, *reversed(above)]
    assert names(order_blocks(blocks)) == ["U0", "U1", "U2", "figure", "D0", "D1", "D2"]


def test_a_side_note_follows_the_main_column_and_exercises_read_column_by_column():
    main = [block(f"M{i}", 56, 60 + 80 * i, 400, 130 + 80 * i) for i in range(3)]
    note = block("note", 416, 200, 555, 420)
    left = [block(f"E{i}", 56, 320 + 30 * i, 220, 340 + 30 * i) for i in range(3)]
    right = [block(f"E{i + 3}", 236, 320 + 30 * i, 400, 340 + 30 * i) for i in range(3)]
    blocks = [note, *right, *left, *main]
    assert names(order_blocks(blocks)) == ["M0", "M1", "M2", "E0", "E1", "E2", "E3", "E4", "E5",
                                           "note"]


def test_right_to_left_columns_read_from_the_right():
    blocks = [*LEFT, *RIGHT]
    assert names(order_blocks(blocks, right_to_left=True)) == ["R0", "R1", "R2", "L0", "L1", "L2"]


def test_a_story_under_a_headline_below_a_blank_stripe_is_read_after_the_stories_above():
    """The lower headline is only as wide as its words (column 1): the blank stripe across the
    page above it, and its size, say a new story starts there."""
    from engine.types import Line

    def para(name, x0, y0, x1, y1, line_height=10):
        return Block(BlockKind.TEXT, Box(x0, y0, x1, y1), text=name,
                     lines=(Line(name, Box(x0, y0, x1, y0 + line_height)),))

    upper = [para(f"U{i}", 30 + 140 * i, 60, 150 + 140 * i, 400) for i in range(4)]
    headline = Block(BlockKind.SECTION_HEADER, Box(30, 420, 200, 445), text="Lower story",
                     lines=(Line("Lower story", Box(30, 420, 200, 445)),))
    lower = [para(f"D{i}", 30 + 140 * i, 455, 150 + 140 * i, 800) for i in range(4)]
    blocks = [*lower, headline, *upper]
    assert names(order_blocks(blocks)) == ["U0", "U1", "U2", "U3", "Lower story", "D0", "D1",
                                           "D2", "D3"]


def _para(name, x0, y0, x1, y1, line_height=10):
    from engine.types import Line

    return Block(BlockKind.TEXT, Box(x0, y0, x1, y1), text=name,
                 lines=(Line(name, Box(x0, y0, x1, y0 + line_height)),))


def _headline(name, x0, y0, x1, height=16):
    from engine.types import Line

    return Block(BlockKind.SECTION_HEADER, Box(x0, y0, x1, y0 + height), text=name,
                 lines=(Line(name, Box(x0, y0, x1, y0 + height)),))


def test_a_story_across_the_page_is_read_whole_before_the_row_of_articles_under_it():
    """A story over three columns, then a row of two articles with headlines 1.3 times the body
    (smaller than a lead headline): the left article of the row is not read before the
    story's second and third columns, though nothing spans the left column below the story."""
    lead = _headline("Lead", 30, 20, 450, 30)
    story = [_para(f"S{i}", 30 + 140 * i, 60, 150 + 140 * i, 400) for i in range(3)]
    left_head = _headline("Left article", 30, 420, 150, 13)
    left = _para("A0", 30, 440, 150, 800)
    right_head = _headline("Right article", 170, 420, 400, 13)
    right = [_para(f"B{i}", 170 + 140 * i, 440, 290 + 140 * i, 800) for i in range(2)]
    blocks = [*right, left, right_head, *story, left_head, lead]
    assert names(order_blocks(blocks)) == ["Lead", "S0", "S1", "S2", "Left article", "A0",
                                           "Right article", "B0", "B1"]


def test_one_narrow_heading_under_a_stripe_beside_a_finished_side_note_cuts_nothing():
    """A main column with a side note at the right that ends higher up; under a blank stripe
    across the page a small heading starts the exercises in the main column. The side note is
    read after the main column, as on a page without the stripe."""
    main = [_para(f"M{i}", 30, 40 + 90 * i, 400, 120 + 90 * i) for i in range(3)]
    note = _para("Note", 420, 150, 560, 250)
    heading = _headline("Exercises", 30, 320, 100, 13)
    exercises = [_para(f"E{i}", 30 + 190 * i, 345, 210 + 190 * i, 500) for i in range(2)]
    blocks = [note, *exercises, heading, *main]
    assert names(order_blocks(blocks)) == ["M0", "M1", "M2", "Exercises", "E0", "E1", "Note"]


def test_a_cycle_is_broken_where_it_is_not_at_the_head_of_a_far_column():
    """Blocks 1 -> 2 -> 3 -> 1 form a loop (a fragment straddling a gutter ties two columns);
    block 0, at the top of another column, waits on all three. The loop is broken inside it,
    not by jumping to block 0 because it is the topmost."""
    import numpy as np

    from engine.structure.reading_order import topological

    boxes = np.array([[500, 10, 600, 40], [10, 300, 100, 330], [120, 280, 200, 310],
                      [110, 320, 130, 340]], dtype=float)
    before = np.zeros((4, 4), dtype=bool)
    before[1, 2] = before[2, 3] = before[3, 1] = True
    before[1:, 0] = True
    assert topological(before, boxes) == [2, 3, 1, 0]


def test_a_row_of_headings_of_several_sizes_under_a_stripe_starts_a_new_band():
    """A scan's newspaper: a story over four columns and a side story beside it; under a blank
    stripe across the page a row of three stories whose headings the layout model found, the
    topmost by a pixel measured at only 1.2 times the body (a scan's line boxes), the largest at
    1.6. Everything above the stripe is read before the row, story by story."""
    lead = _headline("Lead", 30, 20, 560, 20)
    story = [_para(f"S{i}", 30 + 135 * i, 50, 155 + 135 * i, 400) for i in range(4)]
    side_head = _headline("Side", 580, 20, 750, 14)
    side = _para("Side text", 580, 45, 750, 410)
    big = _headline("Big", 30, 431, 290, 16)
    big_text = [_para(f"B{i}", 30 + 135 * i, 455, 155 + 135 * i, 800) for i in range(2)]
    small = _headline("Small", 300, 430, 420, 12)
    small_text = _para("Small text", 300, 455, 420, 800)
    other = _headline("Other", 440, 432, 750, 13)
    other_text = [_para(f"O{i}", 440 + 160 * i, 455, 590 + 160 * i, 800) for i in range(2)]
    blocks = [*big_text, small_text, *other_text, other, small, big, side, side_head, *story,
              lead]
    assert names(order_blocks(blocks)) == [
        "Lead", "S0", "S1", "S2", "S3", "Side", "Side text", "Big", "B0", "B1", "Small",
        "Small text", "Other", "O0", "O1"]


def test_a_section_heading_beside_a_paragraph_under_a_stripe_cuts_nothing():
    """A two-column paper: a paragraph gap across the page, and under it a paragraph in the
    left column beside a section heading in the right, 1.45 times the body. Not a row of
    stories: the left column is read to its end first."""
    left = [_para("L0", 30, 40, 280, 300), _para("L1", 30, 322, 280, 600)]
    right = [_para("R0", 300, 40, 550, 310), _headline("Heading", 300, 325, 450, 14.5),
             _para("R1", 300, 350, 550, 600)]
    blocks = [*right, *left]
    assert names(order_blocks(blocks)) == ["L0", "L1", "R0", "Heading", "R1"]


def test_a_centred_formula_is_read_before_the_short_line_under_it_that_reaches_below_it():
    """A display formula centred in the column, then a short line ending a little under the
    formula's left edge: one above the other, not two columns."""
    above = block("paragraph", 250, 1117, 1433, 1243)
    formula = block("formula", 686, 1281, 1016, 1378)
    short = block("short", 250, 1411, 697, 1451)
    below = block("next", 250, 1492, 1388, 1571)
    assert names(order_blocks([below, short, formula, above])) == [
        "paragraph", "formula", "short", "next"]


def test_a_heading_reaching_into_the_gutter_still_reads_with_its_column():
    """The left column's heading reaches a little under the right column's first paragraph:
    the left column's text level with that paragraph keeps the two columns apart."""
    heading = block("heading", 50, 300, 320, 330)
    blocks = [*RIGHT, TITLE, LEFT[0], heading, block("L3", 50, 340, 290, 420)]
    assert names(order_blocks(blocks)) == ["title", "L0", "heading", "L3", "R0", "R1", "R2"]
