"""The canonical LaTeX token form shared by training targets, model output and scoring."""

import pytest

from engine.formulas.latex_tokens import detokenize, normalized, tokenize


def test_tokenize_splits_commands_symbols_and_environments():
    assert tokenize(r"\alpha_{1}\,x\begin {array}{c}a\\b\end{array}") == [
        "\\alpha", "_", "{", "1", "}", "\\,", "x", "\\begin{array}", "{", "c", "}", "a", "\\\\",
        "b", "\\end{array}"]


@pytest.mark.parametrize("raw, tokenised", [
    # Raw author LaTeX and the im2latex space-tokenised style meet in one form.
    (r"x^2_{ij}", r"x _ { i j } ^ { 2 }"),
    (r"f_2' + f'_2", r"f _ { 2 } ^ { \prime } + f _ { 2 } ^ { \prime }"),
    (r"\frac12", r"\frac { 1 } { 2 }"),
    (r"{ \partial } _ { \mu }", r"\partial _ { \mu }"),
    (r"G^{{\mu}{\nu}}", r"G ^ { \mu \nu }"),
    (r"{\cal X}_\alpha", r"\mathcal { X } _ { \alpha }"),
    (r"\mathop{\mathrm{Spec}}(R)", r"\operatorname { S p e c } ( R )"),
    (r"\left( \dfrac{a}{b} \right)", r"( \frac { a } { b } )"),
    (r"a \le b \to c\,,", r"a \leq b \rightarrow c ,"),
    (r"\sqrt[3]x", r"\sqrt [ 3 ] { x }"),
    (r"x^\frac12", r"x ^ { \frac { 1 } { 2 } }"),
    (r"\begin{array}{cc}a&b\end{array}", r"\begin{array} { c c } a & b \end{array}"),
    (r"{1 \over 2}", r"\frac { 1 } { 2 }"),
    (r"\lambda_{g'}", r"\lambda _ { g ^ { \prime } }"),
    # One superscript, as TeX makes of primes: x ^ { \prime } ^ { 2 } would not compile.
    (r"z'^{(r)}", r"z ^ { \prime ( r ) }"),
    (r"f''_1", r"f _ { 1 } ^ { \prime \prime }"),
    (r"x_a_b^c", r"x _ { a b } ^ { c }"),
    (r"\operatorname{log} x", r"\log x"),
    (r"\nabla \cdot \ensuremath{\mathbf{B}}", r"\nabla \cdot \mathbf { B }"),
])
def test_normalized_spellings(raw, tokenised):
    assert detokenize(normalized(raw)) == tokenised
    # Idempotent: the canonical form is its own canonical form.
    assert detokenize(normalized(tokenised)) == tokenised


def test_different_formulas_stay_different():
    assert normalized("x^{2}") != normalized("x_{2}")
    assert normalized(r"\frac{a}{b}") != normalized(r"\frac{b}{a}")
