"""The input's page stages: the page rendered to pixels, and where its text comes from."""

from __future__ import annotations

from dataclasses import replace

from engine.errors import CorruptDocument
from engine.input.text_layer import assess_text_layer, extract_lines
from engine.options import TextMethod
from engine.page import PageState
from engine.types import PageError, TextSource


def render(page: PageState, models) -> PageState:
    """The page's pixels; a page that lost part of its content to damage goes on as partial,
    with a CorruptDocument error saying what was lost."""
    rendered = page.document.render(page.page_number, page.options.dpi, page.options.max_side_px)
    lost = (PageError(stage="render", kind=CorruptDocument.__name__, message=rendered.damage),) \
        if rendered.damage else ()
    return replace(page, image=rendered.image, dpi=rendered.dpi, scale=rendered.scale,
                   warnings=page.warnings + tuple(rendered.warnings), errors=page.errors + lost)


def choose_text_source(page: PageState, models) -> PageState:
    """The text layer when it is real (or forced), otherwise OCR; the reason is kept."""
    pdf_page = page.document.pdf_page(page.page_number)
    method = page.options.method
    if pdf_page is None:
        return replace(page, text_source=TextSource.OCR, text_source_reason="image input")
    if method is TextMethod.OCR:
        return replace(page, text_source=TextSource.OCR, text_source_reason="OCR requested")
    verdict = assess_text_layer(pdf_page)
    if method is TextMethod.TXT:
        page = replace(page, text_source=TextSource.TEXT_LAYER,
                       text_source_reason="text layer requested")
        if not verdict.usable:
            page = page.warn(f"text layer forced although: {verdict.reason}")
    elif verdict.usable:
        page = replace(page, text_source=TextSource.TEXT_LAYER, text_source_reason=verdict.reason)
    else:
        return replace(page, text_source=TextSource.OCR, text_source_reason=verdict.reason)
    return replace(page, lines=tuple(extract_lines(pdf_page, page.scale)))
