"""olmOCR-bench fact checks on a hand-made Markdown page."""

import json

import pytest

from tools.eval.olmocr_checks import FactFileError, normalize_fact_text, olmocr_score

PAGE = """# Annual “Report” — 2024

The **quick** brown fox jumps over the lazy dog.

Second paragraph comes later.

| Item | 2024 | 2023 |
|------|------|------|
| Revenue | 1,136 | 876 |
| Costs | 680 | 141 |

<table><thead><tr><th colspan="2">Year Ended</th></tr><tr><th>Jan</th><th>Feb</th></tr></thead>
<tbody><tr><td>10</td><td>20</td></tr></tbody></table>

$$\\int_{a}^{b} f(x)\\,dx = F(b) - F(a)$$ and inline $e^{i\\pi}+1=0$.

Page 62
"""


def run(fact: dict) -> tuple[bool, str]:
    fact = {"pdf": "page.pdf", "page": 1, "id": "t", **fact}
    passed, total, (result,) = olmocr_score(PAGE, [json.dumps(fact)])
    assert total == 1
    return bool(passed), result.reason


@pytest.mark.parametrize(
    ("fact", "expected"),
    [
        ({"type": "present", "text": "The quick brown fox jumps"}, True),  # emphasis removed
        ({"type": "present", "text": 'Annual "Report" - 2024'}, True),  # quotes and dashes
        ({"type": "present", "text": "The quick brown fax jumps"}, False),
        ({"type": "present", "text": "The quick brown fax jumps", "max_diffs": 1}, True),
        ({"type": "present", "text": "the QUICK brown", "case_sensitive": False}, True),
        ({"type": "present", "text": "the QUICK brown"}, False),
        ({"type": "absent", "text": "Page 62"}, False),
        ({"type": "absent", "text": "Page 99"}, True),
        ({"type": "absent", "text": "fox", "last_n": 10}, True),  # only the page end counts
        ({"type": "absent", "text": "62", "last_n": 10}, False),
    ],
)
def test_presence(fact, expected):
    assert run(fact)[0] is expected


def test_order():
    assert run({"type": "order", "before": "quick brown fox", "after": "Second paragraph"})[0]
    passed, reason = run(
        {"type": "order", "before": "Second paragraph", "after": "quick brown fox"}
    )
    assert not passed and "comes after" in reason
    fuzzy = {"before": "quick brawn fox", "after": "Secnd paragraph", "max_diffs": 1}
    assert run({"type": "order", **fuzzy})[0]
    passed, reason = run({"type": "order", "before": "missing words", "after": "Second paragraph"})
    assert not passed and "'before' not found" in reason


@pytest.mark.parametrize(
    ("fact", "expected"),
    [
        ({"cell": "1,136", "left": "Revenue", "right": "876", "down": "680"}, True),
        ({"cell": "1,136", "top_heading": "2024", "left_heading": "Revenue"}, True),
        ({"cell": "680", "up": "1,136"}, True),
        ({"cell": "680", "up": "876"}, False),
        ({"cell": "1,136", "top_heading": "2023"}, False),
        ({"cell": "Revenue"}, True),
        ({"cell": "Profit"}, False),
        # HTML table: th headings, colspan header spans both columns.
        ({"cell": "20", "top_heading": "Year Ended"}, True),
        ({"cell": "20", "top_heading": "Feb"}, True),
        ({"cell": "20", "left": "10", "up": "Feb"}, True),
        ({"cell": "Feb", "up": "Year Ended", "left": "Jan"}, True),
    ],
)
def test_table(fact, expected):
    assert run({"type": "table", **fact})[0] is expected


def test_table_without_tables_fails_with_reason():
    passed, total, (result,) = olmocr_score(
        "plain text", ['{"pdf": "p", "page": 1, "id": "t", "type": "table", "cell": "x"}']
    )
    assert (passed, total, result.reason) == (0, 1, "no table in the output")


def test_math():
    assert run({"type": "math", "math": "\\int_{a}^{b} f(x) d x=F(b)-F(a)"})[0]
    assert run({"type": "math", "math": "e^{i \\pi}+1=0"})[0]
    assert not run({"type": "math", "math": "a^{2}+b^{2}=c^{2}"})[0]


def test_baseline():
    assert run({"type": "baseline"})[0]
    passed, total, _ = olmocr_score("", ['{"pdf": "p", "page": 1, "id": "b", "type": "baseline"}'])
    assert passed == 0
    looping = "text " + "la" * 40
    assert olmocr_score(looping, ['{"pdf": "p", "page": 1, "id": "b", "type": "baseline"}'])[0] == 0
    blank = '{"pdf": "p", "page": 1, "id": "b", "type": "baseline", "max_length": 5}'
    assert olmocr_score("ok", [blank])[0] == 1


def test_format():
    assert run({"type": "format", "text": "Annual", "format": "heading"})[0]
    assert run({"type": "format", "text": "quick", "format": "bold"})[0]
    assert not run({"type": "format", "text": "brown", "format": "bold"})[0]


def test_score_counts_skips_rejected_and_fails_unknown_types():
    lines = [
        '{"pdf": "p", "page": 1, "id": "1", "type": "present", "text": "lazy dog"}',
        "",
        '{"pdf": "p", "page": 1, "id": "2", "type": "present", "text": "cat",'
        ' "checked": "rejected"}',
        '{"pdf": "p", "page": 1, "id": "3", "type": "footnote", "marker": "1"}',
    ]
    passed, total, results = olmocr_score(PAGE, lines)
    assert (passed, total) == (1, 2)
    assert results[1].reason == "unsupported fact type 'footnote'"


def test_malformed_facts_raise():
    with pytest.raises(FactFileError, match="line 1"):
        olmocr_score(PAGE, ["{not json"])
    with pytest.raises(FactFileError, match="'text'"):
        olmocr_score(PAGE, ['{"id": "x", "type": "present"}'])


def test_normalize_fact_text():
    assert normalize_fact_text("a<br/>b  **c**\u2019s \u2013 \u00b5") == "a b c's - \u03bc"
