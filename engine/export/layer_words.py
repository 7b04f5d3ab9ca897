"""Word boxes for lines read from a document's own text layer, for the exports that place
words (ALTO, hOCR): the conversion keeps such lines whole, so the words MuPDF finds on the
page are laid on the lines they fall in, in the same pixels (the page at its DPI)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pymupdf

from engine.input.text_layer import compose_spacing_accents, nominal_forms
from engine.types import Box, DocumentResult, Line, PageResult, TextSource, Word

PAGED_KINDS = ("pdf", "xps", "epub", "cbz")


def with_layer_words(result: DocumentResult, password: str | None = None
                     ) -> tuple[DocumentResult, tuple[str, ...]]:
    """The result with MuPDF's words on its text-layer lines, and a note when the input
    cannot be read again (its lines then stay whole: one word each)."""
    pages = [p for p in result.pages if p.text_source is TextSource.TEXT_LAYER and p.blocks]
    if not pages or result.kind not in PAGED_KINDS:
        return result, ()
    source = Path(result.path)
    try:
        document = pymupdf.open(str(source), filetype=result.kind)
    except Exception:  # MuPDF's own errors: gone, changed, unreadable
        return result, (f"{source.name} cannot be opened again: the lines of its text layer "
                        "are written whole, without word boxes",)
    try:
        if document.needs_pass and not document.authenticate(password or ""):
            return result, (f"{source.name} is encrypted and the password does not open it: "
                            "the lines of its text layer are written without word boxes",)
        worded = {page.page_number: _page_words(document, page) for page in pages
                  if page.page_number <= document.page_count}
    finally:
        document.close()
    return replace(result, pages=tuple(worded.get(p.page_number, p) for p in result.pages)), ()


def _page_words(document: pymupdf.Document, page: PageResult) -> PageResult:
    scale = page.dpi / 72.0
    found = document[page.page_number - 1].get_text(
        "words", flags=pymupdf.TEXT_PRESERVE_LIGATURES | pymupdf.TEXT_PRESERVE_WHITESPACE)
    # Spelled as the conversion spells its text-layer lines (engine/input/text_layer.py).
    free = [(compose_spacing_accents(nominal_forms(text)), Box(x0, y0, x1, y1).scaled(scale))
            for x0, y0, x1, y1, text, *_ in sorted(found, key=lambda w: tuple(w[5:8]))
            if text.strip()]
    blocks = []
    for block in page.blocks:
        lines = []
        for line in block.lines:
            worded, free = _line_words(line, free) if not line.words else (line, free)
            lines.append(worded)
        blocks.append(replace(block, lines=tuple(lines)))
    return replace(page, blocks=tuple(blocks))


def _line_words(line: Line, free: list[tuple[str, Box]]) -> tuple[Line, list[tuple[str, Box]]]:
    """The line with the free words whose middles lie in its box, when together they spell
    its text; else the line as it was. Returns the words still free."""
    inside = [i for i, (_, box) in enumerate(free)
              if line.box.x0 <= box.center_x <= line.box.x1
              and line.box.y0 <= box.center_y <= line.box.y1]
    words = [free[i] for i in inside]
    if not words or "".join(text for text, _ in words) != "".join(line.text.split()):
        return line, free
    taken = set(inside)
    return (replace(line, words=tuple(Word(text, box) for text, box in words)),
            [w for i, w in enumerate(free) if i not in taken])

