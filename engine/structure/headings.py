"""Heading levels for the document, not the page.

A page alone cannot tell a chapter from a section; the document can. Levels come from the
numbering's depth (1, 1.1, 1.1.1; 第一章, 一、, （一）) and, for headings without numbers, from
the style they share with numbered ones (size and weight) anywhere in the document. A numbered
line set apart like a heading (bold or larger than the body, short, one line) is a heading even
where a page's layout took it for a list item: "1. Euler's Identity" above its paragraph. An
unnumbered heading smaller than a numbered one, after it, is below it, ranked by size. A
heading the layout cut into two stacked regions of one style is joined again, and a sentence's
end in body type that it took for a heading is text. The document's title (its first heading,
set well above every other, or the layout's first title) is level 1 once; every later heading
is below it. The Markdown, the DOCX outline and the searchable PDF's outline all read these
levels. Measured by tools/headings.
"""

from __future__ import annotations

import re
import statistics
from dataclasses import replace

from engine.structure.heading_rules import HEADINGS, HeadingRules
from engine.structure.paragraphs import join_lines
from engine.types import Block, BlockKind, PageResult

_DECIMAL = re.compile(r"^\s*(\d{1,2}(?:\.\d{1,2}){0,4})(?:\.|\s)\s*(\S.*)$")
_CHINESE_NUMERAL = "一二三四五六七八九十百零〇两"
_CHINESE = (
    (re.compile(rf"^\s*第[{_CHINESE_NUMERAL}\d]+[章部篇编]"), 1),
    (re.compile(rf"^\s*第[{_CHINESE_NUMERAL}\d]+节"), 2),
    (re.compile(rf"^\s*[{_CHINESE_NUMERAL}]+[、.．]"), 1),
    (re.compile(rf"^\s*[（(][{_CHINESE_NUMERAL}]+[）)]"), 2),
)
HEADING_KINDS = (BlockKind.TITLE, BlockKind.SECTION_HEADER)


def numbering_depth(text: str) -> int:
    """1 for "3" or "第三章" or "三、", 2 for "3.1" or "（三）", ...; 0 when not numbered."""
    match = _DECIMAL.match(text)
    if match and match.group(2)[:1].isupper() or (match and not match.group(2)[:1].isascii()):
        return match.group(1).count(".") + 1
    for pattern, depth in _CHINESE:
        if pattern.match(text):
            return depth
    return 0


def _size(block: Block) -> float:
    """The block's type size: the text layer's, or the OCR lines' height."""
    sizes = [line.font_size or line.box.height for line in block.lines]
    return statistics.median(sizes) if sizes else 0.0


def _bold(block: Block) -> bool:
    return bool(block.lines) and all(line.bold for line in block.lines)


def _body_size(pages: list[PageResult]) -> float:
    sizes = [line.font_size or line.box.height for page in pages for block in page.blocks
             if block.kind is BlockKind.TEXT for line in block.lines]
    return statistics.median(sizes) if sizes else 0.0


def _numbered_heading(block: Block, body: float, rules: HeadingRules) -> bool:
    """A numbered list item or paragraph that is set as a heading."""
    if block.kind not in (BlockKind.LIST_ITEM, BlockKind.TEXT) or len(block.lines) > 1:
        return False
    text = block.text.strip()
    if not numbering_depth(text) or len(text.split()) > rules.max_words:
        return False
    if text.endswith((".", ":", ";", ",")) or block.spans:
        return False
    return _bold(block) or (body > 0 and _size(block) >= rules.larger * body)


def _same_style(a: Block, b: Block, rules: HeadingRules) -> bool:
    size, other = _size(a), _size(b)
    return _bold(a) == _bold(b) and abs(size - other) <= rules.same_size * max(size, other)


def _joins(upper: Block, lower: Block, rules: HeadingRules) -> bool:
    """`lower` is the rest of the heading `upper`: a heading the layout cut in two regions (or
    whose first lines it took for bold text), one style, stacked, not a numbered heading."""
    if lower.kind not in HEADING_KINDS or upper.spans or lower.spans:
        return False
    if upper.kind not in HEADING_KINDS and not (upper.kind is BlockKind.TEXT and _bold(upper)):
        return False
    if numbering_depth(lower.text) or not _same_style(upper, lower, rules):
        return False
    gap = lower.box.y0 - upper.box.y1
    overlap = min(upper.box.x1, lower.box.x1) - max(upper.box.x0, lower.box.x0)
    words = len(upper.text.split()) + len(lower.text.split())
    return (-0.5 * _size(upper) <= gap <= rules.broken_gap * _size(upper) and overlap > 0
            and words <= rules.broken_words)


