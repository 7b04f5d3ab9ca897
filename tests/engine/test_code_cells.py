"""Code rows laid on the ink of their character cells (engine/structure/code_cells.py)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from engine.options import ConvertOptions
from engine.structure.code_cells import (CELL_RULES, DASH, EMPTY, FOOT, INKED, align_row,
                                        cell_kinds)
from tools.uishots.draw import draw_code


def _kinds(shown: str) -> list[int]:
    """The cells of a row as shown: ink along the foot for '_', none for a space, a glyph for
    anything else."""
    return [FOOT if ch == "_" else EMPTY if ch == " " else INKED for ch in shown]


def test_a_space_on_an_underscore_cell_is_an_underscore():
    assert align_row("-DCMAKE BUILD TYPE=Release",
                     _kinds("-DCMAKE_BUILD_TYPE=Release")) == "-DCMAKE_BUILD_TYPE=Release"


def test_dropped_underscores_and_space_come_back_where_the_cells_hold_them():
    assert align_row("def_init__(self):", _kinds("def __init__(self):")) == "def __init__(self):"


def test_an_empty_cell_inside_the_ink_is_a_space_and_a_space_on_ink_goes():
    assert align_row("},{});", _kinds("}, {});")) == "}, {});"
    assert align_row("}) ;", _kinds("});")) == "});"


def test_a_row_that_matches_its_cells_and_a_ligature_stay_as_read():
    assert align_row("x = f(a, b)", _kinds("x = f(a, b)")) == "x = f(a, b)"
    assert align_row("2 files changed", _kinds("2 fles changed")) == "2 files changed"


def test_letters_are_never_invented_for_unread_ink():
    assert align_row("   The C compiler", _kinds("-- The C compiler")) == "   The C compiler"


def test_cell_kinds_tells_a_glyph_from_an_underscore():
    ink = np.zeros((10, 30), dtype=bool)
    ink[1:8, 3:7] = True          # a glyph in the first cell
    ink[8:10, 10:20] = True       # an underscore along the second cell's foot
    assert cell_kinds(ink, [0.0, 10.0, 20.0], 10.0) == [INKED, FOOT, EMPTY]


LISTING = '''class Build:
    def __init__(self, path):
        self.flags = {"CMAKE_BUILD_TYPE": "Release"}
        self._seen = {}, {}'''


@pytest.mark.model
@pytest.mark.parametrize("scale", [1, 2])
def test_underscores_and_spaces_of_a_code_screenshot_are_kept(engine, tmp_path: Path,
                                                               scale: int):
    image = tmp_path / f"code@{scale}x.png"
    draw_code(LISTING, scale=scale, dark=scale == 2).save(image)
    markdown = engine.convert(image, ConvertOptions()).markdown
    assert f"```python\n{LISTING}\n```" in markdown, markdown


def _listing(rows: list[str], pitch: float = 10.0, height: float = 20.0):
    from engine.types import Block, BlockKind, Box, Line, Word

    lines = []
    for n, row in enumerate(rows):
        indent = len(row) - len(row.lstrip())
        words, column = [], indent
        for text in row.split():
            column = row.index(text, column)
            x0 = 5 + column * pitch + 1
            words.append(Word(text, Box(x0, n * 30, x0 + len(text) * pitch - 2, n * 30 + height)))
            column += len(text)
        lines.append(Line(row.strip(), Box(words[0].box.x0, n * 30, words[-1].box.x1,
                                           n * 30 + height), 0.9, words=tuple(words)))
    return Block(BlockKind.CODE, Box(0, 0, 400, 30 * len(rows)), tuple(lines), "\n".join(rows))


def test_a_short_row_read_again_is_kept_only_as_brackets_of_its_width():
    from engine.structure.code_cells import read_listing_cells

    rows = ["int f(void) {", "    return 0;", "1", "x = 3"]
    block = _listing(rows)
    image = np.full((200, 400, 3), 255, dtype=np.uint8)
    seen = []

    def recognize(crops):
        seen.append(len(crops))
        return [type("R", (), {"text": "}"})()] * len(crops)

    fixed = read_listing_cells(block, image, recognize)
    # Only the lone "1" is read again (the blank image leaves every row as placed).
    assert seen == [1]
    assert fixed.text.split("\n")[2] == "}"
    assert fixed.text.split("\n")[3] == "x = 3"


@pytest.mark.parametrize("scale", [1, 2])
def test_a_bracket_row_read_with_a_letter_ends_in_a_semicolon_only_where_the_ink_is_one(
        scale: int):
    from engine.structure.code_reread import read_semicolon

    pitch = 14 * scale * 0.6
    semicolon = np.array(draw_code("};", scale=scale))
    assert read_semicolon("}i", semicolon, pitch, CELL_RULES) == "};"
    assert read_semicolon("}j", semicolon, pitch, CELL_RULES) == "};"
    for shown in ("}i", "}j", "}:"):
        assert read_semicolon("}i", np.array(draw_code(shown, scale=scale)), pitch,
                              CELL_RULES) == "}i"


def test_the_case_of_an_identifiers_first_letter_follows_its_inks_height():
    from engine.structure.code_reread import letter_case

    texts = ["console.log(object.keys(Sums));", "var s = WIDTH + 42;"]
    small, cap = 7, 10

    def heights(text: str, shown: str) -> list[int]:
        return [0 if ch == " " else cap if ch.isupper() or ch.isdigit() or ch in "bdhklt()"
                else small if ch.isalpha() else 3 for ch in shown]

    shown = ["console.log(Object.keys(sums));", "var S = WIDTH + 42;"]
    fixed = letter_case(texts, [heights(t, s) for t, s in zip(texts, shown)], CELL_RULES)
    # "object", "Sums" and "s" start with letters told by height alone, and take the case
    # their ink's height says; "console" and "var" are as tall as read and stay.
    assert fixed == shown
    assert letter_case(texts, [None, None], CELL_RULES) == texts


def test_a_dash_cell_gives_back_the_hyphens_the_recogniser_dropped():
    ink = np.zeros((20, 40), dtype=bool)
    ink[10, 2:8] = True           # a hyphen across the first cell
    ink[10, 12:18] = True         # and the second
    ink[3:16, 32:38] = True       # a letter in the fourth
    kinds = cell_kinds(ink, [0.0, 10.0, 20.0, 30.0], 10.0)
    assert kinds == [DASH, DASH, EMPTY, INKED]
    assert align_row("   T", kinds) == "-- T"
    assert align_row("-- T", kinds) == "-- T"


def test_a_row_the_detector_missed_is_read_from_the_ink_between_rows():
    from engine.structure.code_cells import read_listing_cells

    rows = ["int f(void) {", "    if (x) {", "    }", "    return 0;", "}"]
    kept = [0, 1, 3]              # the detector found these rows only
    block = _listing(rows)
    block = type(block)(block.kind, block.box, tuple(block.lines[i] for i in kept),
                        "\n".join(rows[i] for i in kept))
    image = np.full((200, 400, 3), 255, dtype=np.uint8)
    for row, column in ((2, 4), (4, 0)):   # the ink of the two closing brackets
        x0 = 5 + column * 10 + 2
        image[row * 30 + 3:row * 30 + 17, x0:x0 + 6] = 0
    seen = []

    def recognize(crops):
        seen.append(len(crops))
        return [type("R", (), {"text": ")"})()] * len(crops)

    fixed = read_listing_cells(block, image, recognize)
    # Both read as ")"; no "(" is open above either, a "{" is: each closes it.
    assert fixed.text.split("\n") == ["int f(void) {", "    if (x) {", "    }", "    return 0;",
                                      "}"], fixed.text
    assert len(fixed.lines) == 5
