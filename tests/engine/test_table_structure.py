"""engine.tables.structure, cells and recognizer: decoding, cell filling, the recogniser
(no ONNX)."""

from __future__ import annotations

import numpy as np
import pytest

from engine.errors import ModelUnavailable
from engine.tables.recognizer import CANVAS_PX, TableRecognizer, prepare_input
from engine.tables.cells import fill_cells, split_line
from engine.tables.structure import (TableParseError, TableVocabulary, decode_tokens,
                                    parse_skeleton, quads_to_boxes)
from engine.types import Box, Line

# The token list as the model's `character` metadata holds it: one per line.
CHARACTER = "\n".join(
    ["<thead>", "</thead>", "<tbody>", "</tbody>", "<tr>", "</tr>", "<td", ">", "</td>"]
    + [f' colspan="{n}"' for n in range(2, 21)]
    + [f' rowspan="{n}"' for n in range(2, 21)]
    + ["<td></td>"])
VOCAB = TableVocabulary.from_metadata(CHARACTER)


def model_outputs(tokens: list[str], quads: dict[int, list[float]] | None = None,
                  pad_steps: int = 3) -> tuple[np.ndarray, np.ndarray]:
    """One-hot probabilities (T, n) for `tokens` (names from VOCAB) and quads (T, 8)."""
    probs = np.zeros((len(tokens) + pad_steps, len(VOCAB.tokens)), dtype=np.float32)
    for step, token in enumerate(tokens):
        probs[step, VOCAB.tokens.index(token)] = 0.9
        probs[step, 0 if VOCAB.tokens.index(token) else 1] = 0.1
    probs[len(tokens):, VOCAB.end] = 1.0
    boxes = np.zeros((len(probs), 8), dtype=np.float32)
    for step, quad in (quads or {}).items():
        boxes[step] = quad
    return probs, boxes


def quad(x0: float, y0: float, x1: float, y1: float) -> list[float]:
    return [x0, y0, x1, y0, x1, y1, x0, y1]


TWO_BY_TWO = ["<tbody>", "<tr>", "<td></td>", "<td></td>", "</tr>",
              "<tr>", "<td></td>", "<td></td>", "</tr>", "</tbody>"]


def test_vocabulary_wraps_the_listed_tokens_with_start_and_end():
    assert len(VOCAB.tokens) == 50
    assert VOCAB.tokens[VOCAB.start] == "sos" and VOCAB.tokens[VOCAB.end] == "eos"
    assert VOCAB.tokens[1] == "<thead>" and VOCAB.tokens[-2] == "<td></td>"
    with pytest.raises(ValueError):
        TableVocabulary.from_metadata("<tr>\n</tr>")


def test_decode_simple_two_by_two_table():
    first_row = {3: quad(0, 0, .5, .5), 4: quad(.5, 0, 1, .5)}  # steps shifted by "sos"
    probs, quads = model_outputs(["sos"] + TWO_BY_TWO, first_row)
    decoded = decode_tokens(probs, quads, VOCAB)
    assert decoded.tokens == tuple(TWO_BY_TWO)
    assert decoded.ended
    assert decoded.cell_quads.shape == (4, 8)
    np.testing.assert_allclose(decoded.cell_quads[1], quad(.5, 0, 1, .5))
    assert decoded.score == pytest.approx(0.9)
    skeleton = parse_skeleton(decoded.tokens)
    assert (skeleton.n_rows, skeleton.n_cols, skeleton.header_rows) == (2, 2, 0)
    assert [(c.row, c.col, c.rowspan, c.colspan) for c in skeleton.cells] == [
        (0, 0, 1, 1), (0, 1, 1, 1), (1, 0, 1, 1), (1, 1, 1, 1)]


