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


def test_join_lines_keeps_a_suspended_hyphen():
    assert join_lines(["generic, low-", "and high-level interfaces"]) == (
        "generic, low- and high-level interfaces")
    assert join_lines(["a brig-", "and its crew"]) == "a brigand its crew"


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


def test_the_first_row_of_two_columns_under_a_lead_across_both_is_not_one_line():
    # A lead paragraph in slightly larger type runs across both columns (gutter 12 px, one line
    # height) just above their first rows; below, the columns' justified lines end and start
    # flush at the gutter. The lead running through the gap above does not make the first
    # rows one line.
    height = BODY_PX * 1.2
    lines = [line("A lead paragraph set across the two columns of the story", 70, x0=50,
                  width=390, size=BODY_PX * 1.15)]
    for k in range(4):
        y = 100 + k * height
        lines.append(line(f"left column line {k}", y, x0=50, width=185))
        lines.append(line(f"right column line {k}", y, x0=247, width=185))
    texts = [b.text for b in build_blocks(lines)]
    assert not any("left" in t and "right" in t for t in texts), texts


def test_a_row_over_a_short_last_line_and_the_next_column_stays_one_line():
    # A paragraph's row of words set apart by a font change, over its short last line; the next
    # column starts right of the paragraph further on: the gap below is not a gutter.
    lines = [line("collections of failures and errors that occurred across the", 100, width=400),
             line("test runs, where exceptioninfo is", 112, width=250),
             line("the formatted trace", 112, x0=310, width=140),
             line("traceback of the error.", 124, width=150),
             line("Another column starts here", 124, x0=480, width=200)]
    texts = [b.text for b in build_blocks(lines)]
    assert any("exceptioninfo is the formatted trace" in t for t in texts), texts


def test_the_spread_last_row_of_a_column_at_the_foot_of_the_page_is_one_line():
    # Nothing under the column's last row, its words far apart; the rows above cover the gaps.
    lines = justified_column([("instance and then", None), ("encoded and returned", None),
                              ("implements specialized", None), ("This", "module")])
    (block,) = build_blocks(lines)
    assert block.text.endswith("This module")


def test_a_spread_row_with_a_full_line_of_its_column_close_by_is_one_line():
    # A narrow justified column of one or two words a row: the rows above happen to leave a
    # blank in the same place as the gap, but a line of the column two rows down runs across
    # the whole gap, as no gutter allows.
    lines = justified_column([("datatype", "providing"), ("special", "container"),
                              ("Python's", "general"), ("purpose", "built-in"),
                              ("containers, dict, list", None)], width=110.0)
    texts = [b.text for b in build_blocks(lines)]
    assert any("Python's general purpose" in t for t in texts), texts


def test_three_words_spread_past_the_justified_gap_are_one_line_under_a_full_row():
    # "function      returns      a": a narrow justified column's row of three words, each gap
    # 4.5 line heights; the row above runs from the first word's start to the last word's end.
    height = BODY_PX * 1.2
    lines = [line("explicitly handled by legacy URLopener", 100, width=200),
             line("function", 100 + height, width=40),
             line("returns", 100 + height, x0=144, width=40),
             line("a", 100 + height, x0=238, width=12),
             line("urllib.response.addinfourl object.", 100 + 2 * height, width=130)]
    (block,) = build_blocks(lines)
    assert "URLopener function returns a urllib" in block.text


def test_a_justified_row_whose_next_row_ends_and_starts_level_with_it_is_one_line():
    # A narrow column's row of words 8 px apart; a line of the column above runs through every
    # gap, and in the row below one piece ends where "for" ends and the next starts where
    # "all" starts, by chance. One row flush with a gap is no gutter's edge.
    height = BODY_PX * 1.2
    lines = [line("default values are kept in a table of", 100, width=200)]
    for text, x0, x1 in (("encodings", 50, 110), ("for", 118, 136), ("all", 144, 160),
                         ("supported", 168, 224), ("locale", 232, 250)):
        lines.append(line(text, 100 + height, x0=x0, width=x1 - x0))
    for text, x0, x1 in (("Only string", 50, 135), ("literals", 145, 190),
                         ("and other", 198, 250)):
        lines.append(line(text, 100 + 2 * height, x0=x0, width=x1 - x0))
    texts = [b.text for b in build_blocks(lines)]
    assert any("encodings for all supported locale" in t for t in texts), texts


def test_a_running_head_and_its_page_number_over_the_text_column_stay_apart():
    # The head begins far inside the column below it and the page number stands at the
    # column's edge, 2.5 line heights on; nothing above. The column's full rows below cover
    # the gap, but no row of theirs begins where the head does: two pieces, not one line.
    height = BODY_PX * 1.2
    head = line("Optimized Table Tokenization for Table Structure Recognition", 40, x0=150,
                width=200)
    number = line("9", 40, x0=380, width=4)
    body = [line(f"body text row {k} of the page's one column", 40 + (2 + k) * height, x0=100,
                 width=284) for k in range(3)]
    lines = [ln.text for b in build_blocks([head, number], [head, number, *body])
             for ln in b.lines]
    assert "9" in lines, lines


