"""What running heads, feet and page numbers look like (engine/structure/furniture.py), in one
frozen set (STYLE habit 20), also used by the page's blocks (a page-header region in display
type is a heading: engine/structure/assembly.display_header). Shares are of the page's height
(width for the side margins); lengths in the body's line heights. How each was reached:
docs/adr/0026-rules-as-data.md."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class FurnitureRules:
    band_share: float = 0.1
    """Blocks in the top or bottom band this deep may repeat from page to page (set with the
    first engine; not swept)."""
    margin_share: float = 0.075
    """Closer to the top or bottom edge than this, a short block cut off from the text body is
    a running head (set by hand on the dev set's papers; not swept)."""
    side_margin_share: float = 0.1
    """Vertical text this close to a side edge is a side note (arXiv's stamp; set by hand; not
    swept)."""
    running_head_share: float = 0.13
    """A short line beside the page number, or one in body size cut off from the text below,
    within this share of the edge is furniture (set by hand on the dev set; not swept)."""
    picture_page_share: float = 0.5
    """A page this much covered by figures (a poster, a cover) has no running heads (set by
    hand; not swept)."""
    margin_gap_lines: float = 1.5
    """A running head is cut off from the body by more than this gap (set by hand on the dev
    set; not swept)."""
    display_type: float = 1.5
    """A block set this many times the body's line height or larger is a masthead or a
    headline, never a running head (real running heads: at most 1.40; broadsheet mastheads and
    headlines: 19 of 22 at 1.5 or more)."""


FURNITURE = FurnitureRules()
