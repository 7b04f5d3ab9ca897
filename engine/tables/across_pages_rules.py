"""When two tables on consecutive pages are one table: the thresholds, in one frozen set (STYLE
habit 20). Chosen on the generated set of `python -m tools.xtables` (seed 1: tables broken at a
page end with and without a repeated header, and look-alikes that must stay apart) and checked
on the dev set, where no table continues and nothing may be joined."""

from __future__ import annotations

import re
from dataclasses import dataclass, field


@dataclass(frozen=True)
class AcrossPagesRules:
    max_room_below: float = 0.2
    """The first part ends at the foot of its page: between its bottom and the first footnote or
    footer below it (or the page's edge) lies at most this share of the page's height (the set's
    pages: 0.06-0.12, a margin and less than a row; a table ending mid-page is finished)."""
    max_room_above: float = 0.2
    """The next part starts at the head of its page: between the last header above it (or the
    page's edge) and its top lies at most this share of the page's height."""
    align_tolerance: float = 0.006
    """Two lines stand on one column edge when their left edges (right edges, middles) are this
    close, as a share of the page's width (10 px at 200 dpi on A4: a text layer's columns agree
    to a pixel, OCR boxes to a few)."""
    min_aligned_share: float = 0.8
    """Two parts have the same columns when this share of each one's lines stands on the other's
    column edges (a table with its columns elsewhere: its first column's lines, about a fifth)."""
    min_aligned_share_uneven: float = 0.93
    """...and this share when the table model gave the two parts different column counts (it
    splits a row's cells differently now and then: the set's continued tables, 0.94-1.0)."""
    min_aligned_share_header: float = 0.5
    """...and this share when the header is repeated over different column counts: the header
    says it is the same table (the set's such parts: 0.78-0.98)."""
    inside_table: float = 0.9
    """A block lying this much inside a table's box is a column of it that the layout model
    set apart: it neither ends nor opens the page's body."""
    head_gap: float = 1.5
    """A row of one-line blocks at most this many of their heights above the table, and no
    further out to its sides, is its header row set apart by the layout model (headings)."""
    header_similarity: float = 0.9
    """A row of the next part repeats the first part's row when their texts are this similar
    (difflib ratio, spaces and case ignored): OCR may read the two copies a letter apart."""
    max_header_rows: int = 3
    """At most this many leading rows are compared as a repeated header."""
    numeric_share: float = 0.6
    """A column is numeric when at least this share of its filled cells below the first row are
    numbers; a first row with no number over such a column is a header."""
    numeric_rows: int = 6
    """Rows after the first one looked at to call a column numeric."""
    continued_caption: re.Pattern[str] = field(default=re.compile(
        r"continu|\bcont(?:\.|d\b)|fortsetzung|\bsuite\b|続|续", re.IGNORECASE))
    """A caption over the next part that says the table goes on does not end it; any other
    caption there names a new table."""


RULES = AcrossPagesRules()
