"""engine.ocr.recognition: CTC decoding, the dictionary and batch planning (no ONNX Runtime)."""

from __future__ import annotations

import time

import numpy as np
import pytest

from engine.ocr.recognition import (MAX_BATCH, TextRecognizer, ctc_decode, load_dictionary, plan_batches,
                                     rec_input)

DICTIONARY = ["<blank>", "a", "b", "c", " "]


def test_ctc_decode_collapses_repeats_and_drops_blanks():
    ids = np.array([[1, 1, 0, 1, 2, 2, 0, 0, 3]])
    scores = np.array([[0.9, 0.1, 0.5, 0.7, 0.8, 0.2, 0.5, 0.5, 0.6]], dtype=np.float32)
    (result,) = ctc_decode(ids, scores, DICTIONARY)
    assert result.text == "aabc"  # the blank between the two a's keeps both
    # Confidence is the mean over the first step of each kept symbol: 0.9, 0.7, 0.8, 0.6.
    assert result.score == pytest.approx(0.75)


def test_ctc_decode_gives_each_character_its_steps_probability():
    ids = np.array([[1, 1, 0, 1, 2, 2, 0, 0, 3]])
    scores = np.array([[0.9, 0.1, 0.5, 0.7, 0.8, 0.2, 0.5, 0.5, 0.6]], dtype=np.float32)
    (result,) = ctc_decode(ids, scores, DICTIONARY)
    assert result.steps == (0, 3, 4, 8)
    assert result.char_scores == pytest.approx((0.9, 0.7, 0.8, 0.6))


def test_ctc_decode_rows_are_independent():
    ids = np.array([[4, 4, 2, 0], [0, 0, 0, 0]])
    scores = np.full((2, 4), 0.5, dtype=np.float32)
    spaced, empty = ctc_decode(ids, scores, DICTIONARY)
    assert spaced.text == " b"
    assert (empty.text, empty.score) == ("", 0.0)


def test_ctc_decode_ignores_ids_outside_the_dictionary():
    ids = np.array([[1, 9, 2]])
    (result,) = ctc_decode(ids, np.ones((1, 3), dtype=np.float32), DICTIONARY)
    assert result.text == "ab"


def test_load_dictionary_wraps_character_list_with_blank_and_space():
    assert load_dictionary({"character": "a\nb\nc"}) == DICTIONARY


def test_load_dictionary_without_character_metadata():
    with pytest.raises(ValueError, match="character"):
        load_dictionary({"other": "x"})


def test_plan_batches_narrow_crops_together_and_splits_off_a_wide_one():
    widths = [100, 120, 300, 2000, 150]
    assert plan_batches(widths) == [[0, 1, 4, 2], [3]]


def test_plan_covers_every_crop_once_and_respects_max_batch():
    widths = [200] * (MAX_BATCH + 8)
    batches = plan_batches(widths)
    assert [len(b) for b in batches] == [MAX_BATCH, 8]
    assert sorted(i for b in batches for i in b) == list(range(len(widths)))


def test_plan_cuts_when_padding_costs_more_than_a_run():
    # When a run costs as much as a lot of padding, even a large width step stays in one batch.
    cheap_runs = plan_batches([320, 400, 2000])
    costly_runs = plan_batches([320, 400, 2000], run_cost_px=10_000_000)
    assert len(cheap_runs) > len(costly_runs) == 1


def test_plan_of_nothing():
    assert plan_batches([]) == []


class _TimedSession:
    """A recognition session that records the batch shapes it is given and takes a time the
    test chooses: what the recogniser reads must not depend on how long its runs took."""

    metadata = {"character": "a\nb"}

    def __init__(self, clock: list[float]) -> None:
        self.clock = clock
        self.shapes: list[tuple[int, ...]] = []
        self.run_s, self.pixel_s = 0.0025, 8.7e-7

    def run(self, tensor: np.ndarray):
        self.shapes.append(tensor.shape)
        self.clock[0] += self.run_s + self.pixel_s * tensor.shape[0] * tensor.shape[3] * 48
        n, width = tensor.shape[0], tensor.shape[3] // 8
        return np.ones((n, width), np.int64), np.ones((n, width), np.float32)


def test_batches_do_not_depend_on_how_long_runs_take(monkeypatch):
    clock = [0.0]
    monkeypatch.setattr(time, "perf_counter", lambda: clock[0])
    session = _TimedSession(clock)
    recognizer = TextRecognizer(session)
    crops = [np.full((32, w, 3), 200, np.uint8) for w in (60, 200, 90, 700, 400, 130, 1200, 75)]
    runs = []
    # An idle machine, one where every run waits for a core, one where pixels are slow, ...
    for run_s, pixel_s in ((0.0025, 8.7e-7), (2.0, 1e-7), (0.0001, 1e-4), (0.0025, 8.7e-7)):
        session.shapes.clear()
        session.run_s, session.pixel_s = run_s, pixel_s
        recognizer.recognize(crops)
        runs.append(list(session.shapes))
    assert all(run == runs[0] for run in runs)


def test_rec_input_pads_right_and_scales_to_unit_range():
    crop = np.full((24, 40, 3), 255, dtype=np.uint8)
    batch = rec_input([crop], batch_width=320)
    assert batch.shape == (1, 3, 48, 320) and batch.dtype == np.float32
    assert np.allclose(batch[0, :, :, :80], 1.0)  # 40 px at height 24 -> 80 px at height 48
    assert np.all(batch[0, :, :, 80:] == 0.0)
