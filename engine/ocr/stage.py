"""The OCR page stage: det -> cls -> rec on pages whose text does not come from a text layer. A
page scanned on its side or upside down is read turned upright; its boxes refer to the turned
page, and `rotation` says by how much it was turned."""

from __future__ import annotations

from dataclasses import replace

from engine.imaging import INK, InkRules
from engine.ocr.gutters import plan_cuts
from engine.ocr.leaders import join_at_leaders
from engine.page import PageState
from engine.types import Line, PageError, TextSource

# The kind of the page error for lines in a script no installed recogniser reads.
SCRIPT_UNAVAILABLE = "ScriptUnavailable"


def recognize_text(page: PageState, models) -> PageState:
    if page.text_source is not TextSource.OCR:
        return page
    outcome = models.page_reader().read(page.image, page.options.languages)
    page = replace(page, lines=tuple(outcome.lines), unread=outcome.unread,
                   text_mask=outcome.text_mask, scripts=outcome.scripts,
                   errors=page.errors + tuple(PageError("ocr", SCRIPT_UNAVAILABLE, u.message())
                                              for u in outcome.unreadable))
    if outcome.rotation:
        page = page.turned(outcome.rotation, outcome.image)
    return page


def split_at_gutters(page: PageState, models, ink: InkRules = INK) -> PageState:
    """OCR lines lying across a column gutter (engine/ocr/gutters.py) replaced by their parts,
    each read again; a part that reads as nothing is dropped, a line none of whose parts reads
    is kept whole. `ink`: what is ink on the page's pixels."""
    if page.text_source is not TextSource.OCR or not page.regions or not page.lines:
        return page
    cuts = plan_cuts(page.image, list(page.lines), list(page.regions), ink)
    if not cuts:
        return page
    # Cropped as the detector's lines are, to the box and no margin: on a scan with tight
    # leading a margin takes in the ink of the lines above and below, and the recogniser reads
    # the part's letters worse (a degraded two-column journal scan of tools/structure lost whole
    # words that way, 0.987 -> 0.969; 0.997 without the margin).
    crops = [page.crop(part, margin=0) for cut in cuts for part in cut.parts]
    reader = models.page_reader()
    readings = iter(reader.read_lines(crops, page.options.languages).readings)
    replacement: dict[int, list[Line]] = {}
    for cut in cuts:
        parts = [Line(text=rec.text.strip(), box=part, score=rec.score,
                      font_size=cut.line.font_size)
                 for part, rec in zip(cut.parts, readings)]
        parts = [p for p in parts if p.text and p.score >= reader.rules.min_line_score]
        if parts:
            replacement[id(cut.line)] = parts
    lines = [part for line in page.lines for part in replacement.get(id(line), [line])]
    return replace(page, lines=tuple(lines))


def join_leaders(page: PageState, models, ink: InkRules = INK) -> PageState:
    """An index entry and its page numbers, read as two lines with the dot leader between
    them unseen, made one line again (engine/ocr/leaders.py)."""
    if page.text_source is not TextSource.OCR or not page.lines:
        return page
    lines = join_at_leaders(page.image, list(page.lines), ink)
    return page if len(lines) == len(page.lines) else replace(page, lines=tuple(lines))
