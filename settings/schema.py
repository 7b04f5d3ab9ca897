"""The typed settings model: enums, frozen dataclasses, defaults and per-key validation."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from types import MappingProxyType
from typing import Any
from urllib.parse import urlsplit

from settings.choices import (Device, Language, LayoutModel, TableFormat, TablesAcrossPages,
                              language_codes)
from settings.errors import InvalidSetting, SettingsError, UnknownSetting
from settings.locations import expand_path


class Origin(StrEnum):
    """Where the effective value of a key came from."""

    DEFAULT = "default"
    FILE = "file"
    ENV = "env"


@dataclass(frozen=True)
class ModelSettings:
    onnx_device: Device
    base_dir: Path  # always absolute; the platform cache folder when the file says null
    index_url: str | None  # None: PIP_INDEX_URL, else https://pypi.org/simple (decided by the model store)
    layout: LayoutModel
    languages: tuple[str, ...]  # Tesseract codes every OCR line is read with; (): found per line


@dataclass(frozen=True)
class OutputSettings:
    dir: Path | None  # last output folder; None: next to the input
    table_format: TableFormat
    write_json: bool
    keep_furniture: bool  # running headers, footers and page numbers kept in the Markdown
    inline_math: bool  # formulas inside running text written as $...$
    dewarp: bool  # photographed pages straightened (outline, perspective, curl) before reading
    tables_across_pages: TablesAcrossPages


@dataclass(frozen=True)
class UiSettings:
    language: Language


@dataclass(frozen=True)
class WatchedFolder:
    """A folder whose new documents are converted into `output` (never the folder itself)."""

    folder: Path
    output: Path


@dataclass(frozen=True)
class WatchSettings:
    folders: tuple[WatchedFolder, ...] = ()


@dataclass(frozen=True)
class DeviceSettings:
    # Raw JSON written by the device code; a private copy, so callers may read it freely.
    calibration: dict[str, Any] | None = field(default=None, hash=False)


@dataclass(frozen=True)
class Settings:
    """One validated snapshot of the settings; obtain it from `SettingsStore.load()`."""

    model: ModelSettings
    output: OutputSettings
    ui: UiSettings
    device: DeviceSettings
    watch: WatchSettings
    path: Path  # the settings file this snapshot was read from
    origins: Mapping[str, Origin] = field(repr=False, hash=False)
    warnings: tuple[str, ...] = ()

    def origin(self, key: str) -> Origin:
        """Whether `key` ("model.onnx_device") came from the default, the file or the environment."""
        try:
            return self.origins[key]
        except KeyError:
            raise UnknownSetting(key, list(FIELDS)) from None


@dataclass(frozen=True)
class PathContext:
    """What relative paths and null defaults resolve against."""

    home: Path
    file_dir: Path  # relative paths in the file are relative to the file's folder
    cwd: Path  # relative paths in the environment are relative to the working directory
    default_model_dir: Path


class _Rejected(Exception):
    """Raised by a parser: the value is not allowed."""


Parser = Callable[[object, PathContext, Path], object]


@dataclass(frozen=True)
class FieldSpec:
    key: str
    default: object  # the JSON value a missing key stands for
    allowed: str  # what a person may write, for error messages
    parse: Parser  # (JSON value, context, anchor for relative paths) -> typed value
    env: str | None = None  # environment variable that overrides the file
    canonical: Callable[[object], object] | None = None  # how set() writes a friendly value

    @property
    def section(self) -> str:
        return self.key.split(".", 1)[0]

    @property
    def name(self) -> str:
        return self.key.split(".", 1)[1]


def _enum_field(key: str, enum: type[StrEnum], default: StrEnum, env: str | None = None) -> FieldSpec:
    by_folded = {member.value.casefold(): member for member in enum}

    def parse(value: object, _ctx: PathContext, _anchor: Path) -> StrEnum:
        if isinstance(value, str) and value.strip().casefold() in by_folded:
            return by_folded[value.strip().casefold()]
        raise _Rejected

    def canonical(value: object) -> object:
        if isinstance(value, str) and value.strip().casefold() in by_folded:
            return by_folded[value.strip().casefold()].value
        return value

    allowed = ", ".join(member.value for member in enum)
    return FieldSpec(key, default.value, allowed, parse, env, canonical)


def _parse_folder(value: object, ctx: PathContext, anchor: Path) -> Path | None:
    if value is None:
        return None
    if isinstance(value, str) and value.strip():
        return expand_path(value.strip(), ctx.home, anchor)
    raise _Rejected


def _parse_model_dir(value: object, ctx: PathContext, anchor: Path) -> Path:
    folder = _parse_folder(value, ctx, anchor)
    return ctx.default_model_dir if folder is None else folder


_URL_SCHEMES = ("http", "https", "file")


def _parse_index_url(value: object, _ctx: PathContext, _anchor: Path) -> str | None:
    if value is None:
        return None
    if isinstance(value, str):
        parts = urlsplit(value.strip())
        if parts.scheme in _URL_SCHEMES and (parts.netloc or parts.scheme == "file"):
            return value.strip()
    raise _Rejected


def _parse_languages(value: object, _ctx: PathContext, _anchor: Path) -> tuple[str, ...]:
    codes = language_codes(value)
    if codes is None:
        raise _Rejected
    return codes


def _languages_text(value: object) -> object:
    codes = language_codes(value)
    return value if codes is None else "+".join(codes) or None


def _parse_bool(value: object, _ctx: PathContext, _anchor: Path) -> bool:
    if isinstance(value, bool):
        return value
    raise _Rejected


def _parse_object(value: object, _ctx: PathContext, _anchor: Path) -> dict[str, Any] | None:
    if value is None:
        return None
    if isinstance(value, dict):
        return copy.deepcopy(value)
    raise _Rejected


def _path_to_text(value: object) -> object:
    return str(value) if isinstance(value, Path) else value


def _parse_watched(value: object, ctx: PathContext, anchor: Path) -> tuple[WatchedFolder, ...]:
    if not isinstance(value, list):
        raise _Rejected
    found: list[WatchedFolder] = []
    for item in value:
        if not isinstance(item, dict) or set(item) != {"folder", "output"}:
            raise _Rejected
        folder, output = (_parse_folder(item[k], ctx, anchor) for k in ("folder", "output"))
        # Its own output folder would be watched too; a folder listed twice would race itself.
        if folder is None or output is None or folder == output or \
                any(w.folder == folder for w in found):
            raise _Rejected
        found.append(WatchedFolder(folder, output))
    return tuple(found)


def _watched_to_json(value: object) -> object:
    if isinstance(value, (list, tuple)):
        return [{"folder": str(w.folder), "output": str(w.output)}
                if isinstance(w, WatchedFolder) else w for w in value]
    return value


ONNX_DEVICE_ENV = "PAPERLENS_MODEL_ONNX_DEVICE"
MODEL_DIR_ENV = "PAPERLENS_MODEL_DIR"

# The whole schema, in the order a person reads the file. Adding a key is one line here plus its
# attribute on the section dataclass.
FIELDS: dict[str, FieldSpec] = {
    spec.key: spec
    for spec in (
        _enum_field("model.onnx_device", Device, Device.AUTO, env=ONNX_DEVICE_ENV),
        FieldSpec(
            "model.base_dir", None, "a folder path, or null for the user cache folder",
            _parse_model_dir, env=MODEL_DIR_ENV, canonical=_path_to_text,
        ),
        FieldSpec(
            "model.index_url", None, "an http://, https:// or file:// URL, or null",
            _parse_index_url,
        ),
        _enum_field("model.layout", LayoutModel, LayoutModel.DOCLAYNET),
        FieldSpec(
            "model.languages", None, "Tesseract language codes joined by +, e.g. \"rus+eng\", "
            "or null to find each line's script", _parse_languages, canonical=_languages_text,
        ),
        FieldSpec(
            "output.dir", None, "a folder path, or null for next to the input",
            _parse_folder, canonical=_path_to_text,
        ),
        _enum_field("output.table_format", TableFormat, TableFormat.HTML),
        FieldSpec("output.write_json", True, "true, false", _parse_bool),
        FieldSpec("output.keep_furniture", False, "true, false", _parse_bool),
        FieldSpec("output.inline_math", True, "true, false", _parse_bool),
        FieldSpec("output.dewarp", True, "true, false", _parse_bool),
        _enum_field("output.tables_across_pages", TablesAcrossPages, TablesAcrossPages.JOIN),
        _enum_field("ui.language", Language, Language.SYSTEM),
        FieldSpec("device.calibration", None, "a JSON object, or null", _parse_object),
        FieldSpec(
            "watch.folders", [], 'a list of {"folder": path, "output": another path} objects, '
            "each folder once", _parse_watched, canonical=_watched_to_json,
        ),
    )
}

SECTIONS: dict[str, type] = {
    "model": ModelSettings,
    "output": OutputSettings,
    "ui": UiSettings,
    "device": DeviceSettings,
    "watch": WatchSettings,
}


def field_spec(key: str) -> FieldSpec:
    try:
        return FIELDS[key]
    except KeyError:
        raise UnknownSetting(key, list(FIELDS)) from None


MISSING = object()


class BadSection:
    """Marks a section of the file that is not a JSON object."""

    def __init__(self, value: object) -> None:
        self.value = value


def raw_value(raw: Mapping[str, Any], key: str) -> object:
    """The JSON value stored for `key`: MISSING, a BadSection, or the value itself."""
    section, name = key.split(".", 1)
    container = raw.get(section, MISSING)
    if container is MISSING:
        return MISSING
    if not isinstance(container, dict):
        return BadSection(container)
    return container.get(name, MISSING)


def parse_file_value(
    raw: Mapping[str, Any], key: str, ctx: PathContext, source: str | None = None
) -> tuple[object, Origin] | InvalidSetting:
    """Parse one key of the file's dict: (value, Origin) or an InvalidSetting (not raised)."""
    spec = FIELDS[key]
    value = raw_value(raw, key)
    if value is MISSING:
        return spec.parse(spec.default, ctx, ctx.file_dir), Origin.DEFAULT
    if isinstance(value, BadSection):
        return InvalidSetting(spec.section, value.value, "a JSON object", source)
    try:
        return spec.parse(value, ctx, ctx.file_dir), Origin.FILE
    except _Rejected:
        return InvalidSetting(key, value, spec.allowed, source)


