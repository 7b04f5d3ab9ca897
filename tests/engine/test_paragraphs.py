"""engine.structure.paragraphs: lines grouped into paragraphs, list items and headings by geometry."""

from __future__ import annotations

from engine.structure.paragraphs import build_blocks, join_lines
from engine.types import BlockKind, Box, Line

BODY_PX = 10.0


def line(text: str, y0: float, x0: float = 50.0, width: float = 400.0,
         size: float = BODY_PX) -> Line:
    return Line(text=text, box=Box(x0, y0, x0 + width, y0 + size * 1.2), font_size=size)


def test_join_lines_mends_hyphenated_words():
    assert join_lines(["the inter-", "national trade"]) == "the international trade"


def test_join_lines_keeps_spaces_between_latin_lines_and_skips_blank_ones():
    assert join_lines(["Hello", "  ", " world "]) == "Hello world"


def test_join_lines_joins_cjk_without_space():
    assert join_lines(["中文文本", "继续下一行"]) == "中文文本继续下一行"


def test_join_lines_keeps_a_dash_before_a_capital():
    assert join_lines(["Paris -", "Berlin"]) == "Paris - Berlin"


def test_two_paragraphs_separated_by_a_gap():
    lines = [
        line("The first paragraph opens here and", 100),
        line("continues on a second line that", 114),
        line("ends on the third.", 128),
        # A gap of three line heights: a new paragraph.
        line("The second paragraph follows the", 170),
        line("gap and has two lines.", 184),
    ]
    blocks = build_blocks(lines)
    assert [b.kind for b in blocks] == [BlockKind.TEXT, BlockKind.TEXT]
    assert blocks[0].text == ("The first paragraph opens here and continues on a second line "
                              "that ends on the third.")
    assert blocks[1].text == "The second paragraph follows the gap and has two lines."
    assert blocks[0].box == Box(50, 100, 450, 140)
    assert [len(b.lines) for b in blocks] == [3, 2]


def test_bullet_list_splits_into_items():
    lines = [
        line("• Apples from the northern orchard", 100),
        line("picked in October", 114, x0=62),
        line("• Pears", 128),
        line("• Plums and damsons", 142),
    ]
    blocks = build_blocks(lines)
    assert [b.kind for b in blocks] == [BlockKind.LIST_ITEM] * 3
    assert [b.text for b in blocks] == ["• Apples from the northern orchard picked in October",
                                        "• Pears", "• Plums and damsons"]


def test_larger_font_line_becomes_section_header():
    lines = [
        line("Introduction", 60, size=18),
        line("Body text of the section runs across several lines of", 100),
        line("ordinary size, which sets the body font size for the", 114),
        line("page and makes the first line stand out.", 128),
    ]
    blocks = build_blocks(lines)
    assert [b.kind for b in blocks] == [BlockKind.SECTION_HEADER, BlockKind.TEXT]
    assert blocks[0].text == "Introduction"
    assert blocks[0].level == 2  # 1.8 times the body size


def test_slightly_larger_line_is_a_lower_level_header():
    lines = [line("Methods", 60, size=12.5)] + [
        line("Body text that is long enough to be the body size", 100 + 14 * i) for i in range(3)]
    header = build_blocks(lines)[0]
    assert (header.kind, header.level) == (BlockKind.SECTION_HEADER, 3)


def test_block_score_is_the_weakest_line():
    lines = [Line("sure line of text", Box(0, 0, 200, 12), score=0.99),
             Line("unsure line of text", Box(0, 14, 200, 26), score=0.61)]
    (block,) = build_blocks(lines)
    assert block.score == 0.61


def test_no_lines_no_blocks():
    assert build_blocks([]) == []


def test_two_columns_of_short_items_across_a_narrow_gutter_are_not_one_line():
    # Exercises in two columns; the gutter (15 px) is narrower than a stretched word gap allows.
    height = BODY_PX * 1.2
    rows = [("19. Solve 6x + 2 = 12 for x.", "22. Evaluate the integral of 6x."),
            ("20. Solve 2x + 3 = 10 for x.", "23. Solve 8x + 3 = 56 for x."),
            ("21. Evaluate the integral of 9x.", "24. Show that the sum is a square.")]
    lines = []
    for k, (left, right) in enumerate(rows):
        y = 100 + k * 2 * height
        lines.append(line(left, y, x0=50, width=185))
        lines.append(line(right, y, x0=250, width=185 if k < 2 else 120))
    texts = sorted(b.text for b in build_blocks(lines))
    assert texts == sorted(t for row in rows for t in row)


