"""Heading recall, precision and level accuracy (tools/headings) and the sectioned math
documents they are measured on."""

from __future__ import annotations

import random

from tools.eval.markdown_text import headings
from tools.headings.readme import readme_markdown
from tools.headings.score import score_headings, summary
from tools.mathset.generate import OUTLINE, sectioned
from tools.structure.text_source import Prose

TRUTH = """# A Study of Levels

## 1 Introduction

Prose.

### 1.1 Background

#### 1.1.1 Earlier work

## 2 Methods
"""


def test_headings_keep_their_levels():
    assert headings("# One\n\ntext\n\n<h3>Three</h3>\n\n## **Two**\n") == [
        (1, "One"), (3, "Three"), (2, "Two")]


def test_levels_are_compared_after_ranking_within_the_document():
    # every level one deeper than the truth's: the same outline
    shifted = TRUTH.replace("# ", "## ")
    score = score_headings(shifted, TRUTH)
    row = score.row()
    assert (row["matched"], row["same_rank"], row["same_level"]) == (5, 5, 0)
    assert row["wrong_level"] == [] and row["missed"] == []


def test_a_subsection_beside_its_section_is_wrong_and_a_miss_is_a_miss():
    predicted = """# A Study of Levels\n\n## 1 Introduction\n\n## 1.1 Background\n
#### 1.1.1 Earlier work\n\n## Figure 3\n"""
    row = score_headings(predicted, TRUTH).row()
    assert row["missed"] == ["2 Methods"]
    assert row["wrong_level"] == [["1.1 Background", 3, 2], ["1.1.1 Earlier work", 4, 3]]  # ranks
    totals = summary([row])
    assert (totals["recall"], totals["precision"]) == (0.8, 0.8)
    assert totals["level_accuracy"] == 0.5


def test_an_empty_truth_has_no_recall():
    assert summary([score_headings("# Only ours\n", "No headings here.\n").row()])["recall"] is None


def test_a_sectioned_document_has_a_title_and_three_numbered_depths():
    prose = Prose(paragraphs=("A sentence that is long enough to hold an inline formula here. "
                              "Another sentence of the paragraph follows it closely.",),
                  titles=("Results of the study", "Storage & handling"))
    built = sectioned("doc", random.Random(3), prose, ["x^2", "a_{n}"], "cm")
    levels = [level for level, _ in headings(built.truth)]
    assert levels[0] == 1 and levels.count(1) == 1
    assert levels[1:] == [len(number) + 1 for number in OUTLINE]
    assert {2, 3, 4} <= set(levels)
    assert "\\maketitle" in built.tex and built.tex.count("\\subsubsection{") == sum(
        len(number) == 3 for number in OUTLINE)
    assert "Storage \\& handling" in built.tex  # TeX's specials escaped in titles


def test_the_readme_table_names_each_set_and_family():
    row = summary([score_headings(TRUTH, TRUTH).row()])
    table = readme_markdown({"seed": 7, "count": 3, "math_count": 2, "sets": {
        "math": {"all": row, "families": {"cm": row}}}})
    assert "| sectioned pdfLaTeX documents: all | 1 | 5 | 1.000 | 1.000 | 1.000 | 1.000 |" in table
    assert "Seed 7" in table
