"""engine.structure.furniture: running headers and page numbers across pages are set aside."""

from __future__ import annotations

from dataclasses import replace

from engine.structure.assembly import display_header
from engine.structure.furniture import mark_furniture
from engine.structure.furniture_rules import FURNITURE
from engine.types import Block, BlockKind, Box, Line, PageResult, Region, TextSource


def page(number: int, *blocks: Block) -> PageResult:
    return PageResult(page_number=number, width=800, height=1000, dpi=96,
                      text_source=TextSource.TEXT_LAYER, text_source_reason="test", blocks=blocks)


def text(value: str, y0: float, y1: float) -> Block:
    return Block(BlockKind.TEXT, Box(50, y0, 750, y1), text=value)


def three_pages() -> list[PageResult]:
    return [page(n,
                 text(f"Annual Report 2024 — page {n}", 20, 40),
                 text(f"Chapter {('One', 'Two', 'Three')[n - 1]}", 60, 90),
                 text("The same body sentence on every page.", 400, 420),
                 text(str(n + 10), 960, 980))
            for n in (1, 2, 3)]


def test_repeated_header_and_page_numbers_are_marked():
    for result in mark_furniture(three_pages()):
        kinds = [b.kind for b in result.blocks]
        assert kinds == [BlockKind.HEADER, BlockKind.TEXT, BlockKind.TEXT, BlockKind.FOOTER]


def test_block_text_and_boxes_are_kept():
    before = three_pages()
    after = mark_furniture(before)
    for old, new in zip(before, after):
        assert [b.text for b in old.blocks] == [b.text for b in new.blocks]
        assert [b.box for b in old.blocks] == [b.box for b in new.blocks]
        assert new.page_number == old.page_number


def test_a_single_page_keeps_its_top_line():
    (result,) = mark_furniture([page(1, text("Annual Report 2024", 20, 40))])
    assert result.blocks[0].kind is BlockKind.TEXT


def test_a_lone_page_number_is_a_footer_even_on_one_page():
    (result,) = mark_furniture([page(1, text("- 7 -", 960, 980))])
    assert result.blocks[0].kind is BlockKind.FOOTER


def test_the_top_lines_of_a_column_with_its_paragraph_going_on_under_them_are_body_text():
    from engine.types import Line

    def block(value, x0, y0, x1, y1, rows):
        height = (y1 - y0) / rows
        lines = tuple(Line(f"{value} {k}", Box(x0, y0 + k * height, x1, y0 + (k + 1) * height))
                      for k in range(rows))
        return Block(BlockKind.TEXT, Box(x0, y0, x1, y1), lines, text=value)

    # The layout split the right column's first paragraph after two lines; the rest starts a
    # pixel into their box. Under the rest, a gap, then a heading: the two lines are not a
    # running head cut off from the body.
    top = block("a comma by putting", 420, 45, 750, 77, 2)
    blocks = (block("Left column", 50, 70, 380, 900, 50), top,
              block("the rest of the paragraph", 420, 76, 750, 108, 2),
              block("9. Conclusion", 420, 150, 750, 166, 1),
              block("Body", 420, 170, 750, 900, 45))
    (result,) = mark_furniture([page(1, *blocks)])
    assert result.blocks[1].kind is BlockKind.TEXT
    # Cut off from everything below by a gap (the left column starting lower), the same two
    # lines are a running head.
    alone = (replace_box(blocks[0], 200), top, blocks[3], blocks[4])
    (result,) = mark_furniture([page(1, *alone)])
    assert result.blocks[1].kind is BlockKind.HEADER


def replace_box(block: Block, y0: float) -> Block:
    from dataclasses import replace

    return replace(block, box=Box(block.box.x0, y0, block.box.x1, block.box.y1))


def test_the_last_lines_of_a_column_reaching_under_its_paragraph_are_body_text():
    # The layout split a column's last paragraph; its last two lines sit in the bottom margin
    # band with the paragraph above reaching a pixel into their box: body, not a footer.
    from engine.types import Line

    lines = tuple(Line(f"end {k}", Box(420, 940 + 15 * k, 750, 954 + 15 * k)) for k in range(2))
    last = Block(BlockKind.TEXT, Box(420, 940, 750, 970), lines, text="end of the column")
    above = Block(BlockKind.TEXT, Box(420, 300, 750, 941), text="the paragraph above")
    (result,) = mark_furniture([page(1, above, last)])
    assert result.blocks[1].kind is BlockKind.TEXT
    apart = Block(BlockKind.TEXT, Box(420, 300, 750, 800), text="the paragraph above")
    (result,) = mark_furniture([page(1, apart, last)])
    assert result.blocks[1].kind is BlockKind.FOOTER


def test_a_tables_caption_at_the_top_of_a_page_is_not_a_running_head():
    """Two lines above the table's rules, a caption stands where a lowered running head would."""
    words = "Table 2: Some Typical Commands"
    caption = Block(BlockKind.CAPTION, Box(200, 100, 600, 115),
                    (Line(words, Box(200, 100, 600, 115)),), words)
    table = Block(BlockKind.TABLE, Box(200, 150, 600, 250),
                  (Line("Command Number", Box(200, 150, 600, 165)),), "Command Number")
    body = Block(BlockKind.TEXT, Box(50, 300, 750, 315),
                 (Line("A paragraph under the table.", Box(50, 300, 750, 315)),),
                 "A paragraph under the table.")
    (result,) = mark_furniture([page(1, caption, table, body)])
    assert [b.kind for b in result.blocks] == [BlockKind.CAPTION, BlockKind.TABLE, BlockKind.TEXT]
    # The same block as text is taken for a running head: the rule the caption is spared.
    (plain,) = mark_furniture([page(1, replace(caption, kind=BlockKind.TEXT), table, body)])
    assert plain.blocks[0].kind is BlockKind.HEADER