def test_pieces_of_a_paragraph_line_across_a_font_change_are_one_line():
    # The same gap inside a paragraph: the lines around it run through it.
    lines = [line("The first line of a paragraph runs all the way across", 100, width=400),
             line("and then a word in", 112, width=180), line("italics follows it", 112, x0=245,
                                                                 width=205),
             line("and the paragraph goes on across the whole column.", 124, width=400)]
    (block,) = build_blocks(lines)
    assert "word in italics follows" in block.text


def test_pieces_of_a_row_are_joined_however_many_lines_start_between_them():
    # An index column: 60 entries start at x=50; the page numbers of the first entry start
    # further right, after all of them in left-to-right order.
    height = BODY_PX * 1.2
    lines = [line(f"\\entry{k} . . . .", 100 + k * height, x0=50, width=80) for k in range(60)]
    lines.append(line("144, 147", 100, x0=140, width=40))
    blocks = build_blocks(lines)
    assert any("\\entry0 . . . . 144, 147" in b.text for b in blocks)


def test_justified_lines_that_end_at_a_narrow_gutter_do_not_bridge_it():
    # Three columns of an index, justified: the lines of a column end exactly where the gutter
    # starts (x=235 here), which is not running across it.
    height = BODY_PX * 1.2
    lines = []
    for k in range(6):
        y = 100 + k * height
        entry = 100 + 15 * (k % 3)  # entries of several lengths; numbers flush right
        lines.append(line(f"\\left{k} . . .", y, x0=50, width=entry))
        lines.append(line(f"{k}1, {k}2", y, x0=60 + entry, width=(175 if k % 2 else 174.999) - entry))
        lines.append(line(f"\\right{k} . . . 9", y, x0=245, width=185))
    texts = [b.text for b in build_blocks(lines)]
    assert any("\\left0 . . . 01, 02 \\left1" in t for t in texts), texts
    assert not any("\\right" in t and ("," in t or "\\left" in t) for t in texts), texts


def justified_column(gap_words: list[tuple[str, str | None]], x0: float = 50.0,
                     width: float = 90.0) -> list[Line]:
    """A narrow justified column, one row per entry: a row of two words set flush left and
    right as two pieces (the detector finds each word alone), or of one piece across."""
    height = BODY_PX * 1.2
    lines = []
    for k, (first, second) in enumerate(gap_words):
        y = 100 + k * height
        if second is None:
            lines.append(line(first, y, x0=x0, width=width))
            continue
        left = 6.0 * len(first)
        right = 6.0 * len(second)
        lines.append(line(first, y, x0=x0, width=left))
        lines.append(line(second, y, x0=x0 + width - right, width=right))
    return lines


def test_the_far_apart_words_of_a_justified_narrow_column_are_one_line():
    # "This      module": 30 px apart, 2.5 line heights of 12 px, past a stretched word space;
    # the rows around cover the gap between them with their words.
    lines = justified_column([("instance and then", None), ("encoded and returned", None),
                              ("This", "module"), ("implements specialized", None),
                              ("container datatypes", None), ("providing alternatives", None)])
    (block,) = build_blocks(lines)
    assert "This module implements" in block.text


def test_two_columns_a_wide_gutter_apart_are_not_joined_by_the_justified_rule():
    # Rows of two columns 30 px (2.5 line heights) apart: every row is blank in the gutter.
    height = BODY_PX * 1.2
    lines = []
    for k in range(6):
        y = 100 + k * height
        lines.append(line(f"left column line {k}", y, x0=50, width=150))
        lines.append(line(f"right column line {k}", y, x0=230, width=150))
    texts = [b.text for b in build_blocks(lines)]
    assert not any("left" in t and "right" in t for t in texts), texts
