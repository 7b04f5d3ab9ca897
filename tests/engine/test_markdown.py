"""engine.output.markdown: blocks rendered as Markdown, furniture left out, body text escaped."""

from __future__ import annotations

import pytest

from engine.output.markdown import render_markdown
from engine.types import Block, BlockKind, Box, PageResult, TextSource

BOX = Box(0, 0, 100, 10)


def page(*blocks: Block, number: int = 1) -> PageResult:
    return PageResult(page_number=number, width=100, height=100, dpi=72,
                      text_source=TextSource.OCR, text_source_reason="test", blocks=blocks)


def b(kind: BlockKind, text: str, level: int = 0) -> Block:
    return Block(kind, BOX, text=text, level=level)


def test_render_markdown_kinds_and_order():
    pages = [
        page(b(BlockKind.HEADER, "Running head"),
             b(BlockKind.TITLE, "Harvest report", level=1),
             b(BlockKind.SECTION_HEADER, "Yields", level=2),
             b(BlockKind.TEXT, "Wheat did well."),
             b(BlockKind.LIST_ITEM, "• Barley"),
             b(BlockKind.LIST_ITEM, "3. Oats"),
             b(BlockKind.FOOTER, "1")),
        page(b(BlockKind.TEXT, "   "), b(BlockKind.TEXT, "Second page."), number=2),
    ]
    assert render_markdown(pages) == (
        "# Harvest report\n\n## Yields\n\nWheat did well.\n\n- Barley\n\n3. Oats\n\n"
        "Second page.\n")


def test_section_header_without_level_defaults_to_two():
    assert render_markdown([page(b(BlockKind.SECTION_HEADER, "Scope"))]) == "## Scope\n"


def test_nothing_to_render():
    assert render_markdown([]) == ""
    assert render_markdown([page(b(BlockKind.FOOTER, "12"))]) == ""


@pytest.mark.parametrize("raw, escaped", [
    ("# not a heading", "\\# not a heading"),
    ("> not a quote", "\\> not a quote"),
    ("- not a list", "\\- not a list"),
    ("+ not a list", "\\+ not a list"),
])
def test_body_text_that_looks_like_syntax_is_escaped(raw, escaped):
    assert render_markdown([page(b(BlockKind.TEXT, raw))]) == escaped + "\n"


@pytest.mark.parametrize("raw, escaped", [
    ("2023. Revenue grew in every region.", "2023\\. Revenue grew in every region."),
    ("2023) Revenue grew in every region.", "2023\\) Revenue grew in every region."),
])
def test_body_text_starting_with_a_number_and_dot_is_escaped(raw, escaped):
    assert render_markdown([page(b(BlockKind.TEXT, raw))]) == escaped + "\n"
