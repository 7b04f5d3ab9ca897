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
