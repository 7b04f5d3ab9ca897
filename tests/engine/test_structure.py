"""Page structure: lines assigned to regions, captions beside their objects, footnotes last."""

from engine.content.crops import Crop
from engine.structure.assembly import assign_lines, heading_level, place_captions
from engine.structure.page_blocks import assemble_page
from engine.types import Block, BlockKind, Box, Line, Region
from table_samples import table_of


def line(text, x0, y0, x1, y1, size=10.0):
    return Line(text=text, box=Box(x0, y0, x1, y1), font_size=size)


def test_lines_go_to_the_region_holding_most_of_them_and_the_rest_are_kept():
    regions = [Region(BlockKind.TEXT, Box(0, 0, 100, 50)), Region(BlockKind.TABLE, Box(0, 60, 100, 120))]
    inside_text = line("alpha", 5, 5, 90, 15)
    inside_table = line("beta", 5, 70, 50, 80)
    straddling = line("gamma", 5, 45, 90, 65)  # half in each: below the share needed
    outside = line("delta", 200, 200, 260, 210)
    held, leftover = assign_lines([inside_text, inside_table, straddling, outside], regions)
    assert [r.lines for r in held] == [(inside_text,), (inside_table,)]
    assert [(r.kind, r.box) for r in held] == [(r.kind, r.box) for r in regions]
    assert leftover == [straddling, outside]


def test_nested_regions_give_the_line_to_the_smaller_one():
    regions = [Region(BlockKind.TEXT, Box(0, 0, 500, 500)), Region(BlockKind.CAPTION, Box(0, 0, 120, 30))]
    caption_line = line("Figure 1. A cat.", 2, 2, 110, 20)
    held, _ = assign_lines([caption_line], regions)
    assert [r.lines for r in held] == [(), (caption_line,)]


def test_text_outside_every_region_is_never_dropped():
    regions = [Region(BlockKind.TEXT, Box(0, 0, 100, 30))]
    blocks = assemble_page([line("kept in region", 2, 2, 90, 12), line("stray words", 0, 300, 80, 312)],
                           regions)
    assert [b.text for b in blocks] == ["kept in region", "stray words"]


def test_two_columns_with_a_spanning_title_read_column_by_column():
    regions = [
        Region(BlockKind.TITLE, Box(0, 0, 400, 30)),
        Region(BlockKind.TEXT, Box(0, 50, 190, 200)),
        Region(BlockKind.TEXT, Box(210, 50, 400, 200)),
    ]
    lines = [line("A Title", 10, 5, 300, 25, size=20), line("left one", 5, 55, 180, 65),
             line("left two", 5, 70, 180, 80), line("right one", 215, 55, 390, 65)]
    blocks = assemble_page(lines, regions)
    assert [b.kind for b in blocks] == [BlockKind.TITLE, BlockKind.TEXT, BlockKind.TEXT]
    assert [b.text for b in blocks] == ["A Title", "left one left two", "right one"]
    assert blocks[0].level == 1


def test_table_caption_above_stays_above_and_figure_caption_goes_below():
    table = Block(BlockKind.TABLE, Box(0, 100, 300, 200), table=table_of("<table></table>"))
    table_caption = Block(BlockKind.CAPTION, Box(0, 80, 300, 95), text="Table 1. Yields.")
    figure = Block(BlockKind.FIGURE, Box(0, 300, 300, 400))
    figure_caption = Block(BlockKind.CAPTION, Box(0, 405, 300, 420), text="Figure 1. Fields.")
    ordered = place_captions([figure_caption, table, figure, table_caption])
    assert ordered == [table_caption, table, figure, figure_caption]


def test_footnotes_go_to_the_end_of_the_page():
    regions = [Region(BlockKind.FOOTNOTE, Box(0, 0, 300, 20)), Region(BlockKind.TEXT, Box(0, 40, 300, 60))]
    blocks = assemble_page([line("1 A note.", 0, 2, 200, 12), line("Body text.", 0, 42, 200, 52)],
                           regions)
    assert [b.kind for b in blocks] == [BlockKind.TEXT, BlockKind.FOOTNOTE]