def test_colspan_and_rowspan_place_cells_on_the_grid():
    tokens = ["<thead>", "<tr>", "<td", ' colspan="2"', ">", "</td>", "<td>", "</td>", "</tr>",
              "</thead>", "<tbody>",
              "<tr>", "<td", ' rowspan="2"', ">", "</td>", "<td></td>", "<td></td>", "</tr>",
              "<tr>", "<td></td>", "<td></td>", "</tr>", "</tbody>"]
    skeleton = parse_skeleton(tuple(tokens))
    assert (skeleton.n_rows, skeleton.n_cols, skeleton.header_rows) == (3, 3, 1)
    assert [(c.row, c.col, c.rowspan, c.colspan, c.header) for c in skeleton.cells] == [
        (0, 0, 1, 2, True), (0, 2, 1, 1, True),
        (1, 0, 2, 1, False), (1, 1, 1, 1, False), (1, 2, 1, 1, False),
        (2, 1, 1, 1, False), (2, 2, 1, 1, False)]  # column 0 of row 2 is under the rowspan


def test_rowspan_past_the_last_row_is_cut():
    tokens = ("<tr>", "<td", ' rowspan="5"', ">", "</td>", "<td></td>", "</tr>",
              "<tr>", "<td></td>", "</tr>")
    skeleton = parse_skeleton(tokens)
    assert skeleton.cells[0].rowspan == 2 and skeleton.n_rows == 2


def test_end_token_stops_decoding_and_start_token_is_skipped():
    probs, quads = model_outputs(["sos", "<tr>", "<td></td>", "</tr>", "eos", "<tr>", "<td></td>"])
    decoded = decode_tokens(probs, quads, VOCAB)
    assert decoded.tokens == ("<tr>", "<td></td>", "</tr>")
    assert decoded.ended and len(decoded.cell_quads) == 1


def test_sequence_without_end_token_is_reported():
    probs, quads = model_outputs(["<tr>", "<td></td>", "</tr>"], pad_steps=0)
    decoded = decode_tokens(probs, quads, VOCAB)
    assert not decoded.ended and decoded.tokens == ("<tr>", "<td></td>", "</tr>")


def test_decode_rejects_probabilities_of_another_vocabulary():
    with pytest.raises(ValueError):
        decode_tokens(np.zeros((4, 7), dtype=np.float32), np.zeros((4, 8)), VOCAB)


@pytest.mark.parametrize("tokens", [
    (),
    ("<tbody>", "</tbody>"),
    ("<td></td>",),  # a cell outside a row
    ("<tr>", "<td></td>"),  # a row never closed
    ("</tr>",),
    ("<tr>", "<td", "</td>", "</tr>"),  # attributes never closed by ">"
    ("<tr>", "<td>", "<tr>", "</td>", "</tr>"),
    ("<tr>", "<tr>", "</tr>", "</tr>"),
    ("<thead>", "<tr>", "<td></td>", "</tr>", "</tbody>"),
    ("<tr>", "<td", ">", "</tr>"),  # cell content never closed
])
def test_malformed_structures_raise(tokens):
    with pytest.raises(TableParseError):
        parse_skeleton(tokens)


def test_quads_map_back_through_the_resize_and_are_clipped():
    # A 100x200 (h x w) crop was resized by 2.44 to 244x488 and padded to 488x488.
    quads = np.array([quad(0.25, 0.1, 0.5, 0.4), quad(0.9, 0.4, 1.2, 0.6)], dtype=np.float32)
    first, second = quads_to_boxes(quads, 488, 2.44, 2.44, width=200, height=100)
    assert first.as_list() == pytest.approx([50.0, 20.0, 100.0, 80.0], abs=0.01)
    assert (second.x1, second.y1) == (200.0, 100.0)


def test_prepare_input_pads_top_left_with_the_mean():
    crop = np.full((50, 100, 3), 255, dtype=np.uint8)
    tensor, scale_x, scale_y = prepare_input(crop)
    assert tensor.shape == (1, 3, CANVAS_PX, CANVAS_PX) and tensor.dtype == np.float32
    assert scale_x == pytest.approx(4.88) and scale_y == pytest.approx(4.88)
    assert tensor[0, 0, 0, 0] == pytest.approx((1 - 0.485) / 0.229)  # BGR plane 0 = blue
    assert tensor[0, :, 244:, :].max() == 0 and tensor[0, :, :, 488:].size == 0


# --- cell filling -------------------------------------------------------------------------

CELLS = [Box(0, 0, 50, 10), Box(60, 0, 100, 10), Box(0, 20, 50, 40), Box(60, 20, 100, 40)]


