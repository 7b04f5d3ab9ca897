"""Our Markdown's headings matched to the truth's, and how many have the truth's level.

A truth heading is found when an unused predicted heading reads like it (the same text
similarity and threshold as `make eval`'s heading recall, tools/eval/scoring.py). Levels are
compared after ranking within the document: each document's distinct levels among its matched
headings, in order, become 1, 2, 3 ..., on both sides. The sets' truths write levels by their own
conventions (a structure page's section titles are `###` under a `#` title with no `##`
between; an article's title is `#` above `## 1 ...`), and what a reader, a table of contents or
an outline shows is which titles are above, beside and below which others, not the count of
`#`. Ranking keeps every error that matters: a subsection set beside its section, a section
under another, a page that guessed its own level. The absolute level agreement is reported too.
"""

from __future__ import annotations

from dataclasses import dataclass

from tools.eval.edit_distance import similarity
from tools.eval.markdown_text import headings
from tools.eval.scoring import HEADING_MATCH_MIN


@dataclass(frozen=True)
class HeadingScore:
    """One document: its truth and predicted headings, and the pairs matched between them."""

    truth: tuple[tuple[int, str], ...]
    predicted: tuple[tuple[int, str], ...]
    pairs: tuple[tuple[int, int], ...]
    """(index in truth, index in predicted) of each match, in truth order."""

    def ranked_levels(self) -> list[tuple[int, int]]:
        """(truth rank, predicted rank) of each matched pair: levels ranked within the
        document's matched headings."""
        truth_levels = [self.truth[t][0] for t, _ in self.pairs]
        predicted_levels = [self.predicted[p][0] for _, p in self.pairs]
        return list(zip(_ranks(truth_levels), _ranks(predicted_levels)))

    def row(self) -> dict:
        ranked = self.ranked_levels()
        return {
            "truth": len(self.truth), "predicted": len(self.predicted),
            "matched": len(self.pairs),
            "same_rank": sum(t == p for t, p in ranked),
            "same_level": sum(self.truth[t][0] == self.predicted[p][0] for t, p in self.pairs),
            "missed": [text for index, (_, text) in enumerate(self.truth)
                       if index not in {t for t, _ in self.pairs}],
            "wrong_level": [[self.truth[t][1], truth_rank, predicted_rank]  # ranks
                            for (t, _), (truth_rank, predicted_rank) in zip(self.pairs, ranked)
                            if truth_rank != predicted_rank],
        }


def _ranks(levels: list[int]) -> list[int]:
    order = {level: rank for rank, level in enumerate(sorted(set(levels)), start=1)}
    return [order[level] for level in levels]


def score_headings(predicted_md: str, truth_md: str) -> HeadingScore:
    """Each truth heading, in order, matched to the most similar unused predicted heading at
    or above HEADING_MATCH_MIN."""
    truth, predicted = tuple(headings(truth_md)), tuple(headings(predicted_md))
    used: set[int] = set()
    pairs = []
    for t, (_, wanted) in enumerate(truth):
        scored = [(similarity(wanted, text), p) for p, (_, text) in enumerate(predicted)
                  if p not in used]
        best, p = max(scored, key=lambda s: (s[0], -s[1]), default=(0.0, -1))
        if best >= HEADING_MATCH_MIN:
            used.add(p)
            pairs.append((t, p))
    return HeadingScore(truth, predicted, tuple(pairs))


def summary(rows: list[dict]) -> dict:
    """Recall, precision and level accuracy (ranked, and absolute) over documents' rows."""
    truth = sum(r["truth"] for r in rows)
    predicted = sum(r["predicted"] for r in rows)
    matched = sum(r["matched"] for r in rows)

    def share(part: int, whole: int) -> float | None:
        return round(part / whole, 4) if whole else None

    return {"documents": len(rows), "truth": truth, "predicted": predicted, "matched": matched,
            "recall": share(matched, truth), "precision": share(matched, predicted),
            "level_accuracy": share(sum(r["same_rank"] for r in rows), matched),
            "absolute_level_accuracy": share(sum(r["same_level"] for r in rows), matched)}
