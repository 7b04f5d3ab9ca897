"""Running headers and footers: text that repeats at the same place across pages is set aside."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace

from engine.types import Block, BlockKind, PageResult

# Only blocks in the top or bottom band of a page can be furniture.
BAND_SHARE = 0.1
_DIGITS = re.compile(r"\d+")


def _signature(block: Block) -> str:
    """Page numbers differ from page to page; compare the text with digits masked."""
    return _DIGITS.sub("#", " ".join(block.text.lower().split()))


def _band(block: Block, page: PageResult) -> str | None:
    if block.box.y1 <= page.height * BAND_SHARE:
        return "top"
    if block.box.y0 >= page.height * (1 - BAND_SHARE):
        return "bottom"
    return None


def mark_furniture(pages: list[PageResult]) -> list[PageResult]:
    """Blocks whose masked text recurs in the same band on at least half of the pages (and on
    two or more) become HEADER / FOOTER blocks; a lone page number in a band is a footer too."""
    counts: Counter[tuple[str, str]] = Counter()
    for page in pages:
        seen = {(band, _signature(b)) for b in page.blocks if (band := _band(b, page))}
        counts.update(seen)
    needed = max(2, (len(pages) + 1) // 2)
    result = []
    for page in pages:
        blocks = []
        for block in page.blocks:
            band = _band(block, page)
            repeated = band is not None and counts[(band, _signature(block))] >= needed
            page_number = band is not None and _signature(block).strip("-–— ") in ("#", "page #",
                                                                                    "# of #")
            if repeated or page_number:
                kind = BlockKind.HEADER if band == "top" else BlockKind.FOOTER
                block = replace(block, kind=kind)
            blocks.append(block)
        result.append(replace(page, blocks=tuple(blocks)))
    return result
