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
    """The page covers at least this share of the photo (the set's pages: 0.47-0.60)."""
    max_page_share: float = 0.95
    """...and at most this: beyond it there is too little background to tell it is a photo."""
    min_fill: float = 0.9
    """The bright shape fills its four-cornered outline this much (the set's photos, curled
    ones with their bowed edges among them: 0.966-1.0)."""
    min_contrast: float = 40.0
    """Grey levels between the page's median and the background's (the set's photos: 97-164;
    no dev-set page is found at all, tests/engine/test_photo_geometry.py)."""
    min_border_background: float = 0.6
    """Share of the photo's outer frame that lies off the page: a page that runs off the
    picture is not found (a flat scan's page touches every edge)."""
    min_curl_px_per_height: float = 0.5
    """Lines are curved enough to flatten when the fitted surface bends them by this many of
    their letters' heights beyond a straight slant (the set's flat photos: 0.01-0.16, its
    curled ones: 1.8-6.4)."""
    min_traced_ratio: float = 1.5
    """A page is traced the way whose line pieces add up to this many times the length traced
    the other way (in letter heights); nearer than that, the text detector's boxes decide. The
    set's pages traced both ways (Chinese, whose characters also stand in columns): the right
    way 1.9-3.1 times the other (`python -m tools.photos`, seed 1)."""
    min_spans: int = 6
    """Text line pieces needed to fit a surface at all."""


RULES = PhotoRules()
