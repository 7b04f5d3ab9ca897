"""Word spaces the recogniser dropped in letter-spaced display type.

Headlines, posters and covers are often set in capitals with wide tracking. There the blank
between two letters is nearly as wide as a word space and the recogniser reads "THEVISION".
The crop's ink still shows the words: the blank between the last letter of a word and the first
of the next is clearly wider than the blanks between letters. The CTC time steps say where each
character was read; a pair of neighbouring characters with such a blank between them gets its
space back."""

from __future__ import annotations

import numpy as np

from engine.imaging import ink_map
from engine.ocr.recognition import CTC_STRIDE_PX, crop_width_at_height
from engine.text import has_cjk

# A blank is a word space when it is this many times the line's typical blank between letters
# and at least this share of the crop's height. Chosen on 150 generated display lines
# (`python -m tools.ocr_spacing`, seed 1: six fonts, 20-90 pt, tracking up to 0.5 em): lines
# with every word right 0.733 without, 0.853 at 2.0 / 0.22 (also at 1.6 / 0.3 and 2.0 / 0.3;
# 2.5 gave 0.773, 1.6 / 0.15 0.807). Held out (seed 2): 0.747 -> 0.853. The dev set's 40 items
# read the same with it (make eval).
WORD_GAP_RATIO = 2.0
WORD_GAP_HEIGHTS = 0.22
# Columns holding less ink than this share of the line's fullest column count as blank.
BLANK_SHARE = 0.04
# Too few letter pairs give no typical blank to compare with.
MIN_PAIRS = 4
# A letter and a digit are two words when the blank between them is at least this share of
# the median blank of the line's own word spaces (at least MIN_SPACES of them): on the blurred
# photos of tools/photos (seed 1) "Python 3.11" lost its space, the blank 13 px against word
# spaces of 3-10 px and letters touching.
SPACE_SHARE = 0.8
MIN_SPACES = 3


def restore_word_spaces(text: str, steps: tuple[int, ...], crop: np.ndarray
                        ) -> tuple[str, tuple[int, ...]]:
    """`text` with a space put back between characters a word-wide blank separates, and its
    steps to match (a space takes its left neighbour's step)."""
    if len(steps) != len(text) or len(text) < MIN_PAIRS + 1 or has_cjk(text):
        return text, steps
    ink = ink_map(crop)
    if ink is None:
        return text, steps
    columns = ink.sum(axis=0)
    blank = columns <= BLANK_SHARE * max(float(columns.max()), 1e-6)
    scale = crop.shape[1] / max(crop_width_at_height(crop), 1)  # crop px per model px
    centres = [(s + 0.5) * CTC_STRIDE_PX * scale for s in steps]
    def blank_between(left: int, right: int) -> int:
        a, b = int(centres[left]), int(np.ceil(centres[right]))
        return _widest_run(blank[max(a, 0):max(b, a + 1)])

    # (index of the left character, widest blank between): between letters, and between a
    # letter and a digit ("Python3.11" where blur narrowed the space); never between digits or
    # punctuation: "1", "." and "," stand alone in their wide cells, "13.3" is no "1 3.3".
    gaps: list[tuple[int, int]] = []
    mixed: list[tuple[int, int]] = []
    for i in range(len(text) - 1):
        pair = text[i:i + 2]
        if pair.isalpha():
            gaps.append((i, blank_between(i, i + 1)))
        elif pair.isalnum() and not pair.isdigit():
            mixed.append((i, blank_between(i, i + 1)))
    if len(gaps) < MIN_PAIRS:
        return text, steps
    typical = float(np.median([g for _, g in gaps]))
    floor = WORD_GAP_HEIGHTS * crop.shape[0]
    cuts = {i for i, g in gaps if g >= max(WORD_GAP_RATIO * typical, floor)}
    # A letter beside a digit gets a space only where its blank is as wide as the line's own
    # word spaces are (a digit's cell leaves a blank beside a narrow "1").
    spaces = [blank_between(i - 1, i + 1) for i in range(1, len(text) - 1)
              if text[i] == " " and text[i - 1].isalnum() and text[i + 1].isalnum()]
    if len(spaces) >= MIN_SPACES:
        space = SPACE_SHARE * float(np.median(spaces))
        cuts |= {i for i, g in mixed if g >= max(WORD_GAP_RATIO * typical, floor, space)}
    if not cuts:
        return text, steps
    out_text, out_steps = [], []
    for i, (char, step) in enumerate(zip(text, steps)):
        out_text.append(char)
        out_steps.append(step)
        if i in cuts:
            out_text.append(" ")
            out_steps.append(step)
    return "".join(out_text), tuple(out_steps)


def _widest_run(flags: np.ndarray) -> int:
    best = run = 0
    for flag in flags:
        run = run + 1 if flag else 0
        best = max(best, run)
    return best

