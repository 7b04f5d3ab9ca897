"""Markdown exporter: a document's pages as one Markdown text."""

from __future__ import annotations

import re
from typing import Callable

from engine.output.escaping import escape_inline
from engine.content.table_html import table_html
from engine.output.tables import table_markdown
from engine.structure.hyphens import WordLists, paragraph_judge
from engine.structure.paragraphs import BULLET_RE, join_lines
from engine.types import Block, BlockKind, PageResult, Span

FURNITURE = {BlockKind.HEADER, BlockKind.FOOTER}
_LEADING_SYMBOL = re.compile(r"^(#{1,6}\s|>|[-*+]\s)")
_LEADING_NUMBER = re.compile(r"^(\d{1,9})([.)])(\s)")
_SENTENCE_END = tuple(".!?:;。！？：；")
MIN_CONTINUED_WORDS = 4
_UNSAFE_DESTINATION = re.compile(r"[\s()<>\\]")


def escape_text(text: str) -> str:
    """Stop body text from turning into Markdown syntax at the start of a line or into HTML
    and links inside it."""
    text = escape_inline(text)
    if _LEADING_SYMBOL.match(text):
        return "\\" + text
    # "2023. Revenue grew" is a sentence, not item 2023 of an ordered list.
    return _LEADING_NUMBER.sub(r"\1\\\2\3", text, count=1)


def _link_target(path: str) -> str:
    """An image path as a link destination; one made from an odd file name (spaces,
    parentheses, angle brackets) is written in the <...> form that keeps it whole."""
    if not _UNSAFE_DESTINATION.search(path):
        return path
    return "<" + re.sub(r"([<>\\])", r"\\\1", path) + ">"


def _fence(code: str) -> str:
    """A code fence longer than any run of backticks inside, so the code cannot close it."""
    longest = max((len(run) for run in re.findall(r"`+", code)), default=0)
    return "`" * max(3, longest + 1)


def _is_bullet(text: str) -> bool:
    match = BULLET_RE.match(text)
    # Numbered items keep their numbers (they are content); symbols become "- ".
    return bool(match) and not any(ch.isalnum() for ch in match.group(1))


def _comment(text: str) -> str:
    while "--" in text:  # "--->" would still close the comment after one pass
        text = text.replace("--", "- -")
    return "<!-- " + text + " -->"


def _prose(block: Block, escape=escape_text) -> str:
    """A block's text escaped as document text, its inline formulas as `$...$`; a dollar sign
    of the text itself is escaped, so that none opens a formula ("$5 and $6" stays money)."""
    if not block.spans:
        return escape(block.text).replace("$", "\\$")
    parts = []
    for index, span in enumerate(block.spans):
        if span.latex:
            parts.append("$" + span.latex + "$")
        else:
            parts.append((escape if index == 0 else escape_inline)(span.text).replace("$", "\\$"))
    return "".join(parts)


def render_block(block: Block, table_format: str = "html") -> str:
    kind = block.kind
    if kind in (BlockKind.TITLE, BlockKind.SECTION_HEADER):
        level = max(1, min(6, block.level or (1 if kind is BlockKind.TITLE else 2)))
        return "#" * level + " " + _prose(block, escape_inline)
    if kind is BlockKind.LIST_ITEM:
        if block.spans:
            text = _prose(block, escape_inline)
            return text if BULLET_RE.match(block.text) else "- " + text
        if _is_bullet(block.text):
            return "- " + escape_inline(BULLET_RE.sub("", block.text, count=1))
        text = escape_inline(block.text)
        return text if BULLET_RE.match(block.text) else "- " + text
    if kind is BlockKind.TABLE:
        if block.table is not None:
            if table_format == "markdown":
                gfm = table_markdown(block.table)
                if gfm is not None:
                    return gfm
            return table_html(block.table)
        parts = [f"![table]({_link_target(block.crop.path)})"] \
            if block.crop is not None else []
        if block.text:
            parts.append(escape_text(block.text))
        return "\n\n".join(parts)
    if kind is BlockKind.FORMULA:
        image = f"![formula]({_link_target(block.crop.path)})" \
            if block.crop is not None else ""
        formula = block.formula
        if formula is not None and formula.latex:
            latex = "$$\n" + formula.latex.strip() + "\n$$"
            if not image:
                return latex
            # A doubtful reading keeps the formula's image beside it, for the reader to check.
            note = "the image shows the original formula"
            if formula.confidence is not None:
                note = f"LaTeX read with confidence {formula.confidence:.2f}; {note}"
            return f"{latex}\n\n{image}\n{_comment(note)}"
        parts = [image] if image else []
        if block.text:
            parts.append(_comment("formula text: " + block.text))
        return "\n".join(parts)
    if kind is BlockKind.FIGURE:
        return f"![figure]({_link_target(block.crop.path)})" \
            if block.crop is not None else ""
    if kind is BlockKind.CODE:
        # The listing as shown (engine/structure/code.py), its language as the info string.
        code = block.text or "\n".join(ln.text for ln in block.lines)
        return _fence(code) + block.language + "\n" + code + "\n" + _fence(code)
    return _prose(block)


def _continues(previous: Block, block: Block) -> bool:
    """A paragraph broken by a column or page break: no sentence end, lower-case start."""
    if previous.kind is not BlockKind.TEXT or block.kind is not BlockKind.TEXT:
        return False
    left, right = previous.text.rstrip(), block.text.lstrip()
    # A page number or a label is not half a sentence: the first part must end in a word.
    if len(left.split()) < MIN_CONTINUED_WORDS or not (left[-1].isalpha() or left[-1] in ",-"):
        return False
    return bool(right) and not left.endswith(_SENTENCE_END) and right[0].islower()


def render_markdown(pages: list[PageResult] | tuple[PageResult, ...], table_format: str = "html",
                    keep_furniture: bool = False,
                    word_lists: Callable[[], WordLists] | None = None) -> str:
    """The document's Markdown. A paragraph a column or page break cut in two is one again;
    where the first part ends in a hyphen, `word_lists` (loaded only then) tell a compound's
    hyphen from a word broken in two (engine/structure/hyphens.py)."""
    blocks: list[Block] = []
    for page in pages:
        for block in page.blocks:
            if block.kind in FURNITURE and not keep_furniture:
                continue
            if block.is_continuation:  # its rows are in the table on an earlier page
                continue
            if blocks and _continues(blocks[-1], block):
                parts = [blocks[-1].text, block.text]
                judge = (paragraph_judge(join_lines(parts), word_lists())
                         if word_lists is not None and parts[0].rstrip().endswith("-") else None)
                merged = join_lines(parts, judge)
                spans = ((blocks[-1].spans or (Span(blocks[-1].text),)) + (Span(" "),)
                         + (block.spans or (Span(block.text),))
                         if blocks[-1].spans or block.spans else ())
                blocks[-1] = Block(BlockKind.TEXT, blocks[-1].box, blocks[-1].lines + block.lines,
                                   merged, min(blocks[-1].score, block.score), spans=spans)
                continue
            blocks.append(block)
    parts = [text for b in blocks if (text := render_block(b, table_format).strip())]
    return "\n\n".join(parts) + ("\n" if parts else "")
