"""The inline-math page stage: formulas inside running text become spans of their blocks.

On born-digital pages the text layer's glyphs say where math is and what it says
(engine/formulas/glyphs.py). A page whose fonts hold no math font is left as it was, byte for
byte, and pays for nothing but the font list. On OCR pages the recogniser's characters choose
the spans and spell their LaTeX (engine/formulas/inline_ocr.py)."""

from __future__ import annotations

import re
from dataclasses import replace

import pymupdf

from engine.formulas.latex_print import compact
from engine.formulas.glyphs import MathRun, has_math_fonts, page_math_runs
from engine.formulas.inline_ocr import find_ocr_inline_math
from engine.formulas.inline_rules import INLINE_SPANS, InlineSpanRules
from engine.input.text_layer import compose_spacing_accents
from engine.page import PageState
from engine.types import Block, BlockKind, Box, Span, TextSource

# Blocks whose text is running text; tables, formulas, figures and code keep theirs.
PROSE_KINDS = frozenset([BlockKind.TEXT, BlockKind.LIST_ITEM, BlockKind.CAPTION,
                         BlockKind.FOOTNOTE, BlockKind.TITLE, BlockKind.SECTION_HEADER])


_NOT_LETTER_BEFORE, _NOT_LETTER_AFTER = r"(?<![^\W\d_])", r"(?![^\W\d_])"


def find_inline_math(page: PageState, models, spans: InlineSpanRules = INLINE_SPANS
                     ) -> PageState:
    """Inline formulas of a born-digital page from its math fonts' glyphs; of an OCR page from
    its words, under `spans` (engine/formulas/inline_rules.py)."""
    if not page.options.inline_math or not page.blocks:
        return page
    if page.text_source is TextSource.OCR and page.image is not None:
        return find_ocr_inline_math(page, models, spans)
    if page.text_source is not TextSource.TEXT_LAYER:
        return page
    pdf_page = page.document.pdf_page(page.page_number)
    if pdf_page is None or not has_math_fonts(pdf_page.get_fonts()):
        return page
    raw = pdf_page.get_text("rawdict", flags=pymupdf.TEXT_PRESERVE_LIGATURES
                            | pymupdf.TEXT_PRESERVE_WHITESPACE)
    runs = page_math_runs(raw)
    if not runs:
        return page
    blocks = join_split_formulas(list(page.blocks), runs, page.scale)
    return replace(page, blocks=tuple(with_inline_math(block, blocks, runs, page.scale)
                                      for block in blocks))


