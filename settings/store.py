"""The settings store: one load path and one locked, atomic read-modify-write path."""

from __future__ import annotations

import copy
import dataclasses
import json
import os
import sys
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from enum import Enum
from pathlib import Path
from typing import Any

from filelock import FileLock, Timeout

from settings import overlay
from settings.config_file import FileContent, is_read_only_error, may_write, move_aside, read_config, write_atomic
from settings.errors import SettingsError
from settings.locations import config_path, default_model_dir, expand_path, home_dir
from settings.schema import PathContext, Settings, build_settings, check_changes, field_spec, parse_env_values

Mutator = Callable[[dict[str, Any]], "dict[str, Any] | None"]

DEFAULT_LOCK_TIMEOUT_S = 10.0


class SettingsStore:
    """The settings file of this user (or of `path`), read with `load()` and changed with `update()`.

    Nothing is read when the store is made; `load()` reads the file each time it is called.
    Problems that must not stop the app (a corrupt, unreadable or read-only file, a bad value
    in the file) become lines in `warnings`; a bad environment value raises `InvalidSetting`.
    """

    def __init__(
        self,
        path: Path | str | None = None,
        environ: Mapping[str, str] | None = None,
        *,
        lock_timeout_s: float = DEFAULT_LOCK_TIMEOUT_S,
        platform: str = sys.platform,
    ) -> None:
        self._environ = environ
        self._platform = platform
        env = self._env()
        if path is None:
            self._path = config_path(env, platform)
        else:
            self._path = expand_path(str(path), home_dir(env, platform), Path.cwd())
        self._lock_path = self._path.with_name(self._path.name + ".lock")
        self._lock_timeout_s = lock_timeout_s
        self._mutex = threading.RLock()  # one store used from several threads runs one call at a time
        self._pending: overlay.Overlay = {}  # changes the file could not take
        self._read_only = False
        self._warnings: list[str] = []

    @property
    def path(self) -> Path:
        return self._path

    @property
    def read_only(self) -> bool:
        """True when the last write could not reach the file and changes live in memory only."""
        return self._read_only

    @property
    def warnings(self) -> list[str]:
        """Every distinct warning this store has reported, oldest first."""
        return list(self._warnings)

    def __repr__(self) -> str:
        return f"SettingsStore({str(self._path)!r}, read_only={self._read_only})"

    def load(self) -> Settings:
        """Read the file, apply in-memory changes and environment overrides, and validate."""
        with self._mutex:
            env = self._env()
            ctx = self._context(env)
            parse_env_values(env, ctx)  # a bad environment value is reported before any file work
            warnings: list[str] = []
            content, _ = self._read(warnings, holding_lock=False)
            if self._pending:
                warnings.append(
                    f"Settings file {self._path} could not be written; changes made in this "
                    "process are kept in memory only"
                )
            return self._finish(overlay.apply(content.raw, self._pending), env, ctx, warnings)

    def update(self, mutator: Mutator) -> Settings:
        """Change the file under its lock and return the new settings.

        `mutator` receives the file's current JSON (nested dicts, unknown keys included) and
        changes it in place, or returns a replacement dict. Keys it changed must be valid, or
        `InvalidSetting` is raised and nothing is written. Environment overrides never reach
        the file. When the file cannot be written the change is kept in memory for this process,
        `read_only` becomes True and a warning says so.
        """
        with self._mutex:
            env = self._env()
            ctx = self._context(env)
            parse_env_values(env, ctx)
            warnings: list[str] = []
            with self._locked() as locked:
                content, can_write = self._read(warnings, holding_lock=True)
                before = overlay.apply(content.raw, self._pending)
                draft = copy.deepcopy(before)
                returned = mutator(draft)
                after = _as_json_object(draft if returned is None else returned)
                check_changes(before, after, ctx)
                problem = None
                if not locked:
                    problem = "its lock file cannot be created"
                elif not can_write:
                    problem = "it could not be read safely"
                elif not may_write(self._path):
                    problem = "it is read-only"
                else:
                    problem = self._write(after)
                if problem is None:
                    self._pending = {}
                    self._read_only = False
                else:
                    self._pending = overlay.diff(content.raw, after)
                    self._read_only = True
                    warnings.append(
                        f"Settings file {self._path} was not changed ({problem}); the change is "
                        "kept in memory for this process only"
                    )
            return self._finish(after, env, ctx, warnings)

    def set(self, key: str, value: object) -> Settings:
        """Set one schema key ("model.onnx_device") through `update()`."""
        spec = field_spec(key)
        stored = spec.canonical(value) if spec.canonical else value

        def assign(raw: dict[str, Any]) -> None:
            section = raw.get(spec.section)
            if not isinstance(section, dict):
                section = raw[spec.section] = {}
            section[spec.name] = stored

        return self.update(assign)

    # -- internals ---------------------------------------------------------------------------

    def _env(self) -> Mapping[str, str]:
        return os.environ if self._environ is None else self._environ

    def _context(self, env: Mapping[str, str]) -> PathContext:
        home = home_dir(env, self._platform)
        return PathContext(
            home=home,
            file_dir=self._path.parent,
            cwd=Path.cwd(),
            default_model_dir=Path(os.path.abspath(default_model_dir(env, self._platform))),
        )

    @contextmanager
    def _locked(self) -> Iterator[bool]:
        """Hold the file lock; yields False when the lock file cannot be created (read-only folder)."""
        lock = None
        try:
            self._path.parent.mkdir(parents=True, exist_ok=True)
            lock = FileLock(str(self._lock_path), timeout=self._lock_timeout_s)
            lock.acquire()
        except Timeout:  # filelock's Timeout is an OSError: this clause must come first
            raise SettingsError(
                f"Settings file {self._path} stayed locked by another process for "
                f"{self._lock_timeout_s:g} s (lock file {self._lock_path})"
            ) from None
        except OSError:
            lock = None
        try:
            yield lock is not None
        finally:
            if lock is not None:
                lock.release()

    def _read(self, warnings: list[str], holding_lock: bool) -> tuple[FileContent, bool]:
        """Read the file; a corrupt one is moved aside under the lock. Returns (content, can_write)."""
        content = read_config(self._path)
        if content.corrupt and not holding_lock:
            with self._locked():
                return self._read(warnings, holding_lock=True)
        if content.unreadable is not None:
            reason = content.unreadable.strerror or str(content.unreadable)
            warnings.append(
                f"Settings file {self._path} cannot be read ({reason}); using the defaults "
                "and leaving it untouched"
            )
            return dataclasses.replace(content, raw={}), False
        if content.corrupt:
            try:
                aside = move_aside(self._path)
            except OSError as error:
                warnings.append(
                    f"Settings file {self._path} is corrupt ({content.corrupt}) and could not be "
                    f"moved aside ({error.strerror or error}); using the defaults and leaving it untouched"
                )
                return dataclasses.replace(content, raw={}), False
            warnings.append(
                f"Settings file {self._path} was corrupt ({content.corrupt}); moved it to "
                f"{aside.name} and using the defaults"
            )
            return dataclasses.replace(content, raw={}, exists=False, corrupt=None), True
        return content, True

    def _write(self, raw: dict[str, Any]) -> str | None:
        """Write atomically; returns why the file is read-only, or None when it was written."""
        try:
            write_atomic(self._path, raw)
        except OSError as error:
            if is_read_only_error(error):
                return error.strerror or str(error)
            raise SettingsError(
                f"Could not save settings to {self._path}: {error.strerror or error}"
            ) from error
        return None

    def _finish(
        self, raw: dict[str, Any], env: Mapping[str, str], ctx: PathContext, warnings: list[str]
    ) -> Settings:
        settings, value_warnings = build_settings(raw, env, ctx, self._path)
        every = warnings + value_warnings
        for line in every:
            if line not in self._warnings:
                self._warnings.append(line)
        return dataclasses.replace(settings, warnings=tuple(every))


def _as_json_object(value: object) -> dict[str, Any]:
    """Check that an update left a JSON object, turning paths and enums into their JSON text."""
    if not isinstance(value, dict):
        raise SettingsError(
            f"A settings update must leave a JSON object at the top level, not {type(value).__name__}"
        )
    try:
        text = json.dumps(value, default=_json_default)
    except (TypeError, ValueError) as error:
        raise SettingsError(f"A settings update produced a value that cannot be saved as JSON: {error}") from None
    return json.loads(text)


def _json_default(value: object) -> object:
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, Enum):
        return value.value
    raise TypeError(f"{type(value).__name__} is not JSON serializable")


def load_settings(path: Path | str | None = None, environ: Mapping[str, str] | None = None) -> Settings:
    """Load the settings once: `SettingsStore(path, environ).load()`."""
    return SettingsStore(path, environ).load()
