"""Edit distances on strings: bit-parallel Levenshtein and approximate substring search."""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np

# Below this length a plain loop builds the bit masks faster than numpy's setup cost.
_NUMPY_MASK_MIN_LEN = 512


@dataclass(frozen=True)
class ApproximateMatch:
    """A substring `text[start:end]` within `distance` edits of the searched pattern."""

    start: int
    end: int
    distance: int


def _pattern_masks(pattern: str) -> dict[str, int]:
    """Map each character to the bit mask of its positions in `pattern` (bit i = position i)."""
    if len(pattern) < _NUMPY_MASK_MIN_LEN:
        masks: dict[str, int] = {}
        bit = 1
        for char in pattern:
            masks[char] = masks.get(char, 0) | bit
            bit <<= 1
        return masks
    codes = np.frombuffer(pattern.encode("utf-32-le"), dtype=np.uint32)
    masks = {}
    for code in np.unique(codes):
        packed = np.packbits(codes == code, bitorder="little")
        masks[chr(int(code))] = int.from_bytes(packed.tobytes(), "little")
    return masks


def _column_scores(pattern: str, text: str, anchored: bool) -> Iterator[int]:
    """Yield, after each character of `text`, the edit distance of `pattern` to the text so far.

    Myers' bit-vector algorithm in Hyyrö's formulation, with Python integers as bit vectors
    of any length. `anchored` means the match must start at text position 0 (global distance
    to the prefix); otherwise it may start anywhere (Sellers' substring search).
    """
    length = len(pattern)
    masks = _pattern_masks(pattern)
    full = (1 << length) - 1
    top = 1 << (length - 1)
    carry = 1 if anchored else 0
    positive_v = full
    negative_v = 0
    score = length
    for char in text:
        eq = masks.get(char, 0)
        x_v = eq | negative_v
        x_h = (((eq & positive_v) + positive_v) ^ positive_v) | eq
        positive_h = negative_v | (~(x_h | positive_v) & full)
        negative_h = positive_v & x_h
        if positive_h & top:
            score += 1
        elif negative_h & top:
            score -= 1
        positive_h = ((positive_h << 1) | carry) & full
        negative_h = (negative_h << 1) & full
        positive_v = negative_h | (~(x_v | positive_h) & full)
        negative_v = positive_h & x_v
        yield score


def levenshtein(a: str, b: str) -> int:
    """Character edit distance (insert, delete, substitute, each cost 1)."""
    if a == b:
        return 0
    if not a or not b:
        return max(len(a), len(b))
    # Iterating over the shorter string keeps the Python loop short; the bit vectors
    # carry the longer one.
    pattern, text = (a, b) if len(a) >= len(b) else (b, a)
    score = len(pattern)
    for score in _column_scores(pattern, text, anchored=True):
        pass
    return score


def sequence_levenshtein(a: Sequence[Hashable], b: Sequence[Hashable]) -> int:
    """Edit distance between two sequences of hashable tokens (for example LaTeX tokens)."""
    alphabet: dict[Hashable, str] = {}
    for token in (*a, *b):
        if token not in alphabet:
            alphabet[token] = chr(0x100 + len(alphabet))
    return levenshtein("".join(alphabet[t] for t in a), "".join(alphabet[t] for t in b))


def similarity(a: str | Sequence[Hashable], b: str | Sequence[Hashable]) -> float:
    """1 - edit distance / longer length, over characters (strings) or tokens (sequences);
    1.0 when both are empty, 0.0 when only one is."""
    longest = max(len(a), len(b))
    if longest == 0:
        return 1.0
    if isinstance(a, str) and isinstance(b, str):
        return 1.0 - levenshtein(a, b) / longest
    return 1.0 - sequence_levenshtein(a, b) / longest


def best_substring_distance(pattern: str, text: str) -> int:
    """Fewest edits that turn `pattern` into some substring of `text` (Sellers)."""
    if not pattern:
        return 0
    if pattern in text:
        return 0
    return min(_column_scores(pattern, text, anchored=False), default=len(pattern))


def find_approximate(pattern: str, text: str, max_diffs: int) -> list[ApproximateMatch]:
    """All places where `pattern` occurs in `text` with at most `max_diffs` edits.

    Neighbouring end positions of one occurrence are merged into the best of them, so each
    occurrence is reported once, in text order.
    """
    if not pattern:
        return []
    if max_diffs <= 0:
        matches = []
        start = text.find(pattern)
        while start != -1:
            matches.append(ApproximateMatch(start, start + len(pattern), 0))
            start = text.find(pattern, start + 1)
        return matches
    ends: list[tuple[int, int]] = []  # (end index inclusive, distance) of the best end per run
    previous_end = -2
    for end, score in enumerate(_column_scores(pattern, text, anchored=False)):
        if score > max_diffs:
            continue
        if end == previous_end + 1 and ends:
            if score < ends[-1][1]:
                ends[-1] = (end, score)
        else:
            ends.append((end, score))
        previous_end = end
    return [_match_ending_at(pattern, text, end, max_diffs) for end, _ in ends]


def _match_ending_at(pattern: str, text: str, end: int, max_diffs: int) -> ApproximateMatch:
    """Find the start of the best match that ends at `text[end]` by aligning backwards."""
    window_start = max(0, end + 1 - len(pattern) - max_diffs)
    backwards = text[window_start : end + 1][::-1]
    best_length, best_score = 0, len(pattern)
    for consumed, score in enumerate(_column_scores(pattern[::-1], backwards, anchored=True), 1):
        if score < best_score:
            best_length, best_score = consumed, score
    return ApproximateMatch(end + 1 - best_length, end + 1, best_score)
