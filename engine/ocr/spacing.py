"""Word spaces the recogniser dropped in letter-spaced display type.

Headlines, posters and covers are often set in capitals with wide tracking. There the blank
between two letters is nearly as wide as a word space and the recogniser reads "THEVISION".
The crop's ink still shows the words: the blank between the last letter of a word and the first
of the next is clearly wider than the blanks between letters. The CTC time steps say where each
character was read; a pair of neighbouring characters with such a blank between them gets its
space back."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engine.imaging import ink_map
from engine.ocr.recognition import CTC_STRIDE_PX, crop_width_at_height
from engine.text import has_cjk

@dataclass(frozen=True)
class SpacingRules:
    """When a blank inside a recognised line is a word space."""

    word_gap_ratio: float = 2.0
    """A blank between letters is a word space at this many times the line's typical one..."""
    word_gap_heights: float = 0.22
    """...and at least this share of the crop's height. Both chosen on 150 generated display
    lines (`python -m tools.ocr_spacing`, seed 1): every word right on 0.853 of the lines (0.733
    without); held out (seed 2): 0.747 -> 0.853."""
    blank_share: float = 0.04
    """Columns holding less ink than this share of the line's fullest column are blank."""
    min_pairs: int = 4
    """Too few letter pairs give no typical blank to compare with."""
    space_share: float = 0.8
    """A letter and a digit are two words when their blank is at least this share of the median
    of the line's own word spaces (tools/photos seed 1: "Python 3.11" under blur)..."""
    min_spaces: int = 3
    """...when the line has at least this many word spaces to take the median of."""


SPACING = SpacingRules()


def restore_word_spaces(text: str, steps: tuple[int, ...], crop: np.ndarray,
                        rules: SpacingRules = SPACING) -> tuple[str, tuple[int, ...]]:
    """`text` with a space put back between characters a word-wide blank separates (by
    `rules`), and its steps to match (a space takes its left neighbour's step)."""
    if len(steps) != len(text) or len(text) < rules.min_pairs + 1 or has_cjk(text):
        return text, steps
    ink = ink_map(crop)
    if ink is None:
        return text, steps
    columns = ink.sum(axis=0)
    blank = columns <= rules.blank_share * max(float(columns.max()), 1e-6)
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
    if len(gaps) < rules.min_pairs:
        return text, steps
    typical = float(np.median([g for _, g in gaps]))
    floor = rules.word_gap_heights * crop.shape[0]
    cuts = {i for i, g in gaps if g >= max(rules.word_gap_ratio * typical, floor)}
    # A letter beside a digit gets a space only where its blank is as wide as the line's own
    # word spaces are (a digit's cell leaves a blank beside a narrow "1").
    spaces = [blank_between(i - 1, i + 1) for i in range(1, len(text) - 1)
              if text[i] == " " and text[i - 1].isalnum() and text[i + 1].isalnum()]
    if len(spaces) >= rules.min_spaces:
        space = rules.space_share * float(np.median(spaces))
        cuts |= {i for i, g in mixed if g >= max(rules.word_gap_ratio * typical, floor, space)}
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

