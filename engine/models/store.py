"""The model store: resolves a manifest model to a verified local file, fetching it when needed."""

from __future__ import annotations

import logging
import os
import sys
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Mapping, Sequence

from filelock import FileLock

from engine.errors import ModelIntegrityError, ModelUnavailable
from engine.events import ModelDownloadProgress
from engine.models.download import redact_url, resolve_index_url
from engine.models.fetching import SourceFetching
from engine.models.integrity import file_sha256, identity, record_matches, write_record
from engine.models.manifest import MAIN_PART, ModelFile, ModelSpec, SourceSpec, load_manifest
from engine.models.sources import (
    ProgressThrottle,
    SourceFailure,
    backdate_mtime,
    sha256_file,
)

__all__ = [
    "ModelStore", "ModelSpec", "ModelStatus", "SourceSpec", "load_manifest", "default_model_dir",
    "bundled_model_dirs",
]

log = logging.getLogger(__name__)

ProgressCallback = Callable[[ModelDownloadProgress], None]
_SIDECAR_SUFFIX = ".verified.json"
_DOWNLOADS = ".downloads"
_LOCKS = ".locks"
BUNDLED_MODELS_DIR = "models"


@dataclass(frozen=True)
class ModelStatus:
    """What is on disk for one model. `verified` means the file matches the pinned hash."""

    id: str
    role: str
    size: int | None
    installed: bool
    verified: bool
    path: Path | None


def default_model_dir() -> Path:
    """The platform's per-user cache folder + paperlens/models, exactly as the settings define it."""
    from settings.locations import default_model_dir as settings_default_model_dir

    return settings_default_model_dir(os.environ)


def bundled_model_dirs() -> tuple[Path, ...]:
    """Read-only model folders shipped with the app: `<install>/models` in a frozen build, else none."""
    if not getattr(sys, "frozen", False):
        return ()
    return (Path(sys.executable).resolve().parent / BUNDLED_MODELS_DIR,)


