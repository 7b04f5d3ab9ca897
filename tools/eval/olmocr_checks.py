"""olmOCR-bench fact checks (present, absent, order, table, math, baseline, format) on Markdown."""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from tools.eval.edit_distance import best_substring_distance, find_approximate, levenshtein
from tools.eval.formula import contains_formula, formula_similarity
from tools.eval.markdown_text import math_spans, strip_emphasis
from tools.eval.tables import PlacedCell, all_tables, place_cells


class FactFileError(ValueError):
    """A line of a facts file is not valid JSON or lacks a field its type needs."""


@dataclass(frozen=True)
class FactResult:
    """The outcome of one fact: `reason` says why it failed ("" when it passed)."""

    id: str
    type: str
    passed: bool
    reason: str = ""


_BR = re.compile(r"<br\s*/?>", re.IGNORECASE)
_INLINE_STYLE_TAG = re.compile(r"</?(?:b|i|strong|em)>", re.IGNORECASE)
_WHITESPACE = re.compile(r"\s+")
# Typographic variants that OCR tools and PDFs spell either way.
_CHAR_MAP = str.maketrans(
    {
        "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u2032": "'",
        "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u201f": '"', "\u2033": '"',
        "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2014": "-",
        "\u2015": "-", "\u2212": "-", "\uff3f": "_", "\u00b5": "\u03bc", "\u00a0": " ",
    }
)  # fmt: skip


def normalize_fact_text(text: str) -> str:
    """olmOCR-bench style normalisation: no emphasis or `<br>`, one space, plain quotes/dashes."""
    text = _BR.sub(" ", text)
    text = _INLINE_STYLE_TAG.sub("", strip_emphasis(text))
    text = unicodedata.normalize("NFC", text).translate(_CHAR_MAP)
    text = text.replace("\u2026", "...")
    return _WHITESPACE.sub(" ", text)


def _required(fact: dict, field: str) -> str:
    value = fact.get(field)
    if not isinstance(value, str) or not value.strip():
        raise FactFileError(
            f"fact {fact.get('id', '?')!r} ({fact.get('type')}) needs a non-empty {field!r}"
        )
    return value


def _case(fact: dict, *texts: str) -> list[str]:
    """Lower-case the texts when the fact says `case_sensitive: false` (default: sensitive)."""
    if fact.get("case_sensitive", True):
        return list(texts)
    return [text.lower() for text in texts]


def check_presence(fact: dict, markdown: str) -> tuple[bool, str]:
    """`present`/`absent`: the text occurs (or not) within `max_diffs` character edits."""
    query = normalize_fact_text(_required(fact, "text")).strip()
    max_diffs = int(fact.get("max_diffs", 0))
    content = normalize_fact_text(markdown)
    query, content = _case(fact, query, content)
    first_n, last_n = fact.get("first_n"), fact.get("last_n")
    if first_n and last_n:
        content = content[:first_n] + content[-last_n:]
    elif first_n:
        content = content[:first_n]
    elif last_n:
        content = content[-last_n:]
    found = best_substring_distance(query, content) <= max_diffs
    want_present = fact["type"] == "present"
    if found == want_present:
        return True, ""
    if want_present:
        best = best_substring_distance(query, content)
        return False, f"not found: {query[:50]!r} (best {best} edits, allowed {max_diffs})"
    return False, f"found but should be absent: {query[:50]!r}"


def check_order(fact: dict, markdown: str) -> tuple[bool, str]:
    """`order`: some match of `before` starts before some match of `after`."""
    before = normalize_fact_text(_required(fact, "before")).strip()
    after = normalize_fact_text(_required(fact, "after")).strip()
    max_diffs = int(fact.get("max_diffs", 0))
    before, after, content = _case(fact, before, after, normalize_fact_text(markdown))
    before_matches = find_approximate(before, content, max_diffs)
    if not before_matches:
        return False, f"'before' not found: {before[:50]!r}"
    after_matches = find_approximate(after, content, max_diffs)
    if not after_matches:
        return False, f"'after' not found: {after[:50]!r}"
    if min(m.start for m in before_matches) < max(m.start for m in after_matches):
        return True, ""
    return False, f"{before[:30]!r} comes after {after[:30]!r}"


