"""The photo steps' thresholds, in one frozen set (STYLE habit 20). Figures from the generated
photo set (`python -m tools.photos`, seed 1) and the dev set's scans, which must stay as they are."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PhotoRules:
    work_side_px: int = 800
    """The outline is looked for on the picture scaled to this long side (the desk's grain and
    the text vanish at this size; the page's edges do not)."""
    min_page_share: float = 0.2
    """The page covers at least this share of the photo (a phone photo of a page: 0.4-0.8)."""
    max_page_share: float = 0.95
    """...and at most this: beyond it there is too little background to tell it is a photo."""
    min_fill: float = 0.9
    """The bright shape fills its four-cornered outline this much (a curled page's bowed
    edges: 0.93-0.99 on the set; a shadow or a second sheet joined to it: less)."""
    min_contrast: float = 40.0
    """Grey levels between the page's median and the background's (desk 90-120 against paper
    200-250 on the set; a scan's white border against its page: under 10)."""
    min_border_background: float = 0.6
    """Share of the photo's outer frame that lies off the page: a page that runs off the
    picture is not found (a flat scan's page touches every edge)."""
    min_curl_px_per_height: float = 0.25
    """Lines are curved enough to flatten when the fitted surface bends them by this many of
    their own heights beyond a straight slant (the set's mild curl: 1.5-3; the dev scans:
    under 0.2)."""
    min_spans: int = 6
    """Text line pieces needed to fit a surface at all."""


RULES = PhotoRules()