def _join_broken(blocks: tuple[Block, ...], rules: HeadingRules) -> list[Block]:
    joined: list[Block] = []
    for block in blocks:
        if joined and _joins(joined[-1], block, rules):
            upper = joined.pop()
            block = replace(upper, kind=upper.kind if upper.kind in HEADING_KINDS
                            else block.kind, box=upper.box.union(block.box),
                            lines=upper.lines + block.lines,
                            text=join_lines([upper.text, block.text]),
                            level=upper.level or block.level)
        joined.append(block)
    return joined


def _body_fragment(block: Block, body: float, rules: HeadingRules) -> bool:
    """A heading in body type that starts in lower case: the end of a sentence the layout
    took for a heading ("a dictionary).")."""
    text = block.text.strip()
    return (block.kind is BlockKind.SECTION_HEADER and bool(text) and text[0].islower()
            and not _bold(block) and body > 0 and abs(_size(block) - body)
            <= rules.same_size * max(_size(block), body) and not numbering_depth(text))


def document_headings(pages: list[PageResult], rules: HeadingRules = HEADINGS
                      ) -> list[PageResult]:
    """The pages with every heading's level set for the whole document, under `rules`
    (engine/structure/heading_rules.py)."""
    body = _body_size(pages)
    promoted = [[replace(b, kind=BlockKind.SECTION_HEADER) if _numbered_heading(b, body, rules)
                 else replace(b, kind=BlockKind.TEXT, level=0)
                 if _body_fragment(b, body, rules) else b
                 for b in _join_broken(page.blocks, rules)]
                for page in pages]
    headings = [b for blocks in promoted for b in blocks if b.kind in HEADING_KINDS]
    if not headings:
        return pages
    styles: dict[tuple[float, bool], int] = {}  # style -> shallowest numbered level
    for block in headings:
        depth = numbering_depth(block.text)
        if depth:
            key = (_size(block), _bold(block))
            styles[key] = min(styles.get(key, 9), depth + 1)
    unnumbered = [_size(b) for b in headings if not numbering_depth(b.text)]
    title = _title(headings, rules)

    def same(size: float, other: float) -> bool:
        return abs(size - other) <= rules.same_size * max(size, other)

    def style_level(block: Block) -> int | None:
        size, bold = _size(block), _bold(block)
        for (other, other_bold), level in styles.items():
            if bold == other_bold and same(size, other):
                return level
        return None

    def below_numbered(block: Block) -> int | None:
        """An unnumbered style smaller than a numbered one, after a numbered heading: below
        it, ranked by size among the unnumbered styles between it and the next smaller
        numbered style. Before any numbered heading it has no section to be under."""
        size = _size(block)
        if not numbered_seen:
            return None
        above = [(other, level) for (other, _), level in styles.items()
                 if other > size and not same(size, other)]
        if not above:
            return None
        anchor, level = min(above)
        floor = max((other for other, _ in styles if other < size and not same(size, other)),
                    default=0.0)
        between = sorted(u for u in unnumbered if floor < u < anchor and not same(u, anchor))
        larger_styles, last = 0, None  # unnumbered styles set larger than this one
        for other in reversed(between):
            if other <= size or same(other, size):
                break
            if last is None or not same(other, last):
                larger_styles += 1
            last = other
        return level + 1 + larger_styles

    titled = numbered_seen = False
    result = []
    for page, blocks in zip(pages, promoted):
        leveled = []
        for block in blocks:
            if block.kind not in HEADING_KINDS:
                leveled.append(block)
                continue
            depth = numbering_depth(block.text)
            numbered_seen = numbered_seen or bool(depth)
            if block is title or (title is None and not depth and not titled
                                  and block.kind is BlockKind.TITLE):
                titled = True
                leveled.append(replace(block, kind=BlockKind.TITLE, level=1))
                continue
            # Numbered: by depth. Unnumbered: the level of the numbered headings it looks like,
            # else below the numbered style just larger, else what its page made of it, below
            # the title.
            level = depth + 1 if depth else (style_level(block) or below_numbered(block)
                                             or max(2, block.level or 2))
            leveled.append(replace(block, kind=BlockKind.SECTION_HEADER, level=min(6, level)))
        result.append(replace(page, blocks=tuple(leveled)))
    return result


def _title(headings: list[Block], rules: HeadingRules) -> Block | None:
    """The document's first heading when it is unnumbered and set larger than every other
    heading by `title_size`: its title, whatever its page's layout called it."""
    first = headings[0]
    size = _size(first)
    if numbering_depth(first.text) or not all(
            size >= rules.title_size * _size(other) for other in headings[1:]):
        return None
    return first