def _neighbours(
    grid: list[list[int | None]], cell: PlacedCell, index: int, step: tuple[int, int]
) -> set[int]:
    """Cells next to `cell` in one direction (several when spans make the edge uneven)."""
    d_row, d_col = step
    height, width = len(grid), len(grid[0]) if grid else 0
    if d_col:
        lanes = [(r, None) for r in range(cell.row, cell.row + cell.rowspan)]
        start = cell.col + cell.colspan if d_col > 0 else cell.col - 1
    else:
        lanes = [(None, c) for c in range(cell.col, cell.col + cell.colspan)]
        start = cell.row + cell.rowspan if d_row > 0 else cell.row - 1
    found: set[int] = set()
    for lane_row, lane_col in lanes:
        position = start
        while 0 <= position < (width if d_col else height):
            slot = grid[lane_row][position] if d_col else grid[position][lane_col]
            if slot is not None and slot != index:
                found.add(slot)
                break
            position += d_col or d_row
    return found


def _heading_cells(
    grid: list[list[int | None]], cells: list[PlacedCell], index: int, step: tuple[int, int]
) -> set[int]:
    """Walk up (or left) from a cell: the heading cells met, or the edge cells if none."""
    headings, edges, seen, todo = set(), set(), set(), [index]
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        if cells[current].is_heading:
            headings.add(current)
        nexts = _neighbours(grid, cells[current], current, step)
        if nexts:
            todo.extend(nexts)
        else:
            edges.add(current)
    headings.discard(index)
    edges.discard(index)
    return headings or edges


_DIRECTIONS = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}
_HEADINGS = {"top_heading": (-1, 0), "left_heading": (0, -1)}


def check_table(fact: dict, markdown: str) -> tuple[bool, str]:
    """`table`: a cell with this text whose neighbours and headings match the fact."""
    target = normalize_fact_text(_required(fact, "cell")).strip()
    max_diffs = int(fact.get("max_diffs", 0))
    wanted = {
        key: normalize_fact_text(fact[key]).strip()
        for key in (*_DIRECTIONS, *_HEADINGS)
        if isinstance(fact.get(key), str) and fact[key].strip()
    }

    def same(expected: str, actual: str) -> bool:
        return levenshtein(expected, normalize_fact_text(actual).strip()) <= max_diffs

    tables = all_tables(markdown)
    if not tables:
        return False, "no table in the output"
    misses: list[str] = []
    for table in tables:
        cells, grid = place_cells(table)
        for index, cell in enumerate(cells):
            if not same(target, cell.text):
                continue
            failed = []
            for key, expected in wanted.items():
                if key in _DIRECTIONS:
                    related = _neighbours(grid, cell, index, _DIRECTIONS[key])
                else:
                    related = _heading_cells(grid, cells, index, _HEADINGS[key])
                if not any(same(expected, cells[other].text) for other in related):
                    seen = sorted(cells[other].text for other in related)
                    failed.append(f"{key} is {seen} not {expected!r}")
            if not failed:
                return True, ""
            misses.extend(failed)
    if not misses:
        return False, f"no cell {target!r} in {len(tables)} table(s)"
    return False, "; ".join(misses[:3])


def check_math(fact: dict, markdown: str) -> tuple[bool, str]:
    """`math`: the LaTeX appears in a math span, compared after light normalisation.

    olmOCR-bench compares renderings; without a renderer we accept an exact span or one
    whose normalised tokens contain the fact's tokens.
    """
    latex = _required(fact, "math").strip()
    spans = math_spans(markdown)
    if not spans:
        return False, "no math spans in the output"
    if any(span == latex or contains_formula(span, latex) for span in spans):
        return True, ""
    best = max(formula_similarity(span, latex) for span in spans)
    return False, f"no span matches {latex[:40]!r} (best token similarity {best:.2f})"


_DISALLOWED_CHARS = re.compile(
    "[\u4e00-\u9fff\u3040-\u309f\u30a0-\u30ff"
    "\U0001f600-\U0001f64f\U0001f300-\U0001f5ff\U0001f680-\U0001f6ff\U0001f1e0-\U0001f1ff]"
)
_IMAGE_TAG = re.compile(r"!\[.*?\]\(.*?\)")


def _trailing_repeats(text: str, size: int) -> int:
    """How many times the last `size` characters repeat back to back at the end of `text`."""
    if len(text) < size:
        return 0
    unit, count, end = text[-size:], 0, len(text)
    while end >= size and text[end - size : end] == unit:
        count += 1
        end -= size
    return count


