"""The JSON Schemas of engine/output/schema/ as validators: every document JSON and content list
the test suite (tests/conftest.py) and the dev-set evaluation (tools/eval) write is checked
against them. jsonschema comes with the test extra; the app itself never validates."""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator

from engine.output.document_json import CONTENT_LIST_SCHEMA, DOCUMENT_SCHEMA, load_schema

CONTENT_LIST_SUFFIX = "_content_list.json"
_PASSED: set[tuple[bool, bytes]] = set()


@cache
def validator(schema: Path) -> Draft202012Validator:
    loaded = load_schema(schema)
    Draft202012Validator.check_schema(loaded)
    return Draft202012Validator(loaded)


def problems(data: Any, schema: Path) -> list[str]:
    """Each way `data` departs from the schema, as 'where: what' (none: it validates)."""
    return [f"{'/'.join(map(str, error.absolute_path)) or '(top)'}: {error.message}"
            for error in sorted(validator(schema).iter_errors(data), key=lambda e: e.path)]


def schema_for(name: str, data: Any) -> Path | None:
    """The schema a written JSON file answers to: a content list by its name, a document JSON
    by its shape: pages, and a schema_version or the document's path, kind and page count (any
    other JSON a test writes, a calibration report with its own schema_version among them, is
    not ours to check)."""
    if name.endswith(CONTENT_LIST_SUFFIX):
        return CONTENT_LIST_SCHEMA
    if isinstance(data, dict) and "pages" in data and (
            "schema_version" in data or {"path", "kind", "page_count"} <= data.keys()):
        return DOCUMENT_SCHEMA
    return None


def check_payload(name: str, data: bytes) -> list[str]:
    if not name.endswith(".json"):
        return []
    key = (name.endswith(CONTENT_LIST_SUFFIX), hashlib.sha256(data).digest())
    if key in _PASSED:  # checked when it was written, found again in its folder
        return []
    parsed = json.loads(data)
    schema = schema_for(name, parsed)
    found = [f"{name}: {p}" for p in problems(parsed, schema)] if schema else []
    if not found:
        _PASSED.add(key)
    return found


def check_folder(root: Path) -> list[str]:
    """Every document JSON and content list under `root` (what subprocesses wrote: the CLI,
    the service's workers, the MCP server), checked."""
    found = []
    for path in sorted(root.rglob("*.json")):
        if path.is_symlink() or not path.is_file():
            continue  # a test's named pipe or device: reading it would block
        try:
            data = path.read_bytes()
            json.loads(data)
        except (OSError, ValueError):
            continue  # a test's own broken file, or one being removed
        found.extend(f"{path.parent}/{p}" for p in check_payload(path.name, data))
    return found
