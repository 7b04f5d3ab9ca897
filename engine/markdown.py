"""Markdown exporter: a DocumentResult's pages as one Markdown text."""

from __future__ import annotations

import re

from engine.types import Block, BlockKind, PageResult
from engine.paragraphs import BULLET_RE

SET_ASIDE = {BlockKind.HEADER, BlockKind.FOOTER}
_LEADING_SYMBOL = re.compile(r"^(#{1,6}\s|>|[-*+]\s)")
_LEADING_NUMBER = re.compile(r"^(\d{1,9})([.)])(\s)")


def escape_text(text: str) -> str:
    """Stop body text from turning into Markdown syntax at the start of a line."""
    if _LEADING_SYMBOL.match(text):
        return "\\" + text
    # "2023. Revenue grew" is a sentence, not item 2023 of an ordered list.
    return _LEADING_NUMBER.sub(r"\1\\\2\3", text, count=1)


def render_block(block: Block) -> str:
    if block.kind in (BlockKind.TITLE, BlockKind.SECTION_HEADER):
        level = max(1, min(6, block.level or (1 if block.kind is BlockKind.TITLE else 2)))
        return "#" * level + " " + block.text
    if block.kind is BlockKind.LIST_ITEM:
        return "- " + BULLET_RE.sub("", block.text, count=1) if _is_bullet(block.text) \
            else "- " + block.text
    return escape_text(block.text)


def _is_bullet(text: str) -> bool:
    match = BULLET_RE.match(text)
    # Numbered items keep their numbers (they are content); symbols become "- ".
    return bool(match) and not any(ch.isalnum() for ch in match.group(1))


def render_markdown(pages: list[PageResult] | tuple[PageResult, ...]) -> str:
    parts: list[str] = []
    for page in pages:
        for block in page.blocks:
            if block.kind in SET_ASIDE or not block.text.strip():
                continue
            parts.append(render_block(block))
    return "\n\n".join(parts) + ("\n" if parts else "")
