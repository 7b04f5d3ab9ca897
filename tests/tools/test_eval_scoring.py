"""Text metrics on hand-made Markdown: stripping, similarity, line F1, heading recall."""

import time

import pytest

from tools.eval.scoring import (
    heading_recall,
    line_f1,
    score_output,
    strip_markdown,
    text_exact_match,
    text_similarity,
)


def test_strip_markdown_removes_syntax_and_keeps_words():
    markdown = """# Title

Some **bold** and *italic* and _under_ text with a [link](http://x.org) and ![a chart](c.png).

- first item
2. second item
> quoted

| a | b |
|---|:-:|
| 1 | 2 |

<!-- image -->
```python
print("hi")
```
<p>html <b>para</b></p>
"""
    assert strip_markdown(markdown) == (
        "Title Some bold and italic and under text with a link and . first item second item "
        "quoted a b 1 2 print(\"hi\") html para"
    )


def test_strip_markdown_keeps_math_and_snake_case():
    assert strip_markdown("x_i and y_j, S^*P") == "x_i and y_j, S^*P"
    assert strip_markdown("file_name_here") == "file_name_here"


def test_strip_markdown_normalises_whitespace_and_width():
    assert strip_markdown("  a \n\n\t b  ") == "a b"
    assert strip_markdown("中文，标点") == "中文,标点"


def test_text_similarity_identical_empty_and_known_distance():
    assert text_similarity("## Hello world", "Hello world") == 1.0
    assert text_similarity("", "") == 1.0
    assert text_similarity("", "text") == 0.0
    assert text_similarity("text", "") == 0.0
    assert text_similarity("kitten", "sitting") == pytest.approx(1 - 3 / 7)


def test_text_similarity_is_fast_on_long_documents():
    truth = ("The quick brown fox jumps over the lazy dog. " * 450)[:20000]
    pred = truth.replace("lazy", "lazi")
    started = time.perf_counter()
    score = text_similarity(pred, truth)
    assert time.perf_counter() - started < 3.0
    assert score == pytest.approx(1 - truth.count("lazy") / len(truth.strip()))


def test_line_f1():
    truth = "alpha\nbeta\ngamma\n"
    assert line_f1(truth, truth) == 1.0
    assert line_f1("gamma\nalpha\nbeta", truth) == 1.0  # order does not matter
    assert line_f1("", truth) == 0.0
    assert line_f1("", "") == 1.0
    # 2 of 3 predicted lines match 2 of 3 truth lines: P = R = 2/3.
    assert line_f1("alpha\n\n**beta**\ndelta", truth) == pytest.approx(2 / 3)


def test_heading_recall():
    truth = "# Introduction\ntext\n## Related Work\nmore\n### Method"
    assert heading_recall(truth, truth) == 1.0
    assert heading_recall("# Introduction\n## Related Wrk\nMethod", truth) == pytest.approx(2 / 3)
    assert heading_recall("Introduction", truth) == 0.0
    assert heading_recall("# anything", "no headings here") is None


def test_text_exact_match():
    assert text_exact_match("**Hello**  world", "Hello world") == 1.0
    assert text_exact_match("Hello", "Hallo") == 0.0


def test_score_output_dispatches_on_truth_format():
    assert score_output("a b", "a b", "text").primary == 1.0
    markdown = score_output("# T\n\nbody", "# T\n\nbody", "markdown")
    assert markdown.primary_metric == "text_similarity"
    assert markdown.metrics["heading_recall"] == 1.0
    one_cell = "<table><tr><td>1</td></tr></table>"
    table = score_output(one_cell, one_cell, "html")
    assert (table.primary_metric, table.primary) == ("teds", 1.0)
    formula = score_output("Result:\n\n$$x^{2}$$\n", "x^2", "latex")
    assert (formula.primary_metric, formula.primary) == ("formula_similarity", 1.0)
    with pytest.raises(ValueError, match="unknown truth_format"):
        score_output("", "", "pdf")


def test_score_output_facts_pass_rate():
    facts = '{"pdf": "x.pdf", "page": 1, "id": "a", "type": "present", "text": "hello"}\n' \
            '{"pdf": "x.pdf", "page": 1, "id": "b", "type": "absent", "text": "bye"}\n'
    scored = score_output("hello and bye", facts, "olmocr_tests")
    assert scored.primary == 0.5
    assert scored.metrics == {"facts_absent": 0.0, "facts_present": 1.0}
