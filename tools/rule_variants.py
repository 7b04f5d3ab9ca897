"""A variant of an engine rule set from `NAME=value` text (a tool's `--set`), built with
`dataclasses.replace` and passed to the code under test: nothing in the engine is changed
(STYLE habit 20, docs/adr/0026-rules-as-data.md)."""

from __future__ import annotations

from dataclasses import fields, replace
from typing import TypeVar

Rules = TypeVar("Rules")


def with_changes(rules: Rules, assignments: list[str]) -> Rules:
    """`rules` with each `NAME=value` field changed, the value of the field's own type (an int
    field stays an int); an unknown name ends the run naming the fields there are."""
    names = {f.name for f in fields(rules)}
    changes = {}
    for assignment in assignments:
        name, _, value = assignment.partition("=")
        if name not in names:
            known = ", ".join(sorted(names))
            raise SystemExit(f"{type(rules).__name__} has no {name!r}; it has {known}")
        changes[name] = type(getattr(rules, name))(float(value))
    return replace(rules, **changes)
