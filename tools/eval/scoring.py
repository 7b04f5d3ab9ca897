"""Scores of one tool output against its truth: text, lines, headings, tables, formulas, facts."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from tools.eval.edit_distance import similarity
from tools.eval.formula import exact_match, formula_similarity
from tools.eval.markdown_text import (
    canonical_math,
    first_display_math,
    heading_texts,
    math_spans,
    strip_markdown,
    stripped_lines,
)
from tools.eval.olmocr_checks import FactResult, olmocr_score
from tools.eval.tables import first_table_html, markdown_table_to_html, pipe_tables, table_to_html
from tools.eval.teds import teds, teds_structure

__all__ = [
    "ItemScore",
    "PRIMARY_METRIC",
    "TRUTH_FORMATS",
    "exact_match",
    "formula_similarity",
    "heading_recall",
    "line_f1",
    "markdown_table_to_html",
    "olmocr_score",
    "score_output",
    "strip_markdown",
    "teds",
    "teds_structure",
    "text_exact_match",
    "text_kept",
    "text_similarity",
]

# A truth heading counts as found when a predicted heading is at least this similar.
HEADING_MATCH_MIN = 0.8


def text_similarity(pred_md: str, truth: str) -> float:
    """1 - character edit distance / longer length, after stripping Markdown from both.

    1.0 when both are empty after stripping, 0.0 when only one is.
    """
    return similarity(strip_markdown(canonical_math(pred_md)),
                      strip_markdown(canonical_math(truth)))


def text_kept(pred_md: str, truth: str) -> float:
    """The share of the truth's characters (spaces aside, after stripping Markdown) that the
    output holds, in any order: what a page kept, where text_similarity also scores its order.

    1.0 when the truth has no character.
    """
    wanted = Counter(c for c in strip_markdown(canonical_math(truth)) if not c.isspace())
    held = Counter(c for c in strip_markdown(canonical_math(pred_md)) if not c.isspace())
    total = sum(wanted.values())
    return 1.0 if total == 0 else sum((wanted & held).values()) / total


def text_exact_match(pred_md: str, truth: str) -> float:
    """1.0 when the stripped texts are identical, else 0.0."""
    return float(strip_markdown(canonical_math(pred_md)) == strip_markdown(canonical_math(truth)))


def line_f1(pred: str, truth: str) -> float:
    """F1 of the multiset of normalised non-empty lines, ignoring their order.

    1.0 when neither has a line, 0.0 when only one has.
    """
    pred_lines = Counter(stripped_lines(canonical_math(pred)))
    truth_lines = Counter(stripped_lines(canonical_math(truth)))
    pred_total, truth_total = sum(pred_lines.values()), sum(truth_lines.values())
    if pred_total == 0 and truth_total == 0:
        return 1.0
    matched = sum((pred_lines & truth_lines).values())
    if matched == 0:
        return 0.0
    precision, recall = matched / pred_total, matched / truth_total
    return 2 * precision * recall / (precision + recall)


def heading_recall(pred_md: str, truth_md: str) -> float | None:
    """Share of truth headings found as headings in the prediction (similarity >= 0.8).

    None when the truth has no heading, because there is nothing to recall.
    """
    truth_headings = heading_texts(truth_md)
    if not truth_headings:
        return None
    pred_headings = heading_texts(pred_md)
    found = sum(
        1
        for heading in truth_headings
        if any(similarity(heading, pred) >= HEADING_MATCH_MIN for pred in pred_headings)
    )
    return found / len(truth_headings)


def _markdown_tables_teds(pred_md: str, truth_md: str) -> float | None:
    """Mean TEDS of the truth's pipe tables against the prediction's tables, paired in order."""
    truth_tables = [table_to_html(table) for table in pipe_tables(truth_md)]
    if not truth_tables:
        return None
    pred_tables = [table_to_html(table) for table in pipe_tables(pred_md)]
    scores = [
        teds(pred_tables[index], truth) if index < len(pred_tables) else 0.0
        for index, truth in enumerate(truth_tables)
    ]
    return sum(scores) / len(scores)


def _formula_of(pred_md: str) -> str:
    """The formula in a formula crop's output: first display math, else first math span,
    else the whole output."""
    display = first_display_math(pred_md)
    if display is not None:
        return display
    spans = math_spans(pred_md)
    return spans[0] if spans else pred_md.strip()


@dataclass(frozen=True)
class ItemScore:
    """The primary score of one item, the metric it came from, and secondary metrics."""

    primary_metric: str
    primary: float
    metrics: dict[str, float] = field(default_factory=dict)
    facts: tuple[FactResult, ...] = ()


# The metric that gives each truth format its primary score.
PRIMARY_METRIC = {
    "markdown": "text_similarity",
    "text": "text_similarity",
    "html": "teds",
    "latex": "formula_similarity",
    "olmocr_tests": "facts_pass_rate",
}
TRUTH_FORMATS = tuple(PRIMARY_METRIC)


def score_output(pred_md: str, truth: str, truth_format: str) -> ItemScore:
    """Score a tool's Markdown against a truth file's content in its `truth_format`."""
    if truth_format in ("markdown", "text"):
        metrics = {
            "text_similarity": text_similarity(pred_md, truth),
            "line_f1": line_f1(pred_md, truth),
        }
        if truth_format == "text":
            metrics["exact_match"] = text_exact_match(pred_md, truth)
        else:
            optional = {
                "heading_recall": heading_recall(pred_md, truth),
                "table_teds": _markdown_tables_teds(pred_md, truth),
            }
            metrics.update({k: v for k, v in optional.items() if v is not None})
        return ItemScore("text_similarity", metrics["text_similarity"], metrics)
    if truth_format == "html":
        table = first_table_html(pred_md) or pred_md
        metrics = {"teds": teds(table, truth), "teds_structure": teds_structure(table, truth)}
        return ItemScore("teds", metrics["teds"], metrics)
    if truth_format == "latex":
        formula = _formula_of(pred_md)
        metrics = {
            "formula_similarity": formula_similarity(formula, truth),
            "exact_match": exact_match(formula, truth),
        }
        return ItemScore("formula_similarity", metrics["formula_similarity"], metrics)
    if truth_format == "olmocr_tests":
        passed, total, facts = olmocr_score(pred_md, truth.splitlines())
        if total == 0:
            raise ValueError("the facts file holds no fact to check")
        metrics = {}
        for fact_type in sorted({fact.type for fact in facts}):
            of_type = [fact for fact in facts if fact.type == fact_type]
            metrics[f"facts_{fact_type}"] = sum(f.passed for f in of_type) / len(of_type)
        return ItemScore("facts_pass_rate", passed / total, metrics, tuple(facts))
    raise ValueError(f"unknown truth_format {truth_format!r}; expected one of {TRUTH_FORMATS}")
