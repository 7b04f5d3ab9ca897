"""LaTeX formula comparison for the dev evaluation: the project's token canon
(engine/formulas/latex_tokens.py, the one the formula model is trained and scored with) and token
edit-distance similarity."""

from __future__ import annotations

from engine.formulas.latex_tokens import normalized
from tools.eval.edit_distance import similarity

# Horizontal spacing between the parts of a formula changes how it looks, not what it says: the
# canon keeps \quad (a recogniser should write it), scoring ignores it.
_SCORING_IGNORES = frozenset({"\\quad", "\\qquad"})


def normalize_latex_tokens(latex: str) -> list[str]:
    """Tokens of `latex` in the canonical spelling, without \\quad spacing."""
    return [token for token in normalized(latex) if token not in _SCORING_IGNORES]


def formula_similarity(pred_latex: str, truth_latex: str) -> float:
    """1 - token edit distance / longer token count, after normalisation.

    1.0 when both are empty, 0.0 when only one is.
    """
    return similarity(normalize_latex_tokens(pred_latex), normalize_latex_tokens(truth_latex))


def exact_match(pred_latex: str, truth_latex: str) -> float:
    """1.0 when both formulas have the same normalised tokens, else 0.0."""
    return float(normalize_latex_tokens(pred_latex) == normalize_latex_tokens(truth_latex))


def contains_formula(haystack_latex: str, needle_latex: str) -> bool:
    """Whether the normalised tokens of `needle_latex` occur contiguously in `haystack_latex`."""
    needle = normalize_latex_tokens(needle_latex)
    haystack = normalize_latex_tokens(haystack_latex)
    if not needle:
        return False
    width = len(needle)
    return any(haystack[i : i + width] == needle for i in range(len(haystack) - width + 1))
