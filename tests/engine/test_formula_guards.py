"""Decoding that cannot run away: the stop rules of engine/formulas/guards.py, alone and inside
the greedy decoder of FormulaRecognizerModel (fake encoder and decoder sessions)."""

from __future__ import annotations

import numpy as np

from engine.formulas.guards import (GUARD_LENGTH, GUARD_REPETITION, MAX_REPEATS, MAX_SPACING_RUN,
                                    length_cap, runaway_tail, trim_spacing)
from engine.formulas.model import FormulaRecognizerModel, prepare
from engine.formulas.reading import FormulaReading

VOCAB = ["<pad>", "<bos>", "<eos>", "x", "=", "1", "\\qquad", "a", "b", "c", "d", "e", "\\\\"]
QQUAD = VOCAB.index("\\qquad")
ROW_BREAK = VOCAB.index("\\\\")


def test_a_run_of_spacing_longer_than_the_corpus_holds_is_a_runaway():
    formula = [3, 4, 5]
    assert runaway_tail(formula + [QQUAD] * MAX_SPACING_RUN, {QQUAD}) == 0
    assert runaway_tail(formula + [QQUAD] * (MAX_SPACING_RUN + 1), {QQUAD}) == MAX_SPACING_RUN + 1


def test_an_ngram_repeated_beyond_the_corpus_keeps_one_copy():
    assert runaway_tail([9] + [3] * MAX_REPEATS[1], set()) == 0
    assert runaway_tail([9] + [3] * (MAX_REPEATS[1] + 1), set()) == MAX_REPEATS[1]
    pair = [3, 4] * (MAX_REPEATS[2] + 1)
    assert runaway_tail([9] + pair, set()) == len(pair) - 2
    assert runaway_tail([9] + [3, 4] * MAX_REPEATS[2], set()) == 0


def test_trailing_spacing_is_trimmed_and_the_cap_grows_with_width():
    assert trim_spacing(["x", "\\quad", "y", "\\qquad", "\\,"]) == ["x", "\\quad", "y"]
    assert length_cap(64, 200) < length_cap(640, 200) <= 200
    assert length_cap(4000, 200) == 200


class FakeEncoder:
    input_names = ["image"]

    def run(self, batch):
        n = batch.shape[0]  # a key laid out [batch, heads, head_dim, cells], a value not
        return [np.zeros((n, 2, 4, 3), np.float32), np.zeros((n, 2, 3, 4), np.float32)]


class ScriptedDecoder:
    """Answers step k with token script(k) for every row, very confidently."""

    input_names = ["token", "step", "past_k0", "cross_k0", "cross_v0"]

    def __init__(self, script) -> None:
        self.script = script
        self.steps = 0

    def run(self, token, step, past, cross_key, cross_value):
        self.steps += 1
        logits = np.zeros((token.shape[0], len(VOCAB)), np.float32)
        logits[:, self.script(int(step[0]))] = 20.0
        grown = np.zeros((past.shape[0], past.shape[1], past.shape[2] + 1, past.shape[3]),
                         np.float32)
        return [logits, grown]


def formula_crop() -> np.ndarray:
    crop = np.full((40, 120, 3), 255, np.uint8)
    crop[10:30, 10:110] = 0
    return crop


def test_a_formula_followed_by_endless_qquad_ends_doubtful_without_them():
    decoder = ScriptedDecoder(lambda k: [3, 4, 5][k] if k < 3 else QQUAD)
    model = FormulaRecognizerModel(FakeEncoder(), decoder, VOCAB)
    [reading] = model.read([formula_crop()])
    assert reading.latex == "x = 1" and reading.guard == GUARD_REPETITION
    assert reading.confidence > 0.99 and reading.low_confidence
    assert decoder.steps == 3 + MAX_SPACING_RUN + 1


def test_a_reading_stops_at_the_length_cap_of_its_width():
    decoder = ScriptedDecoder(lambda k: 7 + k % 5)  # a b c d e a b ...: no short repeat
    model = FormulaRecognizerModel(FakeEncoder(), decoder, VOCAB)
    [reading] = model.read([formula_crop()])
    cap = length_cap(prepare(formula_crop()).shape[1], 200)
    assert cap < 200
    assert reading.tokens == cap and reading.guard == GUARD_LENGTH and reading.truncated
    assert reading.low_confidence


def test_a_reading_that_ends_itself_names_no_guard():
    decoder = ScriptedDecoder(lambda k: [3, 4, 5, 2][min(k, 3)])
    model = FormulaRecognizerModel(FakeEncoder(), decoder, VOCAB)
    [reading] = model.read([formula_crop()])
    assert (reading.latex, reading.guard, reading.truncated) == ("x = 1", "", False)
    assert not reading.low_confidence
    assert FormulaReading("x", 0.99, 1, guard=GUARD_REPETITION).low_confidence


def test_a_crop_of_several_ink_bands_gets_a_cap_for_each():
    crop = np.full((100, 60, 3), 255, np.uint8)
    for top in (10, 40, 70):  # three lines of ink squeezed into one 64 px high input
        crop[top:top + 20, 5:55] = 0
    model = FormulaRecognizerModel(FakeEncoder(), ScriptedDecoder(lambda k: 7 + k % 5), VOCAB)
    [whole] = model.read([crop])
    assert whole.tokens == length_cap(prepare(crop).shape[1] * 3, 200) < 200
    assert whole.tokens > length_cap(prepare(crop).shape[1], 200)


def test_a_reading_that_writes_row_breaks_gets_a_cap_for_each_row():
    # Lines of a downsampled array touch: one band of ink, yet the reading writes two rows
    # (im2latex-style renders of two-line arrays were cut at the one-line cap).
    crop = formula_crop()
    width = prepare(crop).shape[1]
    one_line = length_cap(width, 200)
    row = [7, 8, 9, 10, 11] * (one_line * 2 // 15)  # two thirds of the one-line cap each
    script = [*row, ROW_BREAK, *row, 3, 4, 5]

    model = FormulaRecognizerModel(FakeEncoder(), ScriptedDecoder(
        lambda k: script[k] if k < len(script) else 2), VOCAB)
    [reading] = model.read([crop])
    assert reading.tokens == len(script) > one_line
    assert reading.guard == "" and not reading.truncated

    endless = FormulaRecognizerModel(FakeEncoder(), ScriptedDecoder(
        lambda k: script[k] if k < len(script) else 7 + k % 5), VOCAB)
    [capped] = endless.read([crop])
    assert capped.tokens == length_cap(width * 2, 200) and capped.guard == GUARD_LENGTH
