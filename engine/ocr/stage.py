"""The OCR page stage: det -> cls -> rec on pages whose text does not come from a text layer. A
page scanned on its side or upside down is read turned upright; its boxes refer to the turned
page, and `rotation` says by how much it was turned."""

from __future__ import annotations

from dataclasses import replace

from engine.page import PageState
from engine.types import TextSource


def recognize_text(page: PageState, models) -> PageState:
    if page.text_source is not TextSource.OCR:
        return page
    outcome = models.page_reader().read(page.image)
    page = replace(page, lines=tuple(outcome.lines))
    if outcome.rotation:
        page = replace(page, rotation=outcome.rotation, image=outcome.image)
        page = page.warn(f"page was turned by {outcome.rotation} degrees; read it upright")
    return page
