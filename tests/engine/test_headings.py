"""Heading levels for the document: numbering depth, styles shared across pages, one title."""

from __future__ import annotations

import pymupdf
import pytest

from engine.options import ConvertOptions
from engine.structure.headings import document_headings, numbering_depth
from engine.types import Block, BlockKind, Box, Line, PageResult, TextSource


@pytest.mark.parametrize("text, depth", [
    ("1. Euler's Identity", 1), ("3.1 Results", 2), ("2.1.4 Edge cases", 3), ("第三章 总论", 1),
    ("一、概述", 1), ("（二）方法", 2), ("2023. Revenue grew", 0), ("1. buy milk", 0),
    ("Introduction", 0),
])
def test_numbering_depth(text, depth):
    assert numbering_depth(text) == depth


def _block(kind: BlockKind, text: str, size: float, bold: bool, y: float = 0.0,
           level: int = 0) -> Block:
    line = Line(text, Box(0, y, 300, y + size), font_size=size, bold=bold)
    return Block(kind, line.box, (line,), text, level=level)


def _page(number: int, *blocks: Block) -> PageResult:
    return PageResult(number, 600, 800, 72.0, TextSource.TEXT_LAYER, "", blocks=blocks)


def _levels(pages: list[PageResult]) -> list[tuple[str, str, int]]:
    return [(b.kind.value, b.text, b.level) for p in pages for b in p.blocks
            if b.kind in (BlockKind.TITLE, BlockKind.SECTION_HEADER)]


def test_levels_come_from_the_document_not_the_page():
    body = "Body text of the section, long enough to be a paragraph of its own."
    pages = [
        _page(1, _block(BlockKind.TITLE, "A Study of Levels", 24, True),
              _block(BlockKind.LIST_ITEM, "1 Introduction", 14, True),  # the layout's guess
              _block(BlockKind.TEXT, body, 10, False),
              _block(BlockKind.SECTION_HEADER, "1.1 Background", 12, True, level=2),
              _block(BlockKind.TEXT, body, 10, False),
              _block(BlockKind.TEXT, "1.1.1 Details", 11, True),
              _block(BlockKind.TEXT, body, 10, False),
              _block(BlockKind.LIST_ITEM, "1. A plain item in body type", 10, False)),
        _page(2, _block(BlockKind.SECTION_HEADER, "2 Methods", 14, True, level=2),
              _block(BlockKind.TEXT, body, 10, False),
              _block(BlockKind.SECTION_HEADER, "Unnumbered Like a Subsection", 12, True, level=2),
              _block(BlockKind.TEXT, body, 10, False),
              _block(BlockKind.TITLE, "A Second Title on a Later Page", 24, True)),
    ]
    assert _levels(document_headings(pages)) == [
        ("title", "A Study of Levels", 1),
        ("section_header", "1 Introduction", 2),
        ("section_header", "1.1 Background", 3),
        ("section_header", "1.1.1 Details", 4),
        ("section_header", "2 Methods", 2),
        ("section_header", "Unnumbered Like a Subsection", 3),
        ("section_header", "A Second Title on a Later Page", 2),
    ]
    # a numbered line in body type stays what it was
    assert document_headings(pages)[0].blocks[-1].kind is BlockKind.LIST_ITEM


def test_a_large_unnumbered_heading_over_numbered_sections_is_the_title():
    pages = [_page(1, _block(BlockKind.SECTION_HEADER, "The 20 Most Important Equations", 21.6,
                             True, level=2),
                   _block(BlockKind.LIST_ITEM, "1. Euler's Identity", 13.2, True),
                   _block(BlockKind.TEXT, "Connects five constants, revealing much.", 10.8,
                          False),
                   _block(BlockKind.LIST_ITEM, "2. Pythagorean Theorem", 13.2, True))]
    assert _levels(document_headings(pages)) == [
        ("title", "The 20 Most Important Equations", 1),
        ("section_header", "1. Euler's Identity", 2),
        ("section_header", "2. Pythagorean Theorem", 2)]


def test_the_first_heading_set_well_above_the_rest_is_the_title_whatever_the_layout_said():
    body = "Body text of the section, long enough to be a paragraph of its own."
    # LaTeX's article: \\LARGE title over \\Large sections, 1.2 times; the layout said header
    latex = [_page(1, _block(BlockKind.SECTION_HEADER, "On Levels", 17.28, False, level=2),
                   _block(BlockKind.SECTION_HEADER, "1 Introduction", 14.4, True, level=2),
                   _block(BlockKind.TEXT, body, 10.95, False)),
             _page(2, _block(BlockKind.SECTION_HEADER, "1.1 Background", 12, True, level=2),
                   _block(BlockKind.TEXT, body, 10.95, False))]
    assert _levels(document_headings(latex)) == [
        ("title", "On Levels", 1), ("section_header", "1 Introduction", 2),
        ("section_header", "1.1 Background", 3)]
    # unnumbered headings only: the first, far larger, is the title; the rest keep their level
    plain = [_page(1, _block(BlockKind.SECTION_HEADER, "A Page Title", 16, True, level=2),
                   _block(BlockKind.SECTION_HEADER, "A Section", 12, True, level=2),
                   _block(BlockKind.TEXT, body, 10.5, False))]
    assert [level for _, _, level in _levels(document_headings(plain))] == [1, 2]
    # a large headline that is not the first heading is no title
    sheet = [_page(1, _block(BlockKind.SECTION_HEADER, "A Story", 30, True, level=2),
                   _block(BlockKind.SECTION_HEADER, "The Lead Story", 60, True, level=2),
                   _block(BlockKind.TEXT, body, 10, False))]
    assert [kind for kind, _, _ in _levels(document_headings(sheet))] == ["section_header"] * 2


