"""The document JSON: what `--format json` writes, the service serves and the MCP server returns,
with the `schema_version` of the JSON Schema in engine/output/schema/ that describes it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from engine.types import DocumentResult

SCHEMA_VERSION = "1.0"
"""major.minor of the document JSON and the content list (docs/api.md): a field or value
added is a minor step, one removed, renamed or changed in meaning a major one."""

SCHEMA_DIR = Path(__file__).resolve().parent / "schema"
DOCUMENT_SCHEMA = SCHEMA_DIR / "document.schema.json"
CONTENT_LIST_SCHEMA = SCHEMA_DIR / "content_list.schema.json"


def document_json(result: DocumentResult) -> dict[str, Any]:
    """What was read, never how long it took (the same input gives the same bytes); the
    Markdown is its own file."""
    data = result.to_json()
    data.pop("markdown", None)
    data.pop("timings_s", None)
    for page in data["pages"]:
        page.pop("timings_s", None)
    return {"schema_version": SCHEMA_VERSION, **data}


def load_schema(path: Path) -> dict[str, Any]:
    """One of the schema files, parsed (for a validator; jsonschema is not a dependency)."""
    return json.loads(path.read_text(encoding="utf-8"))
