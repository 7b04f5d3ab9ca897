"""No reading of the published formula evaluation (docs/results/eval_formula.json: the crops
handed to the recogniser and the same images through plain `convert`) repeats a token or an
n-gram of 2-4 tokens more often in a row than the training corpus ever does, nor runs more
spacing commands together than it does (engine/formulas/guards.py holds those longest runs)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.formulas.guards import MAX_REPEATS, MAX_SPACING_RUN, SPACING

RESULTS = Path(__file__).resolve().parents[2] / "docs" / "results" / "eval_formula.json"


def longest_runs(tokens: list[str]) -> dict[int, int]:
    """n -> the most copies in a row of any n-gram anywhere in `tokens`, for n = 1..4."""
    runs = {}
    for n in MAX_REPEATS:
        best = 1 if len(tokens) >= n else 0
        for start in range(len(tokens) - n + 1):
            copies = 1
            while tokens[start + copies * n:start + (copies + 1) * n] == tokens[start:start + n]:
                copies += 1
            best = max(best, copies)
        runs[n] = best
    return runs


def longest_spacing(tokens: list[str]) -> int:
    best = run = 0
    for token in tokens:
        run = run + 1 if token in SPACING else 0
        best = max(best, run)
    return best


def readings() -> list[tuple[str, str]]:
    results = json.loads(RESULTS.read_text(encoding="utf-8"))
    out = [(f"crop {i['id']}", i["prediction"] or "") for i in results["items"]]
    out += [(f"convert {i['id']}", i["prediction"] or "")
            for i in results["through_convert"]["items"]]
    return out


def test_the_scan_finds_a_runaway_anywhere_in_a_reading():
    tokens = ["x", "="] + ["a", "+"] * (MAX_REPEATS[2] + 1) + ["b"]
    assert longest_runs(tokens)[2] == MAX_REPEATS[2] + 1
    assert longest_spacing(["x"] + ["\\qquad"] * (MAX_SPACING_RUN + 2) + ["(13)"]) == MAX_SPACING_RUN + 2
    assert longest_runs(["x"]) == {1: 1, 2: 0, 3: 0, 4: 0}


def test_no_published_reading_repeats_beyond_the_training_corpus():
    if not RESULTS.is_file():
        pytest.fail(f"{RESULTS} is missing: `python -m tools.eval formula` writes it")
    found = readings()
    assert len(found) >= 2 * 196  # the whole formula set, both ways
    beyond = []
    for name, latex in found:
        tokens = latex.split()  # predictions are stored in the token canon, one space apart
        runs = longest_runs(tokens)
        over = {n: r for n, r in runs.items() if r > MAX_REPEATS[n]}
        if over or longest_spacing(tokens) > MAX_SPACING_RUN:
            beyond.append((name, over, longest_spacing(tokens)))
    assert beyond == []
