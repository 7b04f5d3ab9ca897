"""The OCR page stage: det -> cls -> rec on pages whose text does not come from a text layer."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from engine.page import PageState
from engine.types import TextSource


def recognize_text(page: PageState, models) -> PageState:
    if page.text_source is not TextSource.OCR:
        return page
    outcome = models.page_reader().read(page.image)
    page = replace(page, lines=tuple(outcome.lines))
    if outcome.page_rotated_180:
        page = replace(page, rotation=180, image=np.ascontiguousarray(page.image[::-1, ::-1]))
        page = page.warn("page was upside down; read it turned by 180 degrees")
    return page
