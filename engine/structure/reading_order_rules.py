"""The reading order's thresholds, in one frozen set (STYLE habit 20), used by
engine/structure/reading_order.py and engine/structure/stories.py. Lengths are in body lines
(the median height of the page's text lines). Figures: order-sensitive similarity on the
generated structure set (`python -m tools.structure`, seed 1, born-digital/scanned); how each
was reached: docs/adr/0026-rules-as-data.md."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ReadingOrderRules:
    shared_column_share: float = 0.1
    """Two blocks share columns when they overlap horizontally by more than this share of the
    narrower one (less is a heading or a figure edge reaching into the gutter)."""
    band_gap_lines: float = 0.1
    """A blank stripe across the page this high can start a band (scanned newspapers 0.977 at
    0.01-0.2, 0.927 at 0.3; the middle of that plateau)."""
    headline_size: float = 1.5
    """A band starts with a headline this many times the body (newspapers 0.617 -> 0.999
    born-digital with the bands)."""
    row_reach_lines: float = 1.0
    """The blocks that start a row are those starting this close under the first one (bands and
    story ends alike; broadsheets 0.895/0.804 -> 0.948/0.833)."""
    end_gap_lines: float = 0.1
    """A blank stripe this high across a story's columns, a row of headlines under it, ends the
    story (as `band_gap_lines`)."""
    story_headline_size: float = 1.25
    """A story's headline is this much larger than the body (Chinese newspapers: 1.1-1.5 all
    read 0.991/0.963)."""
    story_reach_lines: float = 3.0
    """The story's first blocks start within this many lines under its headline."""
    story_row_lines: float = 1.0
    """Blocks side by side under a headline start within this many lines of each other."""
    story_gutter_lines: float = 3.0
    """...with gutters of at most this many lines."""
    story_gap_lines: float = 0.5
    """Over the story's columns nothing lies in the stripe this high above the headline
    (Chinese newspapers: 0.1-1.0 read 0.991/0.963, 1.5 0.981/0.953)."""
    text_headline_lines: int = 2
    """A text block of at most this many lines can be a headline too (seed-2 scanned newspapers
    0.950 -> 0.959)."""
    inside_share: float = 0.5
    """A block belongs to a story's columns when this share of its width lies inside them."""
    wide_lead_columns: float = 1.8
    """A lead paragraph this many times as wide as the band's paragraphs opens a story over
    several columns, as two blocks side by side under a headline do."""
    column_lines: int = 3
    """Paragraphs of at least this many lines give a band's column width."""
    reach_share: float = 0.1
    """A block reaches into a story's columns when more than this share of its width lies
    there."""


READING_ORDER = ReadingOrderRules()
