"""The thresholds that group lines into paragraphs, headings and single lines
(engine/structure/paragraphs.py), in one frozen set (STYLE habit 20), handed on by
assembly.py and page_blocks.py. Sizes are in the body's type size; widths in the line's
average character width. How each was reached: docs/adr/0026-rules-as-data.md."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ParagraphRules:
    heading_size_ratio: float = 1.15
    """A block this much larger than the body's type is a heading... (set with the first
    engine; the same share as `HeadingRules.larger`; not swept)"""
    heading_max_chars: int = 120
    """...when it holds at most this many characters (set with the first engine; not swept)."""
    hard_break_share: float = 0.5
    """A block of OCR lines more than this share of whose breaks are deliberate keeps every
    line apart (a paragraph has one at most, before its last line; set on the chat and
    settings screenshots of tools/uishots; not swept)."""
    hard_break_slack: float = 1.0
    """A break is deliberate when the next line's first word and a space fit in the room left,
    with this much to spare (the same screenshots; not swept)."""
    gutter_chars: float = 2.0
    """The room left on a line runs to the nearest text to its right, less this gap (the same
    screenshots; not swept)."""

    justified_gap_chars: float = 4.0
    """A block of OCR lines that start and end together (but its first, which may be indented
    by up to this many characters, and its last), with no gap between words wider than this,
    is a justified column: its breaks wrap at the measure and are never deliberate, whatever
    room lies beside it. A scanned broadsheet's columns beside a picture, or a gutter wider
    than a word, came out a block per line (broadsheet_full-003: 115 paragraphs for 63); a
    settings page's rows, label and value on one line, are apart by more (set by hand on
    those pages, then checked on the structure set's scans and the screenshots; not swept)."""
    justified_lines: int = 4
    """...and holds at least this many lines: three short lines of a settings page's side bar
    ("Settings", "Privacy", then a longer one) end together by chance."""


PARAGRAPHS = ParagraphRules()