def line(text: str, x0: float, y0: float, x1: float, y1: float) -> Line:
    return Line(text, Box(x0, y0, x1, y1))


def test_lines_go_to_the_cell_holding_them_and_join_in_reading_order():
    lines = [line("second", 0, 31, 40, 39), line("b", 62, 1, 90, 9), line("first", 0, 21, 40, 29),
             line("a", 2, 1, 40, 9), line("right", 25, 21, 48, 29)]
    assert fill_cells(CELLS, lines) == ["a", "b", "first right second", ""]


def test_line_outside_every_cell_goes_to_the_nearest():
    assert fill_cells(CELLS, [line("note", 101, 45, 120, 55)]) == ["", "", "", "note"]
    assert fill_cells(CELLS, []) == ["", "", "", ""]
    assert fill_cells([], [line("x", 0, 0, 1, 1)]) == []


def test_line_across_two_cells_is_cut_at_a_word_boundary():
    # "12.5" and "7.25" were read as one line from x=5 to x=95; the gap between the cells falls
    # between the words.
    lines = [line("12.5 7.25", 5, 1, 95, 9), line("total", 2, 22, 45, 38)]
    assert fill_cells(CELLS, lines) == ["12.5", "7.25", "total", ""]
    pieces = split_line(lines[0], np.array([[c.x0, c.y0, c.x1, c.y1] for c in CELLS]), home=0)
    assert [(p.text, target) for p, target in pieces] == [("12.5", 0), ("7.25", 1)]
    assert pieces[0][0].box.x1 <= pieces[1][0].box.x0


def test_line_slightly_past_its_cell_stays_whole():
    lines = [line("long text here", 0, 1, 62, 9)]
    assert fill_cells(CELLS, lines) == ["long text here", "", "", ""]


def test_single_word_line_is_never_cut():
    # Straddles the gap (20 px in the left cell, 15 px in the right): no word boundary to cut.
    assert fill_cells(CELLS, [line("1234567", 30, 1, 75, 9)]) == ["1234567", "", "", ""]


# --- the recogniser with a fake session ---------------------------------------------------

class FakeSession:
    """Stands in for a ModelSession: fixed outputs, the real vocabulary metadata."""

    def __init__(self, outputs: list[np.ndarray]) -> None:
        self.outputs = outputs
        self.metadata = {"character": CHARACTER}
        self.calls = 0

    def run(self, *inputs: np.ndarray) -> list[np.ndarray]:
        self.calls += 1
        assert inputs[0].shape == (1, 3, CANVAS_PX, CANVAS_PX)
        return self.outputs


def test_recognizer_builds_a_filled_table_in_crop_pixels():
    # Crop 100x200: canvas scale 2.44, so the crop fills the canvas's top half (y < 0.5).
    cells = {2: quad(0.02, 0.02, 0.2, 0.1), 3: quad(0.3, 0.02, 0.5, 0.1),
             6: quad(0.02, 0.3, 0.2, 0.4), 7: quad(0.3, 0.3, 0.5, 0.4)}
    probs, quads = model_outputs(TWO_BY_TWO, cells)
    session = FakeSession([quads[None], probs[None]])  # boxes first: order must not matter
    crop = np.full((100, 200, 3), 255, dtype=np.uint8)
    lines = [line("Name", 5, 3, 35, 15), line("Value", 62, 3, 95, 15),
             line("a&b", 5, 62, 35, 75), line("1.5", 62, 62, 95, 75)]
    table = TableRecognizer(session).recognize(crop, lines)
    assert table.ok and table.reason == ""
    assert (table.n_rows, table.n_cols) == (2, 2)
    assert [c.text for c in table.cells] == ["Name", "Value", "a&b", "1.5"]
    assert table.cells[1].box.as_list() == pytest.approx([60.0, 4.0, 100.0, 20.0], abs=0.01)
    assert table.html == ("<table><tbody><tr><td>Name</td><td>Value</td></tr>"
                          "<tr><td>a&amp;b</td><td>1.5</td></tr></tbody></table>")
    assert table.score == pytest.approx(0.9)


