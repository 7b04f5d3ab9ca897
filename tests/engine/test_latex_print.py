"""engine.formulas.latex_print: LaTeX as a person writes it, reading back to the same canon."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.formulas.latex_print import PrintRules, compact
from engine.formulas.latex_tokens import detokenize, normalized

REPO = Path(__file__).resolve().parents[2]
SHARED = REPO.parent / "shared"


@pytest.mark.parametrize("canon, written", [
    (r"e ^ { i \pi } + 1 = 0", r"e^{i\pi}+1=0"),
    (r"\int _ { a } ^ { b } f ( x ) d x", r"\int_a^b f(x)\,dx"),
    (r"\mathbf { E }", r"\mathbf{E}"),
    (r"f ^ { \prime \prime } ( x )", r"f''(x)"),
    (r"\sum _ { i = 1 } ^ { n } x _ { i } ^ { 2 } y", r"\sum_{i=1}^n x_i^2 y"),
    (r"\alpha x + \beta _ { 1 0 } y", r"\alpha x+\beta_{10}y"),
    (r"A \wedge * B", r"A\wedge *B"),
    (r"E = m c ^ { 2 } \tag { 1 3 }", r"E=mc^2\tag{13}"),
    (r"\left( \frac { a } { b } \right)", r"\left(\frac{a}{b}\right)"),
    (r"\int _ { 0 } ^ { \infty } e ^ { - x } d x = 1", r"\int_0^\infty e^{-x}\,dx=1"),
    (r"x ^ { 2 } 3", r"x^2 3"),
])
def test_written_as_a_person_writes_it(canon, written):
    assert compact(canon) == written
    assert normalized(written) == normalized(canon)


def test_a_differential_only_in_an_integral():
    assert compact(r"a d x") == "adx"
    assert compact(r"\frac { d x } { d t }") == r"\frac{dx}{dt}"


def test_switched_off_rules_keep_the_braces():
    rules = PrintRules(unbraced_scripts=False, primes=False, differential_space=False)
    assert compact(r"\int _ { a } ^ { b } f ^ { \prime } d x", rules) == r"\int_{a}^{b}f^{\prime}dx"


def _corpus_formulas(limit_per_file: int = 300) -> list[str]:
    formulas = []
    for path in sorted((SHARED / "formula" / "corpus").glob("*.txt")):
        with path.open(encoding="utf-8") as handle:
            for _, line in zip(range(limit_per_file), handle):
                if line.strip():
                    formulas.append(line.strip())
    return formulas


@pytest.mark.skipif(not (SHARED / "formula" / "corpus").is_dir(), reason="no formula corpus")
def test_every_corpus_formula_prints_and_reads_back_to_its_canon():
    formulas = _corpus_formulas()
    kept_as_canon = []
    for latex in formulas:
        canon = detokenize(normalized(latex))
        printed = compact(canon)
        assert normalized(printed) == normalized(canon)
        if printed == canon and len(normalized(canon)) > 2:
            kept_as_canon.append(canon)
    # The canon spelling is the printer's guard, not its habit.
    assert len(kept_as_canon) <= len(formulas) // 200, kept_as_canon[:5]


def test_the_formula_sets_readings_are_a_third_shorter():
    readings = [item["prediction"] for item in json.loads(
        (REPO / "docs" / "results" / "eval_formula.json").read_text())["items"]
        if item.get("prediction")]
    before = sum(len(r) for r in readings)
    after = sum(len(compact(r)) for r in readings)
    assert after <= 0.7 * before
    assert all(normalized(compact(r)) == normalized(r) for r in readings)
