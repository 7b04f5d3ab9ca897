"""A form's rows read across: a label at the left and its value set flush right on the same row
(a settings page, a receipt) are read label, value, next label, not the labels' column and then
the values'. Only OCR lines (a screenshot, a scan): a text layer keeps its own order."""

from __future__ import annotations

from engine.structure.form_rules import FORMS, FormRules
from engine.structure.rows import level_with
from engine.types import Block, BlockKind, Line


def _line(block: Block, rules: FormRules) -> Line | None:
    if block.kind is not BlockKind.TEXT or len(block.lines) != 1:
        return None
    line = block.lines[0]
    return line if line.words and len(line.words) <= rules.form_words else None


def _char(line: Line) -> float:
    return line.box.width / max(len(line.text), 1)


def _column_line(value: Line, flush: list[Line], lines: list[Line], rules: FormRules) -> bool:
    """Whether `value` is a line of a column of text rather than a form's value: the page's
    single lines that start where it starts are at least `rules.justified_lines` and at least
    `rules.justified_share` of those that end where it ends (FormRules.justified_share)."""
    starts = sum(abs(ln.box.x0 - value.box.x0) <= rules.flush_chars * _char(value) for ln in lines)
    return starts >= rules.justified_lines and starts >= rules.justified_share * len(flush)


def read_rows_across(blocks: list[Block], rules: FormRules = FORMS) -> list[Block]:
    """`blocks` in reading order, each value right after its label where at least
    `rules.min_form_rows` rows pair a short label with a short value flush right with the
    others (engine/structure/form_rules.py)."""
    single = {i: ln for i, b in enumerate(blocks) if (ln := _line(b, rules)) is not None}
    pairs: dict[int, int] = {}
    for v, value in single.items():
        flush = [ln for ln in single.values()
                 if abs(ln.box.x1 - value.box.x1) <= rules.flush_chars * _char(value)]
        if len(flush) < rules.min_form_rows or _column_line(value, flush, list(single.values()),
                                                            rules):
            continue
        labels = [i for i, ln in single.items() if i != v and level_with(ln, value)
                  and value.box.x0 - ln.box.x1 >= rules.form_gap_chars * _char(value)]
        if len(labels) == 1:
            pairs[v] = labels[0]
    if len(pairs) < rules.min_form_rows:
        return blocks
    ordered = [b for i, b in enumerate(blocks) if i not in pairs]
    for v, label in sorted(pairs.items(), key=lambda kv: kv[1]):
        ordered.insert(ordered.index(blocks[label]) + 1, blocks[v])
    return ordered