def _holding(blocks: list[Block], box: Box) -> int | None:
    """The block a glyph or a run lies in: the smallest whose box holds its centre (blocks'
    boxes overlap where a paragraph's last line runs beside the next one's first)."""
    cx, cy = (box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2
    holding = [(b.box.area, i) for i, b in enumerate(blocks)
               if b.box.x0 <= cx <= b.box.x1 and b.box.y0 <= cy <= b.box.y1]
    return min(holding)[1] if holding else None


def join_split_formulas(blocks: list[Block], runs: list[MathRun], scale: float) -> list[Block]:
    """Two prose blocks side by side that one formula runs across are one block: the text
    layer broke the line where a sum's limit left the baseline, and the pieces were read as
    two paragraphs."""
    for run in runs:
        held = {_holding(blocks, g.box.scaled(scale)) for g in run.glyphs}
        held.discard(None)
        if len(held) != 2:
            continue
        first, second = sorted(held)
        a, b = blocks[first], blocks[second]
        if (second != first + 1 or a.kind not in PROSE_KINDS or b.kind not in PROSE_KINDS
                or min(a.box.y1, b.box.y1) - max(a.box.y0, b.box.y0)
                < 0.5 * min(a.box.y1 - a.box.y0, b.box.y1 - b.box.y0)):
            continue
        box = Box(min(a.box.x0, b.box.x0), min(a.box.y0, b.box.y0), max(a.box.x1, b.box.x1),
                  max(a.box.y1, b.box.y1))
        blocks[first:second + 1] = [replace(a, box=box, lines=a.lines + b.lines,
                                            text=a.text.rstrip() + " " + b.text.lstrip())]
    return blocks


def with_inline_math(block: Block, blocks: list[Block], runs: list[MathRun],
                     scale: float) -> Block:
    """The block with the math runs lying in it as formula spans, each found in the block's
    text in reading order; a run whose characters the text does not hold stays text."""
    if block.kind not in PROSE_KINDS or not block.text:
        return block
    inside = [(run, run.box.scaled(scale)) for run in runs
              if blocks[_holding(blocks, run.box.scaled(scale)) or 0] is block
              and _holding(blocks, run.box.scaled(scale)) is not None]
    if not inside:
        return block
    text, spans, cursor = block.text, [], 0
    for run, box in inside:  # the text layer's order, the order of the block's text
        match = _found(text, run.text, cursor)
        shown = ""
        if match is None and len(run.pieces()) > 1:
            # A stacked numerator or denominator the text gives apart ("2π ... T"): the run
            # is placed by its main piece, and the others are taken out of the text nearby.
            main, *others = run.pieces()
            text, shown = _cut_pieces(text, main, others, cursor)
            match = _found(text, main, cursor)
        if match is None:
            continue
        if match.start() > cursor:
            spans.append(Span(text[cursor:match.start()]))
        spans.append(Span(match.group(0) + shown, latex=compact(run.latex), box=box))
        cursor = match.end()
    if not any(span.latex for span in spans):
        return block
    if cursor < len(text):
        spans.append(Span(text[cursor:]))
    spans = _joined(spans)
    # The text as the spans spell it: a stacked piece taken out where the text layer had it.
    return replace(block, spans=tuple(spans), text="".join(span.text for span in spans))


def _found(text: str, characters: str, cursor: int) -> re.Match | None:
    """Where characters of the text layer stand in a block's text from `cursor` on, spaces
    between them allowed, as the text layer's lines spell them (TeX's spacing accents
    composed: u-hat). A formula is a word of its own where the text has one ("after $t$
    seconds": not the t of "after"); where the text layer lost the spaces around it,
    anywhere."""
    chars = [c for c in compose_spacing_accents(characters) if not c.isspace()]
    if not chars:
        return None
    spelled = r"\s*".join(re.escape(c) for c in chars)
    return (re.compile(_NOT_LETTER_BEFORE + spelled + _NOT_LETTER_AFTER).search(text, cursor)
            or re.compile(spelled).search(text, cursor))


def _cut_pieces(text: str, main: str, pieces: list[str], cursor: int) -> tuple[str, str]:
    """The text with each piece, found as a word of its own after `cursor` and nearest the
    main piece's place, taken out; and the pieces taken, as the formula's shown text."""
    shown = ""
    for piece in pieces:
        at = _found(text, main, cursor)
        if at is None:
            break
        chars = [c for c in compose_spacing_accents(piece) if not c.isspace()]
        spelled = r"\s?" + _NOT_LETTER_BEFORE + r"\s*".join(re.escape(c) for c in chars)
        found = [m for m in re.compile(spelled + _NOT_LETTER_AFTER).finditer(text, cursor)
                 if m.end() <= at.start() or m.start() >= at.end()]
        if found:
            near = min(found, key=lambda m: abs(m.start() - at.start()))
            text, shown = text[:near.start()] + text[near.end():], shown + " " + piece
    return text, shown


def _joined(spans: list[Span]) -> list[Span]:
    """Formulas with only spaces between them are one: TeX breaks an inline formula across
    lines after an operator, and the text layer gives its two halves as two runs."""
    out: list[Span] = []
    for span in spans:
        if (len(out) >= 2 and span.latex and out[-2].latex and not out[-1].latex
                and not out[-1].text.strip()):
            gap, first = out.pop(), out.pop()
            box = first.box.union(span.box) if first.box and span.box else first.box or span.box
            span = Span(first.text + gap.text + span.text, latex=compact(first.latex + " "
                                                                         + span.latex), box=box)
        out.append(span)
    return out


def spans_text(block: Block, math: str = "${}$") -> str:
    """The block's text with each inline formula written as `math` of its LaTeX (``$x^2$``)."""
    if not block.spans:
        return block.text
    return "".join(math.format(span.latex) if span.latex else span.text for span in block.spans)
