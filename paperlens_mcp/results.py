"""The results folder: every conversion the MCP tools ran, kept so a later call can list it and
fetch its Markdown, its JSON or one page's blocks.

    <results>/<id>/conversion.json   what was converted, with which options, and how it ended
    <results>/<id>/document.json     the document's JSON (as <name>.json is written)
    <results>/<id>/document.md       its Markdown
    <results>/<id>/files/            the files the conversion wrote, as paperlens-cli writes them
    <results>/<id>/input/            a document sent as bytes

An id is made here (UTC time and random hex) and checked against that shape before any path is
built from it, so a client cannot name a folder outside the results folder."""

from __future__ import annotations

import json
import os
import re
import secrets
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

RECORD = "conversion.json"
DOCUMENT_JSON = "document.json"
DOCUMENT_MD = "document.md"
ID_PATTERN = re.compile(r"^\d{8}T\d{6}Z-[0-9a-f]{8}$")


class ResultNotFound(LookupError):
    """No conversion of that id in the results folder (or an id that is not one)."""


@dataclass(frozen=True)
class ResultsFolder:
    root: Path

    def new(self) -> tuple[str, Path]:
        """A fresh result id and its folder (created, private to this user)."""
        self.root.mkdir(parents=True, exist_ok=True, mode=0o700)
        while True:
            result_id = f"{time.strftime('%Y%m%dT%H%M%SZ', time.gmtime())}-{secrets.token_hex(4)}"
            folder = self.root / result_id
            try:
                folder.mkdir(mode=0o700)
                return result_id, folder
            except FileExistsError:
                continue

    def folder(self, result_id: str) -> Path:
        if not ID_PATTERN.match(result_id or ""):
            raise ResultNotFound(f"{result_id!r} is not a result id; list_results shows them.")
        folder = self.root / result_id
        if not (folder / RECORD).is_file():
            raise ResultNotFound(f"No result {result_id} in {self.root}; list_results shows "
                                 "the results kept there.")
        return folder

    def save(self, folder: Path, record: dict[str, Any], document: dict[str, Any] | None = None,
             markdown: str | None = None) -> None:
        """The record last: a result is listed only once its JSON and Markdown are in place."""
        if document is not None:
            _write(folder / DOCUMENT_JSON, json.dumps(document, ensure_ascii=False, indent=1))
        if markdown is not None:
            _write(folder / DOCUMENT_MD, markdown)
        _write(folder / RECORD, json.dumps(record, ensure_ascii=False, indent=1))

    def record(self, result_id: str) -> dict[str, Any]:
        return json.loads((self.folder(result_id) / RECORD).read_text(encoding="utf-8"))

    def entries(self) -> list[dict[str, Any]]:
        """Every kept conversion's record, newest first."""
        if not self.root.is_dir():
            return []
        records = []
        for folder in sorted(self.root.iterdir(), reverse=True):
            if ID_PATTERN.match(folder.name) and (folder / RECORD).is_file():
                records.append(json.loads((folder / RECORD).read_text(encoding="utf-8")))
        return records

    def markdown(self, result_id: str) -> str:
        return self._part(result_id, DOCUMENT_MD).read_text(encoding="utf-8")

    def document(self, result_id: str) -> dict[str, Any]:
        return json.loads(self._part(result_id, DOCUMENT_JSON).read_text(encoding="utf-8"))

    def page(self, result_id: str, page_number: int) -> dict[str, Any]:
        """One page of the document's JSON: its number, size, status, warnings and blocks."""
        pages = self.document(result_id)["pages"]
        for page in pages:
            if page["page_number"] == page_number:
                return page
        read = ", ".join(str(p["page_number"]) for p in pages)
        raise ResultNotFound(f"Result {result_id} has no page {page_number}; its pages are "
                             f"{read}.")

    def _part(self, result_id: str, name: str) -> Path:
        path = self.folder(result_id) / name
        if not path.is_file():
            status = self.record(result_id).get("status")
            raise ResultNotFound(f"Result {result_id} ended {status}; it has no {name}.")
        return path


def _write(path: Path, text: str) -> None:
    """Written whole or not at all: a temporary name in the same folder, then renamed."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, path)
