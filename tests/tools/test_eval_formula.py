"""LaTeX normalisation and token edit-distance similarity on hand-made formulas."""

import pytest

from tools.eval.formula import (
    contains_formula,
    exact_match,
    formula_similarity,
    normalize_latex_tokens,
)


def test_identical_and_empty():
    assert formula_similarity(r"\frac{a}{b}", r"\frac{a}{b}") == 1.0
    assert formula_similarity("", "") == 1.0
    assert formula_similarity("", "x") == 0.0
    assert formula_similarity("x", "") == 0.0


def test_known_token_distance():
    # a + b = c versus a - b = c: 1 substitution over 5 tokens.
    assert formula_similarity("a + b = c", "a-b=c") == pytest.approx(1 - 1 / 5)


@pytest.mark.parametrize(
    ("written", "other"),
    [
        (r"{\rm Tr}\,\log x", r"\mathrm{Tr}\log x"),
        (r"\rm{x}", r"\mathrm{x}"),
        (r"\left( a \right)", "(a)"),
        (r"\displaystyle x^{2}", "x^2"),
        (r"{1 \over 2}", r"\frac{1}{2}"),
        (r"\lambda_{g^{\prime}}", r"\lambda_{g'}"),
        (r"a \le b", r"a\leq b"),
        (r"x ~=~ y\quad.", "x=y."),
    ],
)
def test_equivalent_spellings_match_exactly(written, other):
    assert exact_match(written, other) == 1.0
    assert formula_similarity(written, other) == 1.0


def test_exact_match_detects_difference():
    assert exact_match("x^2", "x^3") == 0.0


def test_normalize_keeps_escaped_braces():
    assert normalize_latex_tokens(r"\{ x \}") == ["\\{", "x", "\\}"]


def test_contains_formula():
    assert contains_formula(r"E = m c^{2}, \quad a^2+b^2=c^2", "a^{2}+b^{2}=c^{2}")
    assert not contains_formula("a+b", "a-b")
