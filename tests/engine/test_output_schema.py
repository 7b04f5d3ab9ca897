"""The JSON Schemas of the document JSON and the content list: they are valid draft 2020-12
schemas, describe every field and value the engine writes, refuse what it does not, and never
change without a new schema_version."""

from __future__ import annotations

import hashlib
import json
import os
import threading
from dataclasses import replace
from pathlib import Path

import pytest

from engine.content.crops import Crop
from engine.content.formulas import Formula
from engine.output.content_list import content_list
from engine.output.document_json import (CONTENT_LIST_SCHEMA, DOCUMENT_SCHEMA, SCHEMA_DIR,
                                         SCHEMA_VERSION, document_json, load_schema)
from engine.types import (Block, BlockKind, Box, DocumentResult, Line, PageError, PageResult,
                          Span, Status, TextSource, Word)
from tools.json_schemas import problems
from table_samples import table_of

VERSIONS = Path(__file__).with_name("schema_versions.json")


def _every_kind_page(number: int) -> PageResult:
    box = Box(10.5, 20.25, 300.125, 60.0)
    line = Line("Hello world", box, score=0.98765, font_size=12.5, bold=True,
                words=(Word("Hello", Box(10, 20, 80, 60)), Word("world", Box(90, 20, 160, 60))))
    blocks = tuple(Block(kind, box, lines=(line,), text=f"{kind.value} text") for kind in BlockKind)
    blocks = tuple(
        replace(b, level=1) if b.kind in (BlockKind.TITLE, BlockKind.SECTION_HEADER) else
        replace(b, table=table_of("<table><tr><td>1</td></tr></table>"))
        if b.kind is BlockKind.TABLE else
        replace(b, formula=Formula("x^2", 0.9, "length"),
                crop=Crop("images/f.png")) if b.kind is BlockKind.FORMULA else
        replace(b, language="python") if b.kind is BlockKind.CODE else
        replace(b, spans=(Span("area "), Span("x2", latex="x^2", box=box, score=0.8),
                          Span(" here", box=None))) if b.kind is BlockKind.TEXT else b
        for b in blocks)
    return PageResult(page_number=number, width=1700, height=2200, dpi=200.0,
                      text_source=TextSource.OCR, text_source_reason="no text layer",
                      blocks=blocks, rotation=90, warnings=("page was turned",),
                      timings_s={"ocr": 1.5}, status=Status.PARTIAL,
                      errors=(PageError("formula", "ModelUnavailable", "no formula model"),),
                      handwriting=True, scripts=("Greek",),
                      page_outline=(1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0), flattened=True)


@pytest.fixture(scope="module")
def result() -> DocumentResult:
    failed = PageResult(page_number=3, width=0, height=0, dpi=200.0,
                        text_source=TextSource.TEXT_LAYER, text_source_reason="failed",
                        status=Status.FAILED,
                        errors=(PageError("render", "CorruptDocument", "page 3 is damaged"),))
    return DocumentResult(path="scan.pdf", kind="pdf", page_count=3,
                          pages=(_every_kind_page(1), failed), markdown="# Title",
                          outputs=("out/scan.md",), warnings=("one warning",),
                          timings_s={"total": 2.0}, status=Status.PARTIAL)


def test_the_schemas_are_valid_draft_2020_12():
    from jsonschema import Draft202012Validator

    for path in (DOCUMENT_SCHEMA, CONTENT_LIST_SCHEMA):
        schema = load_schema(path)
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        Draft202012Validator.check_schema(schema)


def test_a_document_with_every_field_and_kind_validates(result):
    data = document_json(result)
    assert data["schema_version"] == SCHEMA_VERSION and list(data)[0] == "schema_version"
    assert "markdown" not in data and "timings_s" not in data["pages"][0]
    assert problems(data, DOCUMENT_SCHEMA) == []


def test_a_content_list_with_every_item_type_validates(result):
    items = content_list(result.pages)
    assert {item["type"] for item in items} == {"text", "discarded", "table", "image",
                                                "equation", "code", "page_error"}
    assert problems(items, CONTENT_LIST_SCHEMA) == []


