"""engine.input.text_layer.extract_lines: a PDF's lines with their direction."""

from __future__ import annotations

import pymupdf

from engine.input.text_layer import extract_lines


def test_slanted_lines_are_told_from_straight_and_vertical_ones(tmp_path):
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 100), "A straight line of body text.", fontsize=11)
    page.insert_text((40, 700), "A margin note", fontsize=9, rotate=90)
    corner = pymupdf.Point(150, 650)
    page.insert_text(corner, "Unpublished working draft.", fontsize=40,
                     morph=(corner, pymupdf.Matrix(45)), color=(0.8, 0.8, 0.8))
    lines = {ln.text: ln for ln in extract_lines(page, 2.0)}
    assert not lines["A straight line of body text."].slanted
    assert lines["A margin note"].vertical and not lines["A margin note"].slanted
    assert lines["Unpublished working draft."].slanted


def test_a_line_of_zero_width_characters_is_no_line(eval_dev_dir):
    # A web page printed to PDF (the dev set's equations page) leaves zero-width spaces
    # between its blocks; they were paragraphs of nothing in the Markdown.
    page = pymupdf.open(eval_dev_dir / "items" / "olmocr-mathfuncs" / "input.pdf")[0]
    raw = [span["text"] for block in page.get_text("dict")["blocks"]
           for line in block.get("lines", []) for span in line["spans"]]
    assert "\u200b" in "".join(raw)
    lines = extract_lines(page, 1.0)
    assert lines and all(line.text.strip("\u200b\u200c\u200d\u2060\ufeff ") for line in lines)


def test_symbol_font_bullets_become_bullets():
    # LibreOffice's PDF of a Word list draws its bullets in OpenSymbol, extracted as U+F0B7.
    from engine.input.text_layer import symbol_bullets
    from engine.structure.paragraphs import BULLET_RE

    span = {"font": "OpenSymbol", "text": "\uf0b7"}
    assert symbol_bullets(span)["text"] == "\u2022"
    wingdings = {"font": "ABCDEF+Wingdings-Regular", "text": "\uf0a7"}
    assert symbol_bullets(wingdings)["text"] == "\u25aa"
    # The same code in another font is that font's own business.
    assert symbol_bullets({"font": "Calibri", "text": "\uf0b7"})["text"] == "\uf0b7"
    assert BULLET_RE.match(symbol_bullets(span)["text"] + " Disassembler of byte code")
