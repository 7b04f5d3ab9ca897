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


FORMS = FormRules()
