"""engine.ocr.spacing: a word space the recogniser dropped in letter-spaced type is put back
where the crop's ink shows a word-wide blank; ordinary text is left as read."""

from __future__ import annotations

import numpy as np

from engine.ocr.recognition import CTC_STRIDE_PX
from engine.ocr.spacing import restore_word_spaces


def tracked_crop(words: list[str], letter_px: int = 14, blank_px: int = 10,
                 space_px: int = 34) -> tuple[np.ndarray, tuple[int, ...]]:
    """A 48 px high crop of letters drawn as bars, `blank_px` apart within a word and
    `space_px` apart between words; and each letter's CTC step (its centre)."""
    width = sum(len(w) * (letter_px + blank_px) for w in words) + space_px * len(words) + 20
    crop = np.full((48, width, 3), 255, np.uint8)
    x, steps = 10, []
    for k, word in enumerate(words):
        if k:
            x += space_px - blank_px
        for _ in word:
            crop[8:40, x:x + letter_px] = 30
            steps.append(int((x + letter_px / 2) / CTC_STRIDE_PX))
            x += letter_px + blank_px
    return crop, tuple(steps)


def test_a_dropped_space_between_tracked_words_is_put_back():
    crop, steps = tracked_crop(["THE", "VISION"])
    text, new_steps = restore_word_spaces("THEVISION", steps, crop)
    assert text == "THE VISION"
    assert len(new_steps) == len(text) and new_steps[3] == new_steps[2]


def test_evenly_spaced_letters_are_one_word():
    crop, steps = tracked_crop(["VISIONARY"])
    assert restore_word_spaces("VISIONARY", steps, crop) == ("VISIONARY", steps)


def test_a_space_already_read_is_not_doubled():
    crop, steps = tracked_crop(["THE", "VISION"])
    text = "THE VISION"
    spaced_steps = steps[:3] + (steps[2],) + steps[3:]
    assert restore_word_spaces(text, spaced_steps, crop)[0] == "THE VISION"


def test_steps_that_do_not_match_the_text_leave_it_alone():
    crop, steps = tracked_crop(["THE", "VISION"])
    assert restore_word_spaces("THEVISION!", steps, crop)[0] == "THEVISION!"
    assert restore_word_spaces("中文文本内容", steps[:6], crop)[0] == "中文文本内容"


def test_digits_and_punctuation_are_never_split():
    # Narrow figures in wide digit cells look like word gaps; numbers stay whole.
    crop, steps = tracked_crop(["1769", "13.3"], space_px=10)
    wide = tracked_crop(["1", "7", "6", "9", "1", "3", ".", "3"], space_px=40)
    for image, marks in ((crop, steps), wide):
        assert restore_word_spaces("176913.3", marks, image)[0] == "176913.3"


def _read_as(text: str, steps: tuple[int, ...]) -> tuple[int, ...]:
    """The letters' steps with each space of `text` at its left neighbour's step."""
    out, letters = [], iter(steps)
    for ch in text:
        out.append(out[-1] if ch == " " else next(letters))
    return tuple(out)


def test_a_space_lost_between_a_word_and_a_number_is_put_back():
    # Blur closes the blanks between letters; the blank before "311" is as wide as the
    # line's own word spaces.
    crop, steps = tracked_crop(["IT", "IS", "IN", "PYTHON", "311"], blank_px=0, space_px=24)
    read = "IT IS IN PYTHON311"
    assert restore_word_spaces(read, _read_as(read, steps), crop)[0] == "IT IS IN PYTHON 311"


def test_a_number_close_to_its_letters_stays_with_them():
    crop, steps = tracked_crop(["IT", "IS", "IN", "PYTHON311"], blank_px=4, space_px=24)
    read = "IT IS IN PYTHON311"
    assert restore_word_spaces(read, _read_as(read, steps), crop)[0] == read


def test_the_spacing_rules_are_passed_not_patched():
    """A stricter word-gap ratio, passed as a variant of the rule set, keeps the letters
    together where the default puts the space back."""
    from dataclasses import replace

    from engine.ocr.spacing import SPACING

    crop, steps = tracked_crop(["THE", "VISION"])
    assert restore_word_spaces("THEVISION", steps, crop)[0] == "THE VISION"
    strict = replace(SPACING, word_gap_ratio=50.0)
    assert restore_word_spaces("THEVISION", steps, crop, strict)[0] == "THEVISION"
