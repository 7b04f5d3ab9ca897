"""Stop rules for greedy formula decoding: a length cap from the crop's size, a guard against a
token or short run of tokens repeated beyond anything the training formulas hold, and trailing
spacing commands trimmed.

Without them a crop with blank space in it (a display formula with its number far to the right)
is read as the formula followed by \\qquad up to the token cap, confidently: each \\qquad is
likely once the previous ones are there, so the mean token probability stays high.
"""

from __future__ import annotations

import math
from collections.abc import Collection

GUARD_LENGTH = "length"
"""The reading reached its length cap without the end token."""
GUARD_REPETITION = "repetition"
"""The reading repeated a token or n-gram more often in a row than any training formula does."""

MAX_REPEATS: dict[int, int] = {1: 52, 2: 26, 3: 17, 4: 13}
"""The most copies in a row of one n-gram (n = 1..4 tokens) a reading may hold: the longest runs
in the training corpus (shared/formula/corpus, all 10 files, 250,622 formulas, tokenised and
normalised by engine.formulas.latex_tokens), all in latex_in_arxiv_hep_arrays: 52 dots in a row
(a dotted row of an array), 26 copies of a 2-gram, 17 of a 3-gram, 13 of a 4-gram. Such runs are
rare: 99.99% of the corpus stays at 19, 12, 6 and 6 copies."""
MAX_SPACING_RUN = 12
"""The most spacing commands in a row a reading may hold: the corpus's longest run is 12 (\\quad
and \\qquad each reach 12; 250,573 of its 250,622 formulas end without any spacing command)."""

TOKENS_PER_HEIGHT = 16
"""Length cap per 64 px (the model's input height) of input width. At 64 px a one-line formula
with scripts is about 1.5 em high, and the densest corpus spellings put about 10 tokens in an em
(x _ { i } ^ { 2 } is 9 tokens over one letter); 16 per height leaves half as much again."""
LENGTH_BASE = 24
"""Tokens every crop may hold whatever its width: a narrow fraction or a stacked sum is short
and tall (the corpus median formula has 24 tokens)."""

SPACING = frozenset({"\\quad", "\\qquad", "\\;", "\\:", "\\ ", "\\!", "\\,", "~", "\\hfill",
                     "\\enspace", "\\thinspace"})
"""Spacing commands: at the end of a formula they draw nothing (the model writes them for blank
space at the crop's right end)."""


def length_cap(input_width_px: int, max_tokens: int) -> int:
    """The most tokens a reading of an input image this wide (at 64 px high) may hold. For an
    image of k lines (an array squeezed into 64 px) pass k times its width: each line is only
    64 / k px high, so it holds k times as many tokens per pixel of width. k is the larger of
    the crop's bands of ink and the rows its reading has written so far (engine.formulas.model):
    the lines of a downsampled array touch, and a reading cut at one line's cap loses the rest.
    On the formula evaluation set through a plain conversion, counting written rows took
    im2latex 456 (a two-line array in one band, cut at 85 of its 129 tokens) from no LaTeX to
    0.60, multi-line 0.579 -> 0.605, overall 0.873 -> 0.876; the generated formula-image set's
    figures are in ADR 0005."""
    return min(max_tokens, LENGTH_BASE + math.ceil(TOKENS_PER_HEIGHT * input_width_px / 64))


def runaway_tail(tokens: list[int], spacing: Collection[int]) -> int:
    """0, or how many tokens at the end of `tokens` are a runaway: a run of more than
    MAX_SPACING_RUN spacing commands (`spacing`: their ids), all of it; or an n-gram repeated
    more than MAX_REPEATS[n] times in a row, all its copies but the first."""
    if len(tokens) > MAX_SPACING_RUN and all(t in spacing for t in tokens[-MAX_SPACING_RUN - 1:]):
        run = MAX_SPACING_RUN + 1
        while run < len(tokens) and tokens[-run - 1] in spacing:
            run += 1
        return run
    for n, most in MAX_REPEATS.items():
        if len(tokens) < n * (most + 1):
            continue
        gram = tokens[-n:]
        if all(tokens[len(tokens) - n * (k + 1):len(tokens) - n * k] == gram
               for k in range(1, most + 1)):
            copies = most + 1
            while n * (copies + 1) <= len(tokens) and tokens[
                    len(tokens) - n * (copies + 1):len(tokens) - n * copies] == gram:
                copies += 1
            return n * (copies - 1)
    return 0


def trim_spacing(words: list[str]) -> list[str]:
    """`words` without the spacing commands at their end."""
    end = len(words)
    while end and words[end - 1] in SPACING:
        end -= 1
    return words[:end]