def test_recognizer_reports_unparsable_structure():
    probs, quads = model_outputs(["<tr>", "<td></td>", "<td></td>"])
    table = TableRecognizer(FakeSession([probs[None], quads[None]])).recognize(
        np.zeros((40, 40, 3), dtype=np.uint8), [])
    assert not table.ok and "row" in table.reason and table.html == "" and table.cells == ()


def test_recognizer_reports_a_table_without_cells():
    probs, quads = model_outputs([])
    table = TableRecognizer(FakeSession([probs[None], quads[None]])).recognize(
        np.zeros((40, 40, 3), dtype=np.uint8), [])
    assert not table.ok and "no cells" in table.reason


def test_recognizer_refuses_a_table_cut_off_by_the_step_limit():
    # Balanced so far, but without the end token the rows below would be silently lost.
    probs, quads = model_outputs(TWO_BY_TWO, pad_steps=0)
    table = TableRecognizer(FakeSession([probs[None], quads[None]])).recognize(
        np.zeros((40, 40, 3), dtype=np.uint8), [])
    assert not table.ok and "too large" in table.reason


def test_recognizer_refuses_a_zero_size_crop_without_running_the_model():
    session = FakeSession([])
    table = TableRecognizer(session).recognize(np.zeros((0, 30, 3), dtype=np.uint8), [])
    assert not table.ok and "too small" in table.reason and session.calls == 0


def test_recognizer_rejects_outputs_that_do_not_match_the_vocabulary():
    session = FakeSession([np.zeros((1, 5, 8), np.float32), np.zeros((1, 5, 12), np.float32)])
    with pytest.raises(ModelUnavailable):
        TableRecognizer(session).recognize(np.zeros((40, 40, 3), dtype=np.uint8), [])


def test_what_shares_a_row_reaches_the_cells_the_recognizer_and_the_evidence():
    """`TableCellRules.same_row_overlap` is used by engine/tables/cells.py (a line cut between
    the cells of its row), the recogniser (recognizer.py, filling its grid) and the evidence
    (evidence.py: a grid cutting through its lines): once no cell can share a line's row (more
    than its whole height), a line across two cells stays whole in each of them."""
    from dataclasses import replace

    from engine.tables.cell_rules import TABLE_CELLS
    from engine.tables.evidence import cuts_through_lines
    from engine.tables.evidence_rules import TABLE_EVIDENCE
    from engine.tables.recognizer import ReadCell, TableResult

    rowless = replace(TABLE_CELLS, same_row_overlap=1.01)
    across = [line("12.5 7.25", 5, 1, 95, 9), line("total", 2, 22, 45, 38)]
    assert fill_cells(CELLS, across) == ["12.5", "7.25", "total", ""]
    assert fill_cells(CELLS, across, rowless) == ["12.5 7.25", "", "total", ""]
    cells = {2: quad(0.02, 0.02, 0.2, 0.1), 3: quad(0.3, 0.02, 0.5, 0.1),
             6: quad(0.02, 0.3, 0.2, 0.4), 7: quad(0.3, 0.3, 0.5, 0.4)}
    probs, quads = model_outputs(TWO_BY_TWO, cells)
    crop = np.full((100, 200, 3), 255, dtype=np.uint8)
    lines = [line("12.5 7.25", 5, 5, 95, 15), line("a", 5, 62, 35, 75)]
    recognizer = TableRecognizer(FakeSession([probs[None], quads[None]]))
    assert [c.text for c in recognizer.recognize(crop, lines).cells] == ["12.5", "7.25", "a", ""]
    assert [c.text for c in recognizer.recognize(crop, lines, rowless).cells] == [
        "12.5 7.25", "", "a", ""]
    # Newspaper columns 200 px wide, each split by the grid into two cells of 100 px.
    grid = TableResult(table=None, cells=tuple(
        ReadCell(r, c, 1, 1, Box(100 * c, 12 * r, 100 * (c + 1), 12 * (r + 1)), "w")
        for r in range(12) for c in range(4)), n_rows=12, n_cols=4, score=0.9, ok=True)
    columns = [Line("word " * 6, Box(x0, 12 * r + 1, x0 + 190, 12 * r + 11))
               for r in range(12) for x0 in (0, 205)]
    assert cuts_through_lines(grid, columns)
    assert not cuts_through_lines(grid, columns, TABLE_EVIDENCE, rowless)