def test_the_schema_refuses_what_the_engine_never_writes(result):
    data = document_json(result)
    without_version = {k: v for k, v in data.items() if k != "schema_version"}
    assert any("schema_version" in p for p in problems(without_version, DOCUMENT_SCHEMA))
    other_version = {**data, "schema_version": "0.9"}
    assert problems(other_version, DOCUMENT_SCHEMA)
    page = data["pages"][0]
    unknown_kind = {**data, "pages": [{**page, "blocks": [{**page["blocks"][0], "kind": "poem"}]}]}
    assert any("poem" in p for p in problems(unknown_kind, DOCUMENT_SCHEMA))
    # A field the schema does not describe is a schema change waiting to be made.
    extra_field = {**data, "pages": [{**page, "mood": "calm"}]}
    assert any("mood" in p for p in problems(extra_field, DOCUMENT_SCHEMA))
    items = content_list(result.pages)
    assert problems([{**items[0], "bbox": [1, 2, 3]}], CONTENT_LIST_SCHEMA)


def test_the_schema_names_every_block_kind_and_status():
    schema = load_schema(DOCUMENT_SCHEMA)
    assert set(schema["$defs"]["kind"]["enum"]) == {k.value for k in BlockKind}
    assert set(schema["$defs"]["status"]["enum"]) == {s.value for s in Status}
    text_source = schema["$defs"]["page"]["properties"]["text_source"]["enum"]
    assert set(text_source) == {s.value for s in TextSource}
    assert schema["properties"]["schema_version"]["const"] == SCHEMA_VERSION


def _schema_hashes() -> dict[str, str]:
    return {path.name: hashlib.sha256(json.dumps(load_schema(path), sort_keys=True,
                                                 separators=(",", ":"),
                                                 ensure_ascii=False).encode()).hexdigest()
            for path in sorted(SCHEMA_DIR.glob("*.schema.json"))}


def _version_key(version: str) -> tuple[int, int]:
    major, minor = version.split(".")
    return int(major), int(minor)


def test_a_schema_change_comes_with_a_new_schema_version():
    """The schema files hash to what was recorded for the current schema_version: a change
    without a new version (and a new line in schema_versions.json) fails here."""
    recorded = json.loads(VERSIONS.read_text(encoding="utf-8"))["versions"]
    assert SCHEMA_VERSION in recorded, (
        f"schema_version {SCHEMA_VERSION} has no recorded hashes; add "
        f'"{SCHEMA_VERSION}": {json.dumps(_schema_hashes())} to {VERSIONS.name}')
    assert _schema_hashes() == recorded[SCHEMA_VERSION], (
        f"the schema changed but schema_version is still {SCHEMA_VERSION}: raise it "
        "(docs/api.md: a field or value added is a minor step, one removed or changed a major "
        f"one) in engine/output/document_json.py and the schema, and record the new hashes: "
        f"{json.dumps(_schema_hashes())}")
    # Versions only go up, and the current one is the newest.
    assert sorted(recorded, key=_version_key) == list(recorded)
    assert list(recorded)[-1] == SCHEMA_VERSION


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_the_folder_check_passes_over_a_named_pipe(tmp_path):
    """A test's named pipe called settings.json is not read (opening it would block)."""
    from tools.json_schemas import check_folder

    os.mkfifo(tmp_path / "settings.json")
    (tmp_path / "broken.json").write_text("{", encoding="utf-8")
    found: list = []
    reader = threading.Thread(target=lambda: found.append(check_folder(tmp_path)), daemon=True)
    reader.start()
    reader.join(timeout=10)
    if reader.is_alive():
        os.close(os.open(tmp_path / "settings.json", os.O_WRONLY | os.O_NONBLOCK))
        pytest.fail("the folder check blocked on a named pipe")
    assert found == [[]]


def test_only_document_json_is_held_to_the_document_schema():
    from tools.json_schemas import schema_for

    report = {"schema_version": 1, "backend": "webgpu", "outcome": "finished"}  # calibration
    assert schema_for("calibration-1.json", report) is None
    assert schema_for("manifest.json", {"schema_version": 1, "images": []}) is None
    assert schema_for("doc.json", {"schema_version": "1.0", "pages": []}) == DOCUMENT_SCHEMA
    assert schema_for("doc.json", {"path": "a", "kind": "pdf", "page_count": 1,
                                   "pages": []}) == DOCUMENT_SCHEMA
