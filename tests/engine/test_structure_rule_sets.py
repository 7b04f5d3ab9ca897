"""Rules as data for the page's blocks and the document's furniture (ADR 0026): a value changed
through a rule set's typed object reaches every module that uses it, with nothing patched."""

from __future__ import annotations

from dataclasses import replace

from engine.types import Block, BlockKind, Box, Line, PageResult, Region, TextSource, Word

CHAR = 7.0


def _line(text: str, x0: float, y0: float, x1: float, y1: float) -> Line:
    return Line(text, Box(x0, y0, x1, y1))


def _ocr_line(text: str, row: int, x0: float | None = None, x1: float | None = None,
              height: float = 14) -> Line:
    """An OCR line with word boxes on row `row` (20 pixels apart), starting at `x0` or ending
    at `x1`."""
    width = CHAR * len(text)
    x0 = x1 - width if x0 is None else x0
    words, x = [], x0
    for word in text.split(" "):
        words.append(Word(word, Box(x, row * 20, x + CHAR * len(word), row * 20 + height)))
        x += CHAR * (len(word) + 1)
    return Line(text, Box(x0, row * 20, x0 + width, row * 20 + height), words=tuple(words))


def test_how_far_apart_a_lines_pieces_may_be_reaches_rows_paragraphs_and_assembly():
    """`RowRules` is used by engine/structure/rows.py (pieces joined), paragraphs.py (through
    merge_fragments), assembly.py (a word beyond a region's box on one of its rows) and the
    page's steps (page_blocks.py): each sees a variant."""
    from engine.structure.assembly import assign_lines
    from engine.structure.page_blocks import assemble_page
    from engine.structure.paragraphs import build_blocks
    from engine.structure.row_rules import ROWS
    from engine.structure.rows import merge_fragments

    # Two pieces of a row two line heights apart, nothing around them: one line once a line's
    # pieces may be 2.5 apart.
    pieces = [_line("left", 0, 0, 100, 10), _line("right", 120, 0, 220, 10)]
    wide = replace(ROWS, max_word_gap=2.5)
    assert len(merge_fragments(pieces)) == 2
    assert [ln.text for ln in merge_fragments(pieces, None, wide)] == ["left right"]
    assert len(build_blocks(pieces)) == 2
    assert [b.text for b in build_blocks(pieces, rows=wide)] == ["left right"]
    assert len(assemble_page(pieces, None)) == 2
    assert len(assemble_page(pieces, None, rows=wide)) == 1
    # A word far right of a region's box, level with its line, a full row of the column
    # below running from the region's line to the word's end: the region's once a justified
    # row's words may be 16 line heights apart.
    held, stray = _line("held", 0, 0, 100, 10), _line("far", 250, 0, 300, 10)
    full = _line("a full row below", 0, 20, 300, 30)
    region = Region(BlockKind.TEXT, Box(0, 0, 110, 40))
    reach = replace(ROWS, justified_gap=16.0)
    (_, leftover) = assign_lines([held, stray, full], [region])
    assert stray in leftover
    ((kept,), leftover) = assign_lines([held, stray, full], [region], reach)
    assert stray in kept.lines and stray not in leftover


def test_when_short_lines_stay_apart_reaches_paragraphs_assembly_and_the_page():
    """`ParagraphRules` is used by engine/structure/paragraphs.py, handed on by assembly.py (a
    region's blocks) and page_blocks.py: a chat's short lines, each followed by a word that
    would have fit, stay apart, and are one paragraph once no word fits with that much to
    spare."""
    from engine.structure.assembly import region_blocks
    from engine.structure.page_blocks import assemble_page
    from engine.structure.paragraph_rules import PARAGRAPHS
    from engine.structure.paragraphs import build_blocks

    chat = [_ocr_line(t, n, x0=20) for n, t in enumerate(["Alice", "Hi there", "Bob"])]
    page = chat + [_ocr_line("a long line of text much further down the page", 10, x0=20)]
    loose = replace(PARAGRAPHS, hard_break_slack=100.0)
    assert [b.text for b in build_blocks(chat, page)] == ["Alice", "Hi there", "Bob"]
    assert [b.text for b in build_blocks(chat, page, rules=loose)] == ["Alice Hi there Bob"]
    region = Region(BlockKind.TEXT, Box(20, 0, 90, 54), lines=tuple(chat))
    assert len(region_blocks(region, page)) == 3
    assert len(region_blocks(region, page, paragraphs=loose)) == 1
    assert len(assemble_page(page, None)) == 4
    assert len(assemble_page(page, None, paragraphs=loose)) == 2
    # A line 1.3 times the body's height is a heading, not once a heading is 1.5 times.
    title = _ocr_line("Results", 0, x0=20, height=18.2)
    body = [_ocr_line("some body text here", n, x0=20) for n in (2, 3, 4)]
    higher = replace(PARAGRAPHS, heading_size_ratio=1.5)
    assert build_blocks([title, *body])[0].kind is BlockKind.SECTION_HEADER
    assert build_blocks([title, *body], rules=higher)[0].kind is BlockKind.TEXT


