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
    same_size_share: float = 0.2
    """Consecutive lines whose sizes differ by more than this share are not one block (a
    heading over its text): of the smaller size; for an OCR line joining a block that two
    lines have set the size of, of the larger, since the detector draws boxes up to a fifth
    higher or lower on one type size (a Korean paragraph's last line boxed 39 px under lines
    boxed 48 came out a paragraph of its own; on the structure set's scans, seed 1, every
    family's paragraphs and order rose: broadsheets 0.953 -> 0.956). A line starting a block
    keeps the strict test: with the larger there, a handwritten letter's date ("1864", a line
    of its own over the body) opened the body's paragraph. Set with the first engine at 0.2;
    not swept."""
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
    measure_lines: float = 10.0
    """The room left on a line ends at its column's measure: the furthest its column's lines
    reach within this many line heights up and down (a two-column list of exercises, ragged
    right: "...has 15" / "pairs." came out as two paragraphs, the room running over the gutter
    to the next column or the page's edge; set by hand on a textbook scan, then checked on the
    structure set, the screenshots and the dev set; not swept)..."""
    measure_share: float = 0.15
    """...when the column wraps: at least `measure_min_lines` of its lines end within this
    share of its width of the furthest (a side bar's "Settings", "Privacy", "Share usage
    data", or a chat's "Alice", "Hi there", "Bob", has no measure)..."""
    measure_min_lines: int = 2
    """...this many; beside text that starts further than `measure_gutter_chars` from the
    measure (no gutter), `measure_far_lines`. A settings page's two longest labels end near
    each other, far from their values ("Share usage data ... Off"): the room there runs to
    the value, as before."""
    measure_gutter_chars: float = 10.0
    measure_far_lines: int = 3

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