def check_baseline(fact: dict, markdown: str) -> tuple[bool, str]:
    """`baseline`: output is not blank, not looping at its end, and has no stray scripts/emoji."""
    counted = markdown
    if fact.get("max_length_skips_image_alt_tags"):
        counted = _IMAGE_TAG.sub("", markdown)
    alnum = sum(1 for char in counted if char.isalnum())
    max_length = fact.get("max_length")
    if max_length is not None:
        if alnum > max_length:
            return False, f"{alnum} characters on a page expected to be blank"
        return True, ""
    if alnum == 0:
        return False, "no letters or digits in the output"
    max_repeats = int(fact.get("max_repeats", 30))
    for size in range(1, 6):
        repeats = _trailing_repeats(markdown.rstrip(), size)
        if repeats > max_repeats:
            return False, f"ends with {repeats} repeats of a {size}-character unit"
    if fact.get("check_disallowed_characters", True):
        stray = _DISALLOWED_CHARS.findall(markdown)
        if stray:
            return False, f"contains disallowed characters {''.join(stray[:10])!r}"
    return True, ""


_FORMAT_PATTERNS = {
    "heading": (r"^#{1,6}\s+(.+?)$", r"<h[1-6][^>]*>(.*?)</h[1-6]>"),
    "bold": (r"\*\*(.*?)\*\*", r"__(.*?)__", r"<b[^>]*>(.*?)</b>", r"<strong[^>]*>(.*?)</strong>"),
    "italic": (
        r"(?<!\*)\*(?!\*)(.*?)(?<!\*)\*(?!\*)",
        r"(?<!_)_(?!_)(.*?)(?<!_)_(?!_)",
        r"<i[^>]*>(.*?)</i>",
        r"<em[^>]*>(.*?)</em>",
    ),
}


def check_format(fact: dict, markdown: str) -> tuple[bool, str]:
    """`format`: the text appears as a heading, in bold or in italics (`format` field)."""
    style = _required(fact, "format")
    if style not in _FORMAT_PATTERNS:
        raise FactFileError(f"fact {fact.get('id')!r}: unknown format {style!r}")
    query = normalize_fact_text(_required(fact, "text")).strip()
    max_diffs = int(fact.get("max_diffs", 0))
    spans = [
        text
        for pattern in _FORMAT_PATTERNS[style]
        for text in re.findall(pattern, markdown, re.MULTILINE | re.IGNORECASE | re.DOTALL)
    ]
    for span in spans:
        query_cased, span_cased = _case(fact, query, normalize_fact_text(span))
        if best_substring_distance(query_cased, span_cased) <= max_diffs:
            return True, ""
    return False, f"{query[:40]!r} not found as {style} ({len(spans)} {style} spans)"


CHECKS: dict[str, Callable[[dict, str], tuple[bool, str]]] = {
    "present": check_presence,
    "absent": check_presence,
    "order": check_order,
    "table": check_table,
    "math": check_math,
    "baseline": check_baseline,
    "format": check_format,
}


def parse_facts(lines: Iterable[str]) -> list[dict]:
    """Facts from JSONL lines; blank lines skipped, facts marked `checked: rejected` dropped."""
    facts = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            fact = json.loads(line)
        except json.JSONDecodeError as error:
            raise FactFileError(f"line {number}: not JSON ({error.msg})") from error
        if not isinstance(fact, dict) or "type" not in fact:
            raise FactFileError(f"line {number}: a fact must be an object with a 'type'")
        if fact.get("checked") == "rejected":
            continue  # olmOCR-bench leaves rejected facts out of the score
        facts.append(fact)
    return facts


def olmocr_score(
    pred_md: str, tests_jsonl_lines: Iterable[str]
) -> tuple[int, int, list[FactResult]]:
    """Run every fact against the Markdown: (passed, total, one result per fact).

    A fact of a type this module does not know counts as failed, with the reason saying so,
    so that an unscored fact can never raise a score.
    """
    results = []
    for fact in parse_facts(tests_jsonl_lines):
        check = CHECKS.get(fact["type"])
        if check is None:
            passed, reason = False, f"unsupported fact type {fact['type']!r}"
        else:
            passed, reason = check(fact, pred_md)
        results.append(FactResult(str(fact.get("id", "")), fact["type"], passed, reason))
    return sum(r.passed for r in results), len(results), results