def test_display_type_reaches_the_running_heads_and_the_page_header_regions():
    """`FurnitureRules.display_type` is used by engine/structure/furniture.py (a headline atop
    a tall page is no running head) and assembly.py through the page's steps (a page-header
    region in display type is a heading): a headline 1.6 times the body is display type of
    neither once display type starts at 1.7."""
    from engine.structure.furniture import mark_furniture
    from engine.structure.furniture_rules import FURNITURE
    from engine.structure.page_blocks import assemble_page

    larger = replace(FURNITURE, display_type=1.7)
    headline = Line("Yields for all modules", Box(75, 78, 377, 118))
    body = tuple(Line(f"body line {k}", Box(72, 182 + 30 * k, 392, 207 + 30 * k))
                 for k in range(40))
    blocks = (Block(BlockKind.SECTION_HEADER, headline.box, (headline,), headline.text),
              Block(BlockKind.TEXT, Box(72, 182, 392, 1377), body, "body"))
    tall = PageResult(page_number=1, width=2500, height=4000, dpi=150,
                      text_source=TextSource.TEXT_LAYER, text_source_reason="test", blocks=blocks)
    assert mark_furniture([tall])[0].blocks[0].kind is BlockKind.SECTION_HEADER
    assert mark_furniture([tall], rules=larger)[0].blocks[0].kind is BlockKind.HEADER
    regions = [Region(BlockKind.HEADER, Box(70, 70, 400, 125)),
               Region(BlockKind.TEXT, Box(70, 180, 400, 1380))]
    kinds = [b.kind for b in assemble_page([headline, *body], regions)]
    assert kinds[0] is BlockKind.SECTION_HEADER
    kinds = [b.kind for b in assemble_page([headline, *body], regions, furniture=larger)]
    assert kinds[0] is BlockKind.HEADER


def test_how_many_rows_make_a_form_reaches_the_forms_and_the_page():
    """`FormRules` is used by engine/structure/forms.py, handed on by the page's steps: three
    rows of a label and a value flush right are read row by row, not once a form needs four."""
    from engine.structure.form_rules import FORMS
    from engine.structure.forms import read_rows_across
    from engine.structure.page_blocks import assemble_page

    rows = [("Theme", "System default"), ("Font size", "Medium"), ("Show line numbers", "On")]
    labels = [_ocr_line(label, n, x0=20) for n, (label, _) in enumerate(rows)]
    values = [_ocr_line(value, n, x1=400) for n, (_, value) in enumerate(rows)]
    across = [text for row in rows for text in row]
    down = [label for label, _ in rows] + [value for _, value in rows]
    four = replace(FORMS, min_form_rows=4)
    blocks = [Block(BlockKind.TEXT, ln.box, (ln,), ln.text) for ln in labels + values]
    assert [b.text for b in read_rows_across(blocks)] == across
    assert [b.text for b in read_rows_across(blocks, four)] == down
    regions = [Region(BlockKind.TEXT, ln.box) for ln in labels + values]
    assert [b.text for b in assemble_page(labels + values, regions)] == across
    assert [b.text for b in assemble_page(labels + values, regions, forms=four)] == down


def test_an_assembly_rules_variant_reaches_the_assembly_and_the_pages_steps():
    """`AssemblyRules` is used by engine/structure/assembly.py (a watermark over the text) and
    the page's steps (page_blocks.py: a page-sized figure's words are its text): a stamp over
    a few lines is no watermark once one must lie over twenty, and a figure over nine tenths
    of the page is a picture once a page-sized one must cover more."""
    from engine.structure.assembly import split_watermarks
    from engine.structure.assembly_rules import ASSEMBLY
    from engine.structure.page_blocks import assemble_page

    lines = [_line(f"{side} {k}", x, 12 * k, x + 180, 12 * k + 10)
             for side, x in (("left", 0), ("right", 210)) for k in range(8)]
    stamp = Line("Unpublished working draft.", Box(60, 20, 340, 80), font_size=30, slanted=True)
    many = replace(ASSEMBLY, watermark_min_lines=20)
    assert split_watermarks(lines + [stamp])[1] == [stamp]
    assert split_watermarks(lines + [stamp], many)[1] == []
    assert assemble_page(lines + [stamp], None)[0].kind is BlockKind.HEADER
    assert BlockKind.HEADER not in {b.kind for b in assemble_page(lines + [stamp], None,
                                                                  assembly=many)}
    figure = [Region(BlockKind.FIGURE, Box(0, 0, 100, 100))]
    words = [_line("THE VISION", 10, 10, 90, 20)]
    larger = replace(ASSEMBLY, page_sized_figure_share=0.95)
    assert {b.kind for b in assemble_page(words, figure, 100 * 110)} == {BlockKind.FIGURE,
                                                                         BlockKind.TEXT}
    assert [b.kind for b in assemble_page(words, figure, 100 * 110, assembly=larger)] == [
        BlockKind.FIGURE]