def test_unnumbered_headings_smaller_than_a_numbered_one_sit_below_it_by_size():
    body = "Body text of the section, long enough to be a paragraph of its own."
    pages = [_page(1, _block(BlockKind.SECTION_HEADER, "Abstract", 10, True, level=2),
                   _block(BlockKind.TEXT, body, 10, False),
                   _block(BlockKind.SECTION_HEADER, "9.6 Barriers", 15, True, level=2),
                   _block(BlockKind.TEXT, body, 10, False),
                   _block(BlockKind.SECTION_HEADER, "Example 9.9", 10, True, level=2),
                   _block(BlockKind.TEXT, body, 10, False),
                   _block(BlockKind.SECTION_HEADER, "Exercises", 11, True, level=2),
                   _block(BlockKind.TEXT, body, 10, False)),
             _page(2, _block(BlockKind.SECTION_HEADER, "Note", 9.5, True, level=2),
                   _block(BlockKind.TEXT, body, 10, False))]
    assert [(text, level) for _, text, level in _levels(document_headings(pages))] == [
        ("Abstract", 2),  # before any numbered heading: under no section
        ("9.6 Barriers", 3), ("Example 9.9", 5), ("Exercises", 4), ("Note", 5)]


def test_a_heading_the_layout_cut_in_two_is_one_and_a_sentence_end_is_no_heading():
    body = "Body text of the story, long enough to be a paragraph of its own."
    pages = [_page(1, _block(BlockKind.SECTION_HEADER, "Unfreeze all objects in the", 49, True,
                             y=100, level=2),
                   _block(BlockKind.SECTION_HEADER, "permanent generation", 49, True, y=155,
                          level=2),
                   _block(BlockKind.TEXT, body, 20, False, y=230),
                   _block(BlockKind.SECTION_HEADER, "a dictionary).", 20, False, y=260, level=2),
                   _block(BlockKind.TEXT, "Make the current process the leader of its", 25,
                          True, y=300),
                   _block(BlockKind.SECTION_HEADER, "group", 25, True, y=330, level=2),
                   _block(BlockKind.TEXT, body, 20, False, y=370),
                   # one style, but far apart: two headings
                   _block(BlockKind.SECTION_HEADER, "Exception for unavailable methods", 25,
                          True, y=420, level=2),
                   _block(BlockKind.SECTION_HEADER, "Find the module", 25, True, y=600,
                          level=2))]
    result = document_headings(pages)
    assert [text for _, text, _ in _levels(result)] == [
        "Unfreeze all objects in the permanent generation",
        "Make the current process the leader of its group",
        "Exception for unavailable methods", "Find the module"]
    fragment = [b for b in result[0].blocks if b.text == "a dictionary)."]
    assert [b.kind for b in fragment] == [BlockKind.TEXT]


@pytest.mark.model
def test_a_three_depth_document_gets_its_outline(tmp_path, engine):
    doc = pymupdf.open()
    prose = ("The measurements were repeated on every sample and the results agree with the "
             "earlier study within the stated error. ") * 3
    layout = [[("A Study of Levels", 22, "hebo"), ("1 Introduction", 15, "hebo"), (prose, 10, "helv"),
               ("1.1 Background", 12.5, "hebo"), (prose, 10, "helv"),
               ("1.1.1 Earlier work", 11, "hebo"), (prose, 10, "helv")],
              [("2 Methods", 15, "hebo"), (prose, 10, "helv"), ("2.1 Samples", 12.5, "hebo"),
               (prose, 10, "helv"), ("2.1.1 Storage", 11, "hebo"), (prose, 10, "helv")]]
    for blocks in layout:
        page = doc.new_page()
        y = 72
        for text, size, font in blocks:
            rect = pymupdf.Rect(72, y, 523, y + 400)
            page.insert_textbox(rect, text, fontsize=size, fontname=font)
            lines = max(1, int(pymupdf.get_text_length(text, font, size) / 440) + 1)
            y += lines * size * 1.4 + 14
    doc.save(tmp_path / "levels.pdf")
    engine.convert(str(tmp_path / "levels.pdf"), ConvertOptions(output_dir=str(tmp_path)))
    markdown = (tmp_path / "levels.md").read_text()
    assert [line for line in markdown.splitlines() if line.startswith("# ")] == [
        "# A Study of Levels"]  # the title is level 1 once, the second page's sections below it
    for heading in ("# A Study of Levels", "## 1 Introduction", "### 1.1 Background",
                    "#### 1.1.1 Earlier work", "## 2 Methods", "### 2.1 Samples",
                    "#### 2.1.1 Storage"):
        assert f"\n{heading}\n" in f"\n{markdown}", markdown


def test_a_heading_rules_variant_reaches_the_document_levels():
    """`HeadingRules` (engine/structure/heading_rules.py) is used by headings.py alone: a
    numbered line in body weight 1.2 times the body is a heading, not once a heading must be
    1.3 times the body."""
    from dataclasses import replace

    from engine.structure.heading_rules import HEADINGS

    body = "Body text of the section, long enough to be a paragraph of its own."
    pages = [_page(1, _block(BlockKind.TEXT, "1 Introduction", 12, False),
                   *(_block(BlockKind.TEXT, body, 10, False, y=20 * k) for k in (1, 2, 3)))]
    assert document_headings(pages)[0].blocks[0].kind is BlockKind.SECTION_HEADER
    larger = replace(HEADINGS, larger=1.3)
    assert document_headings(pages, larger)[0].blocks[0].kind is BlockKind.TEXT
