"""GitHub-flavoured Markdown tables: the one writer behind every generated results table."""

from __future__ import annotations

from collections.abc import Sequence


def gfm_table(headers: Sequence[str], rows: Sequence[Sequence[str]], left: int = 1) -> str:
    """A pipe table; the first `left` columns are left-aligned, the rest right-aligned."""
    rule = [" --- "] * left + [" ---: "] * (len(headers) - left)
    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join(rule) + "|"]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)
