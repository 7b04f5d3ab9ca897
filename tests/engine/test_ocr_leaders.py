"""engine.ocr.leaders: an index entry and its page number, read as two lines with the dot leader
between them unseen, become one line; words, rules and gutters between two lines do not."""

from __future__ import annotations

import numpy as np

from engine.ocr.leaders import join_at_leaders
from engine.types import Box, Line


def row(dots: list[int], blobs: tuple[tuple[int, int], ...] = ()) -> np.ndarray:
    """A page with the words of one row at 20-120 and 400-430 (y 100-130), 3 px dots on the
    baseline at the given x, and larger blobs (x0, x1)."""
    image = np.full((300, 500, 3), 255, np.uint8)
    for x0, x1 in ((20, 120), (400, 430)):
        image[104:126, x0:x1:3] = 10
    for x in dots:
        image[121:124, x:x + 3] = 10
    for x0, x1 in blobs:
        image[104:126, x0:x1] = 10
    return image


ENTRY = Line(r"\date", Box(20, 100, 120, 130))
NUMBER = Line("8", Box(400, 100, 430, 130))
OTHER = Line("a line under the row", Box(20, 160, 430, 190))
LEADER = list(range(130, 395, 12))


def test_an_entry_and_its_page_number_across_a_dot_leader_are_one_line():
    (line, other) = join_at_leaders(row(LEADER), [ENTRY, NUMBER, OTHER])
    assert line.text == r"\date " + " ".join("." for _ in LEADER) + " 8"
    assert line.box == ENTRY.box.union(NUMBER.box)
    assert other is OTHER


def test_a_word_or_a_rule_between_two_lines_is_not_a_leader():
    lines = [ENTRY, NUMBER, OTHER]
    assert join_at_leaders(row(LEADER[:10], blobs=((300, 360),)), lines) == lines
    assert join_at_leaders(row([]), lines) == lines


def test_a_leader_that_stops_short_of_the_next_piece_does_not_join_it():
    """Dots up to a column's edge, then the gutter and the next column's words."""
    lines = [ENTRY, NUMBER, OTHER]
    assert join_at_leaders(row(LEADER[:12]), lines) == lines


def test_only_a_number_or_a_price_is_led_to():
    entry_name = Line(r"\fancyfoot", NUMBER.box)
    lines = [ENTRY, entry_name, OTHER]
    assert join_at_leaders(row(LEADER), lines) == lines
