"""The photo page stage: on an OCR page photographed on a background, the page is found and its
perspective undone (engine/photo/outline.py), and its curl flattened when its lines are
clearly curved (engine/photo/dewarp.py), before the text is detected. A page with no clear
background around it (a scan, a born-digital page, a screenshot) is left as it is."""

from __future__ import annotations

from dataclasses import replace

from engine.imaging import turn_image
from engine.ocr.orientation import looks_sideways
from engine.page import PageState
from engine.photo.dewarp import find_surface, flatten, is_curled, runs_along
from engine.photo.outline import find_page_outline, rectify
from engine.photo.rules import RULES, PhotoRules
from engine.types import TextSource


def flatten_photo(page: PageState, models, rules: PhotoRules = RULES) -> PageState:
    if (not page.options.dewarp or page.text_source is not TextSource.OCR
            or page.image is None):
        return page
    outline = find_page_outline(page.image, rules)
    if outline is None:
        return page
    image = rectify(page.image, outline)
    page = replace(page, image=image, page_outline=tuple(
        round(float(v), 2) for v in outline.quad.reshape(-1)))
    # A page lying on its side is traced turned upright (the OCR turns it upright itself
    # afterwards): when no line runs across the page as given and some do turned, when the
    # lines traced turned are clearly longer, or, when neither way is clearly longer (Chinese
    # characters stand in columns as well as rows), when the text detector's lines stand on end.
    upright = find_surface(image, rules)
    turned = find_surface(turn_image(image, 90), rules)
    sideways = turned is not None and (
        upright is None or runs_along(turned, upright, rules)
        or (not runs_along(upright, turned, rules)
            and looks_sideways(models.page_reader().detector.detect(image))))
    surface = turned if sideways else upright
    if surface is None or not is_curled(surface, rules):
        return page
    flat = flatten(turn_image(image, 90) if sideways else image, surface)
    return replace(page, image=turn_image(flat, 270) if sideways else flat, flattened=True)
