"""File names as text that is safe to show: the control characters a name may hold (a newline
that forges a line of its own, an escape sequence that clears a terminal) written out as
escapes. The CLI shows every line through it; the service builds its upload names on it."""

from __future__ import annotations

import re

CONTROL_CHARACTERS = "\x00-\x1f\x7f-\x9f"
"""C0 controls, DEL and C1 controls (a regex character range): none of them is ever shown raw."""
_CONTROL = re.compile(f"[{CONTROL_CHARACTERS}]")


def shown(text: str) -> str:
    """`text` with each control character written as its escape (`\\n`, `\\x1b`)."""
    return _CONTROL.sub(lambda match: match.group().encode("unicode_escape").decode("ascii"),
                        text)
