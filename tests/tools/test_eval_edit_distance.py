"""Edit distance and approximate search against a plain dynamic-programming reference."""

import random

import pytest

from tools.eval.edit_distance import (
    best_substring_distance,
    find_approximate,
    levenshtein,
    sequence_levenshtein,
    similarity,
)


def reference_distance(a: str, b: str) -> int:
    previous = list(range(len(b) + 1))
    for i, char_a in enumerate(a, 1):
        current = [i]
        for j, char_b in enumerate(b, 1):
            substitute = previous[j - 1] + (char_a != char_b)
            current.append(min(previous[j] + 1, current[j - 1] + 1, substitute))
        previous = current
    return previous[-1]


@pytest.mark.parametrize(
    ("a", "b", "distance"),
    [("kitten", "sitting", 3), ("", "", 0), ("abc", "", 3), ("", "ab", 2), ("flaw", "lawn", 2),
     ("same", "same", 0), ("中国人", "中国", 1)],
)  # fmt: skip
def test_levenshtein_known_distances(a, b, distance):
    assert levenshtein(a, b) == distance
    assert levenshtein(b, a) == distance


def test_levenshtein_matches_reference_on_random_strings():
    rng = random.Random(7)
    for _ in range(300):
        a = "".join(rng.choice("abc ") for _ in range(rng.randint(0, 90)))
        b = "".join(rng.choice("abc ") for _ in range(rng.randint(0, 90)))
        assert levenshtein(a, b) == reference_distance(a, b)


def test_levenshtein_long_pattern_uses_same_result():
    rng = random.Random(3)
    a = "".join(rng.choice("abcdef") for _ in range(700))
    b = a[:300] + "xyz" + a[305:]
    assert levenshtein(a, b) == reference_distance(a, b)


def test_similarity_bounds():
    assert similarity("", "") == 1.0
    assert similarity("abc", "") == 0.0
    assert similarity("kitten", "sitting") == pytest.approx(1 - 3 / 7)


def test_sequence_levenshtein_counts_tokens():
    assert sequence_levenshtein(["\\frac", "a", "b"], ["\\frac", "a", "c"]) == 1


def test_best_substring_distance():
    assert best_substring_distance("world", "hello world!") == 0
    assert best_substring_distance("wrold", "hello world!") == 2
    assert best_substring_distance("abc", "") == 3


def test_find_approximate_reports_each_occurrence_once_with_its_start():
    text = "one colour here, then one color there"
    matches = find_approximate("colour", text, 1)
    assert [text[m.start : m.end] for m in matches] == ["colour", "color"]
    assert [m.distance for m in matches] == [0, 1]


def test_find_approximate_exact_mode():
    assert [m.start for m in find_approximate("ab", "abcab", 0)] == [0, 3]
    assert find_approximate("zz", "abcab", 0) == []