def test_model_results_land_on_their_blocks():
    regions = [Region(BlockKind.TABLE, Box(0, 0, 100, 100),
                      table=table_of("<table><tr><td>1</td></tr></table>")),
               Region(BlockKind.FORMULA, Box(0, 120, 100, 150), crop=Crop("images/p1-formula2.png")),
               Region(BlockKind.FIGURE, Box(0, 200, 100, 300), crop=Crop("images/p1-figure3.png"))]
    blocks = assemble_page([line("x = 1", 5, 125, 60, 140), line("label", 10, 210, 40, 220)],
                           regions, page_area=1000 * 1000)
    by_kind = {b.kind: b for b in blocks}
    assert by_kind[BlockKind.TABLE].html.startswith("<table>")
    assert by_kind[BlockKind.FORMULA].crop == Crop("images/p1-formula2.png")
    assert by_kind[BlockKind.FORMULA].text == "x = 1"
    assert by_kind[BlockKind.FIGURE].text == "" and by_kind[BlockKind.FIGURE].lines[0].text == "label"


def test_a_page_sized_figure_keeps_its_text_as_text():
    regions = [Region(BlockKind.FIGURE, Box(0, 0, 100, 100))]
    blocks = assemble_page([line("THE VISION", 10, 10, 90, 20)], regions, page_area=100 * 110)
    assert [(b.kind, b.text) for b in blocks if b.text] == [(BlockKind.TEXT, "THE VISION")]


def test_heading_levels_follow_section_numbers():
    assert heading_level(BlockKind.TITLE, "Anything") == 1
    assert heading_level(BlockKind.SECTION_HEADER, "Results") == 2
    assert heading_level(BlockKind.SECTION_HEADER, "5 Results") == 2
    assert heading_level(BlockKind.SECTION_HEADER, "5.1 Hyper Parameter Optimization") == 3
    assert heading_level(BlockKind.SECTION_HEADER, "5.1.2 Details") == 4


def test_text_that_starts_like_a_caption_next_to_a_table_is_its_caption():
    regions = [Region(BlockKind.TEXT, Box(0, 0, 190, 200)), Region(BlockKind.TEXT, Box(210, 0, 400, 200)),
               Region(BlockKind.TEXT, Box(0, 220, 150, 232)),
               Region(BlockKind.TABLE, Box(0, 236, 400, 300), table=table_of("<table></table>"))]
    lines = [line("left column", 5, 5, 180, 15), line("right column", 215, 5, 390, 15),
             line("Table 1. Yields per field.", 2, 221, 140, 231)]
    blocks = assemble_page(lines, regions)
    assert [(b.kind, b.text) for b in blocks] == [
        (BlockKind.TEXT, "left column"), (BlockKind.TEXT, "right column"),
        (BlockKind.CAPTION, "Table 1. Yields per field."), (BlockKind.TABLE, "")]


def test_word_sized_text_regions_inside_a_paragraph_region_do_not_split_it():
    regions = [Region(BlockKind.TEXT, Box(0, 0, 400, 60)), Region(BlockKind.TEXT, Box(150, 20, 230, 42)),
               Region(BlockKind.TEXT, Box(215, 20, 335, 42))]
    # A justified line that the text layer split into words with wide gaps.
    words = [line("judged", 0, 22, 100, 40), line("simply", 125, 22, 200, 40),
             line("as", 220, 22, 242, 40), line("entity", 265, 22, 330, 40)]
    blocks = assemble_page([line("The paper asks whether a firm should be", 0, 2, 400, 20)] + words,
                           regions)
    assert [b.text for b in blocks] == ["The paper asks whether a firm should be judged simply as entity"]


def test_a_paragraph_that_starts_like_a_caption_far_from_a_table_is_not_moved_to_it():
    # Twelve lines of body text beginning "Table 1 is ..." 400 px below a table: its reach is
    # four of its lines, not four of its heights.
    table = Block(BlockKind.TABLE, Box(0, 100, 300, 200), table=table_of("<table></table>"))
    heading = Block(BlockKind.SECTION_HEADER, Box(0, 560, 300, 575), text="4. Tables")
    lines = tuple(Line(f"line {k}", Box(0, 600 + 15 * k, 300, 612 + 15 * k)) for k in range(12))
    body = Block(BlockKind.CAPTION, Box(0, 600, 300, 777), lines, text="Table 1 is an example")
    assert place_captions([table, heading, body]) == [table, heading, body]
    near = Block(BlockKind.CAPTION, Box(0, 215, 300, 272), lines[:4], text="Table 1. Yields.")
    assert place_captions([near, heading, table]) == [heading, table, near]


def test_a_watermark_across_two_columns_is_furniture_and_the_columns_read_in_order():
    """A draft's slanted "Unpublished working draft" over both columns: taken into the reading
    order it would lie between the columns' upper and lower halves like a spanning headline
    (left top, right top, watermark, left bottom, right bottom)."""
    lines = [line(f"{side} {k}", x, 12 * k, x + 180, 12 * k + 10)
             for side, x in (("left", 0), ("right", 210)) for k in range(8)]
    stamp = Line("Unpublished working draft.", Box(60, 20, 340, 80), font_size=30, slanted=True)
    blocks = assemble_page(lines + [stamp], None)
    assert blocks[0].kind is BlockKind.HEADER and blocks[0].text == stamp.text
    assert [b.text for b in blocks[1:]] == [
        " ".join(f"{side} {k}" for k in range(8)) for side in ("left", "right")]