def parse_env_values(environ: Mapping[str, str], ctx: PathContext) -> dict[str, object]:
    """The keys the environment overrides, parsed; a bad value raises InvalidSetting."""
    values: dict[str, object] = {}
    for spec in FIELDS.values():
        if spec.env is None:
            continue
        text = environ.get(spec.env, "").strip()
        if not text:  # an empty variable counts as unset, as shells make that easy to do
            continue
        try:
            values[spec.key] = spec.parse(text, ctx, ctx.cwd)
        except _Rejected:
            raise InvalidSetting(spec.key, text, spec.allowed, f"from environment variable {spec.env}") from None
    return values


def build_settings(
    raw: Mapping[str, Any], environ: Mapping[str, str], ctx: PathContext, path: Path
) -> tuple[Settings, list[str]]:
    """Validate the file's dict, apply environment overrides, and return (Settings, warnings).

    A bad value in the file does not stop the app: that key falls back to its default and a
    warning names it; the file is left as it is for the person to fix. A bad environment value
    raises, because the person who set it is right there to see the message.
    """
    env_values = parse_env_values(environ, ctx)
    values: dict[str, object] = {}
    origins: dict[str, Origin] = {}
    warnings: list[str] = []
    reported_sections: set[str] = set()
    for key, spec in FIELDS.items():
        parsed = parse_file_value(raw, key, ctx, f"in {path}")
        if isinstance(parsed, InvalidSetting):
            if parsed.key not in reported_sections:
                warnings.append(f"{parsed.message}; using the default")
                if parsed.key == spec.section:
                    reported_sections.add(spec.section)
            parsed = spec.parse(spec.default, ctx, ctx.file_dir), Origin.DEFAULT
        values[key], origins[key] = parsed
        if key in env_values:
            values[key], origins[key] = env_values[key], Origin.ENV
    sections = {
        name: cls(**{k.split(".", 1)[1]: v for k, v in values.items() if k.startswith(name + ".")})
        for name, cls in SECTIONS.items()
    }
    settings = Settings(
        **sections, path=path, origins=MappingProxyType(origins), warnings=tuple(warnings)
    )
    return settings, warnings


def check_changes(before: Mapping[str, Any], after: Mapping[str, Any], ctx: PathContext) -> None:
    """Raise InvalidSetting for the first key an update changed to a value that is not allowed.

    Keys the update did not touch are not judged here: a bad value already in the file stays a
    warning, so one bad key never blocks saving the others.
    """
    for key in FIELDS:
        old, new = raw_value(before, key), raw_value(after, key)
        if same_json(_comparable(old), _comparable(new)):
            continue
        parsed = parse_file_value(after, key, ctx)
        if isinstance(parsed, InvalidSetting):
            raise parsed


def _comparable(value: object) -> object:
    if value is MISSING:
        return ["missing"]
    if isinstance(value, BadSection):
        return ["section", value.value]
    return ["value", value]


def same_json(a: object, b: object) -> bool:
    """Equal as JSON, so that true and 1 differ (Python's == says they are equal)."""
    try:
        return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)
    except (TypeError, ValueError) as error:
        raise SettingsError(f"Settings value cannot be saved as JSON: {error}") from None