def _words_line(text: str, row: int, x0: float, char: float = 7.0) -> Line:
    """An OCR line with word boxes, `char` pixels a character, rows 20 px apart."""
    from engine.types import Word

    words, x = [], x0
    for word in text.split(" "):
        words.append(Word(word, Box(x, row * 20, x + char * len(word), row * 20 + 14)))
        x += char * (len(word) + 1)
    return Line(text, Box(x0, row * 20, x - char, row * 20 + 14), words=tuple(words))


EXERCISES = (["4. Find the derivative of f(x) = x^8 - 7x +", "8.",
              "5. Evaluate the integral of 5x from 2 to 9.",
              "6. Explain why a list of 6 items has 15", "pairs.",
              "7. Solve 4x + 6 = 8 for x."],
             ["9. Find the derivative of f(x) = x^7 - 2x +", "7.",
              "10. Explain why a list of 5 items has 10", "pairs.",
              "11. Show that the sum of the first 50 odd", "numbers is a square."])


def test_a_ragged_columns_short_word_wrapped_at_its_measure_stays_with_its_item():
    """Two columns of exercises, ragged right, a gutter of a few characters: "pairs." would
    have fit in the room up to the next column's text, or to the page's far edge beyond the
    last column, but not before the column's measure (where its longest lines end), so it
    wrapped there and stays with its item (a scanned textbook had each such line apart)."""
    left = [_words_line(t, n, x0=20) for n, t in enumerate(EXERCISES[0])]
    right = [_words_line(t, n, x0=340) for n, t in enumerate(EXERCISES[1])]
    far = _words_line("A note boxed at the page's right edge", 0, x0=700)
    page = left + right + [far]
    assert [b.text for b in build_blocks(left, page)] == [
        "4. Find the derivative of f(x) = x^8 - 7x + 8.",
        "5. Evaluate the integral of 5x from 2 to 9.",
        "6. Explain why a list of 6 items has 15 pairs.", "7. Solve 4x + 6 = 8 for x."]
    assert [b.text for b in build_blocks(right, page)] == [
        "9. Find the derivative of f(x) = x^7 - 2x + 7.",
        "10. Explain why a list of 5 items has 10 pairs.",
        "11. Show that the sum of the first 50 odd numbers is a square."]


def test_short_lines_of_like_length_have_no_measure_and_stay_apart():
    """A chat's "Alice", "Hi there", "Bob" end near each other, but none wrapped: a column's
    measure needs lines ending within a small share of its width of the furthest."""
    chat = [_words_line(t, n, x0=20) for n, t in enumerate(["Alice", "Hi there", "Bob"])]
    page = chat + [_words_line("a long line of text much further down the page", 20, x0=20)]
    assert [b.text for b in build_blocks(chat, page)] == ["Alice", "Hi there", "Bob"]


def test_an_ocr_line_boxed_a_fifth_lower_stays_in_its_paragraph_and_a_heading_apart():
    """The detector boxed a degraded Korean page's last line 39-40 px high under lines boxed 48:
    one type size all the same. A heading a third larger stays a block of its own."""
    def boxed(text: str, y0: float, height: float, width: float = 900.0) -> Line:
        return Line(text, Box(100, y0, 100 + width, y0 + height), score=0.9)

    body = [boxed("서울은 대한민국의 수도이자 가장 큰 도시입니다", 130, 48),
            boxed("천만 명 가까운 사람들이 살고 있습니다 매년 많은", 174, 48),
            boxed("러 찾아옵니다.", 217, 39, width=180)]
    assert len(build_blocks(body)) == 1
    heading = boxed("서울", 60, 64, width=150)
    blocks = build_blocks([heading, *body])
    assert [len(b.lines) for b in blocks] == [1, 3]


def test_a_line_over_a_body_boxed_a_fifth_apart_does_not_open_its_paragraph():
    """A handwritten letter's date, "1864", boxed lower than the body's first line under it:
    no block has set a size yet, so the strict test keeps them apart."""
    date = Line("1864", Box(700, 100, 800, 139), score=0.9)
    body = [Line("Major General Hitchcock, Commissioner of Exchanges,", Box(100, 150, 900, 198),
                 score=0.9),
            Line("is authorized and directed to offer Brigadier General", Box(100, 200, 900, 248),
                 score=0.9)]
    blocks = build_blocks([date, *body])
    assert [len(b.lines) for b in blocks] == [1, 2]