def test_slanted_column_heads_over_no_other_text_stay_text():
    heads = [Line(name, Box(20 + 30 * i, 0, 45 + 30 * i, 25), slanted=True)
             for i, name in enumerate(("Procedure", "Completion", "Knowledge"))]
    blocks = assemble_page(heads + [line("1 2 3", 20, 40, 110, 50)], None)
    assert BlockKind.HEADER not in {b.kind for b in blocks}
    assert " ".join(h.text for h in heads) in " ".join(b.text for b in blocks)


def test_a_word_sticking_out_of_its_region_stays_on_its_row():
    # A justified column's row whose last word ends past the region's box (less than half of it
    # inside): it stays with its row, not a paragraph of its own.
    region = Region(BlockKind.TEXT, Box(371, 630, 634, 760))
    words = [line(w, x0, 639, x1, 667) for w, x0, x1 in (
        ("Returns", 371, 436), ("an", 457, 477), ("object", 499, 550), ("with", 572, 609),
        ("a", 630, 640))]
    rest = [line("file-like interface; the name of", 371, 667, 634, 695),
            line("the file is accessible as its", 371, 695, 634, 723)]
    held, leftover = assign_lines(words + rest, [region])
    assert leftover == []
    blocks = assemble_page(words + rest, [region])
    assert [b.text for b in blocks] == ["Returns an object with a file-like interface; the name "
                                        "of the file is accessible as its"]
    # A line beside the region across a gutter (more than the row's reach), not reaching into
    # it, stays apart, and the word sticking out still joins its row.
    apart = line("Another column", 690, 639, 900, 667)
    _, leftover = assign_lines(words + [apart], [region])
    assert leftover == [apart]


def test_the_next_columns_first_word_reaching_into_a_region_stays_with_its_own_row():
    # The layout model found the left column's paragraph but missed the right one's; the right
    # column's first word starts three pixels inside the left region, and its row goes on
    # beyond it: it belongs to that row, not to the left column.
    region = Region(BlockKind.TEXT, Box(100, 630, 400, 700))
    left = [line(w, x0, 639, x1, 667) for w, x0, x1 in (
        ("the", 100, 140), ("kernel", 160, 230), ("offers", 330, 390))]
    first = line("operating", 397, 639, 470, 667)
    rest = line("system calls", 485, 639, 600, 667)
    held, leftover = assign_lines(left + [first, rest], [region])
    assert first in leftover and rest in leftover
    assert first not in held[0].lines
    # Without the rest of its row beside it, the same word joins the region's row.
    held, leftover = assign_lines(left + [first], [region])
    assert leftover == []


def test_a_line_held_almost_as_much_by_a_nested_region_goes_to_it():
    # A column's paragraph region nested in a box over two columns; the column's first word
    # starts a pixel left of both, three pixels left of the nested one.
    outer = Region(BlockKind.TEXT, Box(100, 160, 700, 240))
    nested = Region(BlockKind.TEXT, Box(102, 160, 380, 300))
    first = line("Returns", 99, 157, 165, 185)
    rest = line("the sequence of", 190, 157, 380, 185)
    held, leftover = assign_lines([first, rest], [outer, nested])
    assert leftover == []
    assert held[1].lines == (first, rest)


def test_a_word_outside_every_region_at_its_columns_edge_joins_its_row():
    # A region over two columns starts right of the left column's edge; the left column's row
    # "requests  explicitly  handled  by" has its first word outside it, and the full row above
    # starts flush with that word.
    region = Region(BlockKind.TEXT, Box(185, 3398, 646, 3517))
    above = line("For FTP, file, and data URLs and", 72, 3443, 346, 3468)
    stray = line("requests", 72, 3468, 133, 3493)
    row = [line(w, x0, 3468, x1, 3493) for w, x0, x1 in (
        ("explicitly", 155, 225), ("handled", 246, 305), ("by", 327, 345))]
    right = [line("A dictionary containing name/value", 369, 3443, 643, 3468),
             line("pairs is returned. If an optional", 369, 3468, 643, 3493)]
    _, leftover = assign_lines([above, stray, *row, *right], [region])
    assert leftover == []
    text = " ".join(b.text for b in assemble_page([above, stray, *row, *right], [region]))
    assert "data URLs and requests explicitly handled by" in text
