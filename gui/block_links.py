"""Where each layout block's text sits in the Markdown, so text and boxes point at each other."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Sequence

_WORD = re.compile(r"\w+")
_TAG = re.compile(r"<[^>]*>")
# The full stop, bracket, emphasis or closing HTML tags after a block's last word.
_CLOSING = re.compile(r"(?:<[^>]*>|[^\w\s])*")
_TOKENS = 8  # words that identify a block's start (and its end)
_MAX_JUMP = 4000  # a match further ahead than this is a coincidence, not the block


@dataclass(frozen=True)
class BlockLink:
    """Block `block_index` of page `page_index` spans text[start:end]."""

    page_index: int
    block_index: int
    start: int
    end: int


def formula_latex(block: Any) -> str:
    """A block's display LaTeX ("" when it has none)."""
    formula = getattr(block, "formula", None)
    return formula.latex if formula is not None else ""


def crop_path(block: Any) -> str:
    """The path of the picture the Markdown shows for a block ("" when none)."""
    crop = getattr(block, "crop", None)
    return crop.path if crop is not None else ""


def block_words(block: Any) -> list[str]:
    """The words of a block as the Markdown carries them (text, table cells, LaTeX, picture)."""
    # A table's Markdown is its HTML, whose cell order differs from the OCR'd text's.
    text = _TAG.sub(" ", getattr(block, "html", "") or "") or getattr(block, "text", "") \
        or formula_latex(block)
    words = _WORD.findall(text)
    if not words and crop_path(block):
        words = _WORD.findall(crop_path(block))
    return words


def _pattern(words: Sequence[str]) -> re.Pattern[str]:
    # Anything that is not a word may come between two words: Markdown escapes, emphasis
    # markers, line breaks, and the HTML tags between a table's cells.
    return re.compile(r"(?:<[^>]*>|\W)*".join(re.escape(w) for w in words))


def locate_blocks(pages: Sequence[Any], text: str) -> list[BlockLink]:
    """Find every block of `pages` (in reading order) in `text`, moving forward only.

    `text` is the Markdown source or the plain text of its rendered view. Blocks that are not
    in the text (running headers left out, figures in the rendered view) get no link."""
    links: list[BlockLink] = []
    pos = 0
    for page_index, page in enumerate(pages):
        for block_index, block in enumerate(getattr(page, "blocks", ())):
            words = block_words(block)
            if not words:
                continue
            head = _pattern(words[:_TOKENS]).search(text, pos)
            if head is None or head.start() - pos > _MAX_JUMP + len(" ".join(words)):
                continue
            end = head.end()
            if len(words) > _TOKENS:
                tail = _pattern(words[-_TOKENS:]).search(text, head.start())
                if tail is not None and \
                        tail.start() - head.start() <= 4 * len(" ".join(words)) + 200:
                    end = max(end, tail.end())
            end = _CLOSING.match(text, end).end()
            links.append(BlockLink(page_index, block_index, head.start(), end))
            pos = end
    return links


def link_at(links: Sequence[BlockLink], position: int) -> BlockLink | None:
    """The link whose span contains `position`, else None."""
    for link in links:
        if link.start <= position <= link.end:
            return link
    return None


def link_for(links: Sequence[BlockLink], page_index: int, block_index: int) -> BlockLink | None:
    for link in links:
        if link.page_index == page_index and link.block_index == block_index:
            return link
    return None
