"""Scores of recognised LaTeX against truth over the engine's canonical tokens: edit similarity,
exact match and corpus BLEU-4.

Both sides go through `engine.formulas.latex_tokens.normalized`, the spelling the recogniser is trained
to produce, so `\\frac12` and `\\frac{1}{2}`, `\\le` and `\\leq` are the same tokens. (The dev-set
evaluator's `tools.eval.formula` keeps its own lighter normalisation, so that its scores stay
comparable with earlier runs.)
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Hashable, Sequence

from engine.formulas.latex_tokens import normalized
from tools.eval.edit_distance import similarity

BLEU_MAX_N = 4


def token_similarity(pred_latex: str, truth_latex: str) -> float:
    """1 - token edit distance / longer token count, over normalised tokens.

    1.0 when both are empty, 0.0 when only one is."""
    return similarity(normalized(pred_latex), normalized(truth_latex))


def token_exact(pred_latex: str, truth_latex: str) -> bool:
    """Whether both formulas have the same normalised tokens."""
    return normalized(pred_latex) == normalized(truth_latex)


def _ngrams(tokens: Sequence[Hashable], n: int) -> Counter:
    return Counter(tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1))


def corpus_bleu(
    candidates: Sequence[Sequence[Hashable]],
    references: Sequence[Sequence[Hashable]],
    max_n: int = BLEU_MAX_N,
) -> float:
    """Corpus BLEU (Papineni et al. 2002) with one reference per candidate and uniform weights.

    Clipped n-gram matches and candidate n-gram counts are summed over the whole corpus before
    the precisions are taken (not averaged per sentence); the brevity penalty compares the total
    candidate length c with the total reference length r: exp(1 - r/c) when c <= r. No
    smoothing: a corpus without a single matching n-gram of some order scores 0.
    """
    if len(candidates) != len(references):
        raise ValueError(f"{len(candidates)} candidates but {len(references)} references")
    matches = [0] * max_n
    totals = [0] * max_n
    for candidate, reference in zip(candidates, references):
        for n in range(1, max_n + 1):
            candidate_ngrams = _ngrams(candidate, n)
            matches[n - 1] += sum((candidate_ngrams & _ngrams(reference, n)).values())
            totals[n - 1] += sum(candidate_ngrams.values())
    if min(matches) == 0:
        return 0.0
    log_precision = sum(math.log(m / t) for m, t in zip(matches, totals)) / max_n
    candidate_length = sum(len(c) for c in candidates)
    reference_length = sum(len(r) for r in references)
    brevity = 1.0 if candidate_length > reference_length else math.exp(
        1.0 - reference_length / candidate_length
    )
    return brevity * math.exp(log_precision)


def latex_corpus_bleu(predictions: Sequence[str], truths: Sequence[str]) -> float:
    """Corpus BLEU-4 over the normalised tokens of each prediction and its truth."""
    return corpus_bleu([normalized(p) for p in predictions], [normalized(t) for t in truths])
