"""When a page's short lines are a form's labels and values, read row by row
(engine/structure/forms.py), in one frozen set (STYLE habit 20). Widths are in the value's
average character width. Set by hand on the settings screenshots of tools/uishots, with the
dev set unchanged; none swept."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class FormRules:
    form_words: int = 4
    """A label and a value are short: at most this many words."""
    flush_chars: float = 1.0
    """The values' right edges agree within this width..."""
    min_form_rows: int = 2
    """...over this many rows, and this many rows pair a label with a value."""
    form_gap_chars: float = 4.0
    """A label and its value are apart by at least this width of blank."""
    justified_share: float = 0.75
    """A line is a column's, not a form's value, when at least this share as many single lines
    start where it starts as end where it ends, and at least `justified_lines`: a form's values
    end flush and start where their length puts them (the settings shots' "Off", "On", "512
    MB", "Documents": two start together, four end together), a column's lines start together.
    On a scanned broadsheet whose narrow justified columns came out a block per line, single
    lines of one column, and short last lines of paragraphs whose ends met by chance, were
    taken for the values of short lines level with them in the column to their left, and read
    across the columns (its similarity 0.958 -> 0.769)."""
    justified_lines: int = 3
    """(Two values of one length, "On" and "On", are no column.)"""


FORMS = FormRules()
