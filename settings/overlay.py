"""Changes kept in memory while the settings file cannot be written, replayed over each read."""

from __future__ import annotations

import copy
from typing import Any

from settings.schema import same_json

# A change is the path of keys to a value and the new value, or DELETED. Recording final values
# rather than the mutators that produced them makes replaying over a fresh read idempotent.
DELETED = object()
Overlay = dict[tuple[str, ...], object]


def diff(old: dict[str, Any], new: dict[str, Any], prefix: tuple[str, ...] = ()) -> Overlay:
    """The changes that turn `old` into `new`, as leaf assignments and deletions."""
    changes: Overlay = {}
    for key, value in new.items():
        here = prefix + (key,)
        if key not in old:
            changes[here] = copy.deepcopy(value)
        elif isinstance(old[key], dict) and isinstance(value, dict):
            changes.update(diff(old[key], value, here))
        elif not same_json(old[key], value):
            changes[here] = copy.deepcopy(value)
    for key in old:
        if key not in new:
            changes[prefix + (key,)] = DELETED
    return changes


def apply(raw: dict[str, Any], changes: Overlay) -> dict[str, Any]:
    """A copy of `raw` with `changes` applied; `raw` itself is left alone."""
    result = copy.deepcopy(raw)
    for path, value in changes.items():
        container = result
        for key in path[:-1]:
            child = container.get(key)
            if not isinstance(child, dict):
                if value is DELETED:
                    break
                child = container[key] = {}
            container = child
        else:
            if value is DELETED:
                container.pop(path[-1], None)
            else:
                container[path[-1]] = copy.deepcopy(value)
    return result
