"""How a page's lines are laid into its layout regions and which regions are what they seem
(engine/structure/assembly.py), in one frozen set (STYLE habit 20), used by assembly.py and the
page's steps (page_blocks.py). Shares are of a line's or a region's area; lengths in line
heights. How each was reached: docs/adr/0026-rules-as-data.md."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class AssemblyRules:
    min_line_share: float = 0.5
    """A line belongs to the region holding most of it, at least this share (set with the
    first layout stage; not swept)."""
    nested_share: float = 0.1
    """Of regions holding a line within this share of the most, the smallest takes it (a
    column's paragraph boxed inside a box over two columns; generated broadsheets, not
    swept)."""
    nested_text_share: float = 0.6
    """A text region this much inside a larger one is a fragment of it (the layout model boxes
    single words of a justified line; set by hand, not swept)."""
    column_lines: int = 2
    """A region holding this many rows of whole lines, beside which a larger one holds as many,
    is a column of its own (generated broadsheets; not swept)..."""
    whole_line_share: float = 0.9
    """...a whole line lying at least this share inside it."""
    row_word_gap: float = 1.5
    """A word outside a region's box is on one of its rows when a line the region holds lies
    level with it this near, nothing as near beyond it (generated broadsheets; not swept)."""
    figure_text_chars: int = 40
    """A figure holding this many CJK letters... (scanned Chinese textbooks, seed 1: 0.938 at 20
    or 40, 0.922 at 80 or without the rule)"""
    figure_text_lines: int = 3
    """...in this many lines is text the layout model took for a picture."""
    watermark_min_lines: int = 2
    """A slanted line over this many other lines is a watermark or a stamp (a table's turned
    column heads lie over none: the dev set's one such table)."""
    page_sized_figure_share: float = 0.5
    """A figure covering this share of the page is the page itself: its words are its text
    (set with the first layout stage; not swept)."""


ASSEMBLY = AssemblyRules()