class ModelStore(SourceFetching):
    """Model files under one folder, each checked against the manifest before it is handed out.

    Constructing a store reads the manifest and nothing else; the network is touched only by
    `ensure` (and `derived_rec`) when a file is missing or corrupt.

    `bundled_dirs` (default: `bundled_model_dirs()`) are searched before `model_dir`. They are
    never written to: a bundled file is hashed in full before it is first handed out (once per
    store), and one that does not match is passed over for the copy in `model_dir`.

    Models with a "package" source ship inside Paperlens, in a folder under `package_dir`
    (default: the installed `resources` package). They are never fetched: every file is hashed in
    full before it is first handed out, and a missing or mismatched one is an error that says to
    reinstall, never a fall back to another copy.
    """

    def __init__(
        self,
        model_dir: Path,
        index_url: str | None = None,
        on_progress: ProgressCallback | None = None,
        manifest: Mapping[str, ModelSpec] | Path | None = None,
        *,
        timeout_s: float = 30.0,
        bundled_dirs: Sequence[Path] | None = None,
        package_dir: Path | None = None,
    ) -> None:
        self.model_dir = Path(model_dir).expanduser()
        bundled = bundled_model_dirs() if bundled_dirs is None else bundled_dirs
        self.bundled_dirs = tuple(Path(d).expanduser() for d in bundled)
        self._package_dir = Path(package_dir) if package_dir is not None else None
        self._read_only_checked: dict[tuple, bool] = {}
        self.index_url = resolve_index_url(index_url)
        self.on_progress = on_progress
        self.timeout_s = timeout_s
        if manifest is None or isinstance(manifest, (str, Path)):
            self._specs = load_manifest(Path(manifest) if manifest is not None else None)
        else:
            self._specs = dict(manifest)

    # ----------------------------------------------------------------- lookup

    @property
    def specs(self) -> dict[str, ModelSpec]:
        return dict(self._specs)

    def spec(self, model_id: str) -> ModelSpec:
        try:
            return self._specs[model_id]
        except KeyError:
            known = ", ".join(self._specs)
            raise ModelUnavailable(f"Unknown model '{model_id}'; the manifest lists: {known}") from None

    def default_for_role(self, role: str) -> ModelSpec:
        """The one model for `role`: the default one, else the only one. Ambiguous roles need an id."""
        candidates = [s for s in self._specs.values() if s.role == role and s.default]
        if not candidates:
            candidates = [s for s in self._specs.values() if s.role == role]
        if len(candidates) == 1:
            return candidates[0]
        if not candidates:
            raise KeyError(f"No model has role '{role}'")
        ids = ", ".join(s.id for s in candidates)
        raise KeyError(f"Role '{role}' has several models ({ids}); choose one by id")

    def path_for(self, model_id: str) -> Path | None:
        """Where the model's (main) file lives (whether or not it is there); None for an empty slot.

        A shipped model's is in its resources folder. Otherwise a bundled copy, when there is one,
        comes first; else the path in `model_dir`."""
        spec = self.spec(model_id)
        if not spec.file:
            return None
        if spec.shipped:
            return self._shipped_dir(spec) / spec.file
        return self._bundled_file(spec) or self.model_dir / spec.file

    # ----------------------------------------------------------------- queries

    def status(self, model_id: str, *, full_hash: bool = False) -> ModelStatus:
        """Installed/verified state. Cheap by default (size, mtime and the verification record)."""
        spec = self.spec(model_id)
        path = self.path_for(model_id)
        if path is None:
            return ModelStatus(spec.id, spec.role, spec.size, False, False, None)
        if spec.shipped:
            files = self._shipped_files(spec)
            installed = all(file.is_file() for _, file in files)
            verified = installed and all(
                self._read_only_ok(pinned, file, hash_if_unknown=full_hash, rehash=full_hash)
                for pinned, file in files)
            return ModelStatus(spec.id, spec.role, spec.total_size, installed, verified, path)
        installed = path.is_file()
        if not installed:
            verified = False
        elif self._is_bundled(path):
            # No record can be kept beside a bundled file: it is verified once hashed in full.
            verified = self._read_only_ok(spec.files[0], path, hash_if_unknown=full_hash, rehash=full_hash)
        elif full_hash:
            verified = self._full_check(spec, path, rehash=True)
        else:
            verified = self._record_matches(spec, path)
        return ModelStatus(spec.id, spec.role, spec.size, installed, verified, path)

    def verify(self, model_id: str) -> bool:
        """Hash the installed file(s) in full. A mismatch drops its record so `ensure` fetches it again."""
        spec = self.spec(model_id)
        if spec.shipped:
            return self.status(model_id, full_hash=True).verified
        path = self.path_for(model_id)
        if path is not None and self._is_bundled(path):
            return self._read_only_ok(spec.files[0], path, rehash=True)
        return path is not None and path.is_file() and self._full_check(spec, path, rehash=True)

    # ----------------------------------------------------------------- fetching

    def ensure_files(self, model_id: str) -> dict[str, Path]:
        """Verified local paths of every file of the model, by part (MAIN_PART: the main file)."""
        spec = self.spec(model_id)
        if spec.shipped:
            return self._ensure_shipped(spec)
        # Only shipped models have companions; any other model is its one main file.
        return {MAIN_PART: self.ensure(model_id)}

    def ensure(self, model_id: str) -> Path:
        """A verified local path for the model, fetched from its sources in order if needed."""
        spec = self.spec(model_id)
        if spec.shipped:
            return self._ensure_shipped(spec)[MAIN_PART]
        bundled = self._bundled_file(spec)
        if bundled is not None:
            if self._read_only_ok(spec.files[0], bundled):
                return bundled
            log.warning("bundled model %s at %s does not match its checksum; using the model folder",
                        spec.id, bundled)
        path = self.model_dir / spec.file if spec.file else None
        if path is None:
            raise ModelUnavailable(
                f"Model '{spec.id}' ({spec.role}) is not installed: no model or download source is known "
                "for it yet. Paperlens works without it until one is provided."
            )
        if not spec.sources and not path.is_file():
            raise ModelUnavailable(
                f"Model '{spec.id}' ({spec.role}) is not installed and has no download source; "
                f"place {spec.file} (SHA-256 {spec.sha256}, {spec.size} bytes) at {path}."
            )
        if self._local_ok(spec, path):
            return path
        damaged = path.exists()
        try:
            self.model_dir.mkdir(parents=True, exist_ok=True)
            lock = self._lock(f"{spec.id}.lock")
        except OSError as exc:
            if damaged:
                raise ModelIntegrityError(
                    f"Model '{spec.id}' ({spec.role}): {path} is damaged (it does not match SHA-256 "
                    f"{spec.sha256}) and cannot be replaced: {self.model_dir} is not writable "
                    f"({exc.strerror or exc}). To fix: run `paperlens-cli models fetch {spec.id}` "
                    "with a writable model.base_dir, or put a good copy of the file in its place."
                ) from exc
            raise ModelUnavailable(
                f"Model '{spec.id}' ({spec.role}) cannot be stored: the model folder {self.model_dir} is not "
                f"writable ({exc.strerror or exc}). Choose another folder in model.base_dir."
            ) from exc
        with lock:
            # Another process may have placed it while we waited for the lock.
            if self._local_ok(spec, path):
                return path
            if path.exists():
                log.warning("model %s at %s does not match its checksum; fetching it again", spec.id, path)
                self._discard(path)
            failures: list[tuple[SourceSpec, SourceFailure]] = []
            for source in spec.sources:
                try:
                    self._fetch(spec, source, path)
                    return path
                except SourceFailure as failure:
                    failures.append((source, failure))
                except OSError as exc:  # disk full, permissions: this source failed, try the next
                    failures.append((source, SourceFailure(f"cannot write in {self.model_dir} ({exc})")))
                log.info("model %s: %s failed: %s", spec.id, source.describe(), failures[-1][1])
            raise self._unavailable(spec, path, failures, damaged)

    def derived_rec(self, model_id: str = "ppocrv6-rec-small", *, rebuild: bool = False) -> Path:
        """The rec model with ArgMax/ReduceMax appended (format ctc-ids-scores-v1), built once and cached."""
        from engine.models.derived import ctc_ids_scores_model

        spec = self.spec(model_id)
        source = self.ensure(model_id)
        assert spec.sha256 is not None  # ensure() succeeded, so the slot pins a file
        return ctc_ids_scores_model(source, spec.sha256, self.model_dir / ".derived" / spec.role, rebuild=rebuild)

    def verify_derived(self, model_id: str) -> tuple[Path, bool] | None:
        """(derived rec graph, matches its recorded hash), hashed in full; None when none is built."""
        from engine.models.derived import derived_path, verify_derived

        spec = self.spec(model_id)
        path = derived_path(self.model_dir / ".derived" / spec.role, spec.sha256 or "")
        ok = verify_derived(path, spec.sha256 or "") if spec.sha256 else None
        return None if ok is None else (path, ok)

    def _ensure_shipped(self, spec: ModelSpec) -> dict[str, Path]:
        paths: dict[str, Path] = {}
        for pinned, path in self._shipped_files(spec):
            if not path.is_file():
                raise ModelUnavailable(
                    f"Model '{spec.id}' ({spec.role}) ships with Paperlens, but {pinned.file} is missing "
                    f"from {path.parent}. Reinstall Paperlens to restore it.")
            if not self._read_only_ok(pinned, path):
                raise ModelIntegrityError(
                    f"Model '{spec.id}' ({spec.role}): {path} does not match the manifest (SHA-256 "
                    f"{pinned.sha256}, {pinned.size} bytes); the installation is damaged or was changed. "
                    "Reinstall Paperlens to restore it.")
            paths[pinned.part] = path
        return paths

    def _place(self, spec: ModelSpec, path: Path, produce: Callable[[Path], None]) -> None:
        """`produce` writes checked bytes to a temp file beside the target; it is then renamed in."""
        tmp = self._downloads_dir() / f"{spec.file}.{os.getpid()}-{uuid.uuid4().hex[:8]}.tmp"
        try:
            produce(tmp)
            os.replace(tmp, path)
        finally:
            tmp.unlink(missing_ok=True)
        backdate_mtime(path)
        self._write_record(spec, path)

    def _progress(self, model_id: str, source: str) -> ProgressThrottle:
        def emit(done: int, total: int | None) -> None:
            if self.on_progress is not None:
                self.on_progress(ModelDownloadProgress(model_id, done, total, source))

        return ProgressThrottle(emit)

    def _unavailable(self, spec: ModelSpec, path: Path,
                     failures: list[tuple[SourceSpec, SourceFailure]], damaged: bool = False) -> ModelUnavailable:
        tried = "; ".join(f"[{n}] {src.describe()}: {failure}" for n, (src, failure) in enumerate(failures, 1))
        tried = tried or "no source (the manifest lists none)"
        fix = (
            f"To fix: check the network connection, or set model.index_url (or PIP_INDEX_URL) to a reachable "
            f"package index (now {redact_url(self.index_url)}), or place {spec.file} "
            f"(SHA-256 {spec.sha256}, {spec.size} bytes) at {path}."
        )
        message = f"Model '{spec.id}' ({spec.role}) is not available. Tried {tried}. {fix}"
        if damaged:
            message = (f"Model '{spec.id}' ({spec.role}): the copy at {path} was damaged (it did not "
                       f"match its SHA-256) and was removed; fetching it again failed. Tried {tried}. {fix}")
            return ModelIntegrityError(message)
        if failures and all(failure.integrity for _, failure in failures):
            return ModelIntegrityError(message)
        return ModelUnavailable(message)

    # ----------------------------------------------------------------- local checks

    def _bundled_file(self, spec: ModelSpec) -> Path | None:
        """The first bundled copy of the model's file (not yet checked), or None."""
        if not spec.file:
            return None
        return next((d / spec.file for d in self.bundled_dirs if (d / spec.file).is_file()), None)

    def _is_bundled(self, path: Path) -> bool:
        return any(path.is_relative_to(d) for d in self.bundled_dirs)

    def _shipped_dir(self, spec: ModelSpec) -> Path:
        if self._package_dir is None:
            from resources import resource_path

            self._package_dir = resource_path("")
        return self._package_dir / (spec.sources[0].path or "")

    def _shipped_files(self, spec: ModelSpec) -> list[tuple[ModelFile, Path]]:
        folder = self._shipped_dir(spec)
        return [(pinned, folder / pinned.file) for pinned in spec.files]

    def _read_only_ok(self, pinned: ModelFile, path: Path, *, hash_if_unknown: bool = True,
                      rehash: bool = False) -> bool:
        """A bundled or shipped file's full-hash result, kept in memory for the life of this store
        (such folders hold no records). Not hashed yet and not to be hashed now counts as unverified."""
        try:
            stat = path.stat()
            key = identity(path, stat)
            if rehash or (hash_if_unknown and key not in self._read_only_checked):
                self._read_only_checked[key] = stat.st_size == pinned.size and sha256_file(path) == pinned.sha256
        except OSError:
            return False
        return self._read_only_checked.get(key, False)

    def _local_ok(self, spec: ModelSpec, path: Path) -> bool:
        """Hashed in full before the file's first load in this process (engine.models.integrity):
        a record beside the file never vouches for a load, whatever its size and mtime say."""
        return path.is_file() and self._full_check(spec, path)

    def _full_check(self, spec: ModelSpec, path: Path, *, rehash: bool = False) -> bool:
        try:
            ok = path.stat().st_size == spec.size and file_sha256(path, rehash=rehash) == spec.sha256
        except OSError:
            ok = False
        if ok and not self._record_matches(spec, path):
            self._write_record(spec, path)
        elif not ok:
            self._record_path(path).unlink(missing_ok=True)
        return ok

    def _record_matches(self, spec: ModelSpec, path: Path) -> bool:
        return spec.size is not None and record_matches(self._record_path(path), path,
                                                        sha256=spec.sha256, size=spec.size)

    def _write_record(self, spec: ModelSpec, path: Path) -> None:
        record_path = self._record_path(path)
        try:
            write_record(record_path, path, sha256=spec.sha256)
        except OSError as exc:
            # A read-only model folder still works; it is just hashed in full each time.
            log.debug("cannot write %s: %s", record_path, exc)

    @staticmethod
    def _record_path(path: Path) -> Path:
        return path.with_name(path.name + _SIDECAR_SUFFIX)

    def _discard(self, path: Path) -> None:
        self._record_path(path).unlink(missing_ok=True)
        path.unlink(missing_ok=True)

    def _downloads_dir(self) -> Path:
        folder = self.model_dir / _DOWNLOADS
        folder.mkdir(parents=True, exist_ok=True)
        return folder

    def _lock(self, name: str):
        folder = self.model_dir / _LOCKS
        folder.mkdir(parents=True, exist_ok=True)
        return FileLock(str(folder / name))