def lined_block(kind: BlockKind, value: str, x0: float, y0: float, x1: float, line_px: float,
                lines: int = 1) -> Block:
    rows = tuple(Line(value, Box(x0, y0 + i * line_px * 1.2, x1, y0 + i * line_px * 1.2 + line_px))
                 for i in range(lines))
    return Block(kind, Box(x0, y0, x1, rows[-1].box.y1), rows, value)


def test_a_headline_atop_a_tall_page_is_not_a_running_head():
    # A full-size newspaper page rendered 4000 px high: the top article's headline, its first
    # paragraph still inside the top band, the rest of the column below it (body lines 25 px).
    blocks = (lined_block(BlockKind.SECTION_HEADER, "Yields for all modules", 75, 78, 377, 40),
              lined_block(BlockKind.TEXT, "first paragraph", 72, 182, 392, 25, lines=4),
              lined_block(BlockKind.TEXT, "next paragraph", 72, 329, 392, 25, lines=40))
    tall = PageResult(page_number=1, width=2500, height=4000, dpi=150,
                      text_source=TextSource.TEXT_LAYER, text_source_reason="test", blocks=blocks)
    (result,) = mark_furniture([tall])
    assert result.blocks[0].kind is BlockKind.SECTION_HEADER
    # The same spot in body type is a running head.
    small = replace(tall, blocks=(lined_block(BlockKind.TEXT, "Journal of Tests 12", 75, 78,
                                              377, 25),) + blocks[1:])
    (result,) = mark_furniture([small])
    assert result.blocks[0].kind is BlockKind.HEADER


def test_a_page_header_region_in_display_type_is_a_section_header():
    body = 25.0
    masthead = Region(BlockKind.HEADER, Box(0, 0, 800, 80), 0.9,
                      lines=(Line("The County Observer",
                                  Box(100, 10, 700, 10 + FURNITURE.display_type * body)),))
    assert display_header(masthead, body).kind is BlockKind.SECTION_HEADER
    running = replace(masthead, lines=(Line("Proc. of a Conference", Box(100, 10, 700, 10 + body)),))
    assert display_header(running, body).kind is BlockKind.HEADER
    assert display_header(masthead, 0.0).kind is BlockKind.HEADER  # no body to compare with


def tall_page(*blocks: Block) -> PageResult:
    return PageResult(page_number=1, width=2200, height=4000, dpi=150,
                      text_source=TextSource.TEXT_LAYER, text_source_reason="test", blocks=blocks)


def test_a_headline_over_a_picture_in_the_top_band_is_not_a_running_head():
    # A full-size sheet: a headline a little larger than the body (30 px lines, body 25), the
    # picture under it still inside the top tenth, the story's paragraphs below that.
    headline = lined_block(BlockKind.SECTION_HEADER, "Log a message on the root logger", 73,
                           185, 654, 30)
    picture = Block(BlockKind.FIGURE, Box(69, 223, 1230, 396))
    story = lined_block(BlockKind.TEXT, "A shelf is a persistent object", 72, 414, 1218, 25, 40)
    (result,) = mark_furniture([tall_page(headline, picture, story)])
    assert result.blocks[0].kind is BlockKind.SECTION_HEADER
    # Without the picture the same line is cut off from the body: a running head.
    (alone,) = mark_furniture([tall_page(headline, story)])
    assert alone.blocks[0].kind is BlockKind.HEADER


def test_a_columns_last_short_paragraph_under_a_paragraph_in_the_bottom_band_is_body():
    # The paragraph above the column's last one starts inside the bottom tenth too; measured
    # against the text further up, the last one had a gap and was taken for a footer.
    high = lined_block(BlockKind.TEXT, "If encoding is not None", 371, 3471, 636, 25, 5)
    above = lined_block(BlockKind.TEXT, "The file is readable and writable", 371, 3633, 636,
                        25, 7)
    last = lined_block(BlockKind.TEXT, "Transforms a function into a generic one", 371,
                       above.box.y1 + 10, 636, 25, 2)
    (result,) = mark_furniture([tall_page(high, above, last)])
    assert result.blocks[2].kind is BlockKind.TEXT
    (alone,) = mark_furniture([tall_page(high, last)])
    assert alone.blocks[1].kind is BlockKind.FOOTER


def test_a_heading_at_a_columns_foot_beside_columns_running_lower_is_not_a_running_foot():
    # The heading and first line of a story at the foot of one column, in the bottom margin,
    # while the next column's paragraph runs on below them: not a running foot.
    high = lined_block(BlockKind.TEXT, "Create a Marshaller instance", 667, 3300, 2067, 25, 8)
    heading = lined_block(BlockKind.SECTION_HEADER, "Gamma function at x", 667, 3709, 879, 29)
    beside = lined_block(BlockKind.TEXT, "On POSIX, temporary files", 1261, 3709, 1535, 25, 6)
    (result,) = mark_furniture([tall_page(high, heading, beside)])
    assert result.blocks[1].kind is BlockKind.SECTION_HEADER
    (alone,) = mark_furniture([tall_page(high, heading)])
    assert alone.blocks[1].kind is BlockKind.FOOTER
