"""When a numbered line is a heading, and how heading styles are told apart across a document
(engine/structure/headings.py), in one frozen set (STYLE habit 20). The set came with the
document's heading levels, measured by tools/headings (docs/results/headings.json) and the dev
set (0.922 -> 0.935 with the levels, no category lower)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class HeadingRules:
    """When a numbered line is a heading, and how styles are told apart."""

    max_words: int = 12
    """A numbered heading is a title, not a sentence (the dev set's longest: 6 words)."""
    larger: float = 1.15
    """Set this much larger than the body, it stands out without being bold (as
    `ParagraphRules.heading_size_ratio`; not swept)."""
    same_size: float = 0.06
    """Two headings within this share of each other's size are one style (set by hand; not
    swept)."""
    broken_gap: float = 1.0
    """A heading the layout cut in two: the halves, one style, this many type sizes apart (set
    by hand; not swept)."""
    broken_words: int = 24
    """... and no longer than this together (the sets' longest headline: 14 words)."""
    title_size: float = 1.15
    """An unnumbered heading this much larger than every other heading is the title (LaTeX's
    article sets its title 1.2 times its section titles, at every class size)."""


HEADINGS = HeadingRules()
