"""A document as positioned text for the formats that carry it as such (ALTO, hOCR): pages,
their blocks in reading order, lines and words, every box in the pixels of the page as the
input holds it, with the sentence that says which pixels those are."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from engine.export.page_words import InputPixels, PlacedWord, block_lines, words_of
from engine.types import BlockKind, Box, DocumentResult, PageResult, Status, Word

# Inputs whose pages are pictures of their own: boxes go back onto the picture's pixels.
# Paged inputs (PDF, XPS, EPUB, CBZ) have no pixels of their own: their pages are rendered.
PICTURE_KINDS = ("png", "jpeg", "tiff", "bmp", "webp")
# What XML 1.0 cannot hold at all (control characters, lone surrogates, U+FFFE/U+FFFF).
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


@dataclass(frozen=True)
class PositionedLine:
    box: Box
    confidence: float
    words: tuple[PlacedWord, ...]

    @property
    def text(self) -> str:
        """The line's words, spaced."""
        return " ".join(placed.text for placed in self.words)


@dataclass(frozen=True)
class PositionedBlock:
    kind: BlockKind
    box: Box
    lines: tuple[PositionedLine, ...]


@dataclass(frozen=True)
class PositionedPage:
    number: int
    """1-based page number in the input."""
    width: int
    height: int
    """Size of the page in the pixels the boxes are in."""
    dpi: float | None
    """The resolution of those pixels: a paged input's render; None for a picture (its own
    pixels, whatever resolution it was scanned at)."""
    space: str
    """One sentence naming those pixels, for the file's reader."""
    blocks: tuple[PositionedBlock, ...]
    status: Status
    confidence: float | None
    """The mean confidence of the page's words (None: no words)."""


def positioned_pages(result: DocumentResult) -> list[PositionedPage]:
    return [positioned_page(result, page) for page in result.pages]


def positioned_page(result: DocumentResult, page: PageResult) -> PositionedPage:
    """One page's blocks, lines and words with their boxes moved from the analysed pixels
    onto the page as the input holds it: a picture's own pixels, or a paged input's page
    rendered at the page's DPI."""
    picture = result.kind in PICTURE_KINDS
    placement = InputPixels(page)
    upright_w, upright_h = placement.upright
    name = Path(result.path).name
    if picture and page.dpi > 0:
        # A picture was scaled by dpi / 72 when it was over the pixel cap (else 1).
        factor = 72.0 / page.dpi
        placement = InputPixels(page, (upright_w * factor, upright_h * factor))
        space = f"pixels of {name}" + (f" (page {page.page_number})" if
                                       result.page_count > 1 else "")
        dpi = None
    else:
        space = f"pixels of page {page.page_number} of {name} rendered at {page.dpi:g} dpi"
        dpi = page.dpi
    if page.page_outline:
        space += (", as Paperlens straightened the photographed page"
                  + (" and flattened its curl" if page.flattened else ""))
    blocks = []
    for block in page.blocks:
        lines = []
        for line in block_lines(block):
            words = tuple(PlacedWord(Word(placed.text.strip(), placement.box(placed.box)),
                                     placed.spaced, placed.confidence)
                          for placed in words_of(line) if placed.text.strip())
            if words:
                lines.append(PositionedLine(placement.box(line.box), line.score, words))
        blocks.append(PositionedBlock(block.kind, placement.box(block.box), tuple(lines)))
    scores = [w.confidence for b in blocks for ln in b.lines for w in ln.words]
    width, height = placement.size
    return PositionedPage(page.page_number, round(width), round(height), dpi, space,
                          tuple(blocks), page.status,
                          sum(scores) / len(scores) if scores else None)


def straightened_pages(result: DocumentResult) -> list[int]:
    """Photographed pages: their boxes are on the page as straightened, not on the photo."""
    return [page.page_number for page in result.pages if page.page_outline]


def xml_text(text: str) -> str:
    """Text an XML file can carry: characters XML 1.0 forbids (control characters a text
    layer may hold) become U+FFFD, so the file stays well-formed and the text its length."""
    return _NOT_XML.sub("\ufffd", text)
