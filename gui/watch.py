"""Watched folders: documents that appear in one are converted into its output folder.

Noticing a file: QFileSystemWatcher says a folder changed and a scan follows at once; a slow
rescan runs anyway, because a watcher misses changes on network shares and beyond the system's
watch limit, loses a folder that is deleted and made again, and says nothing about whether a
file is complete. A file is complete when scans at least STABLE_S apart find the same size and
modification time. Listing and hashing run off the UI thread; the UI thread compares numbers.

Converted files are remembered by content (SHA-256) and output folder in watched.json beside
the settings, so each is converted once, across restarts and renames. A file that failed is
remembered too (and logged): it is tried again only when its content changes, and never holds
up the others. Only the folder itself is watched, not its subfolders."""

from __future__ import annotations

import hashlib
import logging
import os
import time
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QFileSystemWatcher, QObject, QTimer

from gui.background import run_in_background
from gui.queue_model import JobState
from gui.watch_records import WatchRecords
from settings import SettingsStore, WatchedFolder

log = logging.getLogger(__name__)

STABLE_S = 2.0  # unchanged for this long (over two scans or more): the file is complete
POLL_MS = 1000  # between scans while a file is still changing
RESCAN_MS = 10_000  # between scans otherwise (changes a watcher did not report)
CHANGED_MS = 200  # from a watcher's report to the scan, so a burst of reports makes one scan
HASH_CHUNK_BYTES = 1 << 20
# Failures that are the file's own: remembered, so the same bytes are not tried again. Others
# (an output folder that cannot be written, a model missing, a bug) are logged and the file is
# tried again in the next session.
FILE_FAULTS = frozenset({"UnsupportedInput", "CorruptDocument", "PageTooLarge",
                         "PasswordRequired", "WrongPassword", "DocumentFailed"})


@dataclass(frozen=True)
class Sighting:
    """A document file as a scan found it."""

    path: Path
    output: Path
    size: int
    mtime_ns: int

    @property
    def signature(self) -> tuple[int, int]:
        return self.size, self.mtime_ns


@dataclass(frozen=True)
class Listing:
    fresh: list[Sighting]
    """Document files not settled as they are now (new, changed, or not yet complete)."""
    present: frozenset[Path]
    """Every document file found."""
    problems: dict[Path, str]
    """Why a folder could not be listed."""


def list_folders(folders: tuple[WatchedFolder, ...],
                 settled: dict[Path, tuple[int, int]]) -> Listing:
    """The document files directly inside each folder; those `settled` with the same size and
    modification time are only counted, so a large folder costs the UI thread nothing."""
    from engine.api import SUPPORTED_SUFFIXES  # no reader imported with it

    found: list[Sighting] = []
    present: set[Path] = set()
    problems: dict[Path, str] = {}
    for watched in folders:
        try:
            with os.scandir(watched.folder) as entries:
                for entry in entries:
                    # Dot files are editors' and copy tools' temporaries, not documents.
                    if entry.name.startswith(".") or \
                            Path(entry.name).suffix.lower() not in SUPPORTED_SUFFIXES:
                        continue
                    try:
                        if not entry.is_file():
                            continue
                        info = entry.stat()
                    except OSError:  # gone between listing and looking
                        continue
                    path = Path(entry.path)
                    present.add(path)
                    if settled.get(path) != (info.st_size, info.st_mtime_ns):
                        found.append(Sighting(path, watched.output, info.st_size,
                                              info.st_mtime_ns))
        except OSError as error:
            problems[watched.folder] = error.strerror or str(error)
    return Listing(found, frozenset(present), problems)


def hash_files(sightings: list[Sighting]) -> list[tuple[Sighting, str | None, str]]:
    """(sighting, SHA-256 or None, why not) for each file; one unreadable file stops nothing."""
    results = []
    for sighting in sightings:
        digest = hashlib.sha256()
        try:
            with open(sighting.path, "rb") as stream:
                while chunk := stream.read(HASH_CHUNK_BYTES):
                    digest.update(chunk)
        except OSError as error:
            results.append((sighting, None, error.strerror or str(error)))
        else:
            results.append((sighting, digest.hexdigest(), ""))
    return results


class FolderWatcher(QObject):
    """Feeds the files of the watched folders (settings: watch.folders) to the job controller."""

    def __init__(self, store: SettingsStore, controller, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._store = store
        self._controller = controller
        self.records = WatchRecords(store.path)
        self.folders: tuple[WatchedFolder, ...] = ()
        self._seen: dict[Path, tuple[tuple[int, int], float]] = {}  # signature, unchanged since
        self._settled: dict[Path, tuple[int, int]] = {}  # queued, skipped or unreadable as such
        self._hashing: set[Path] = set()
        self._jobs: dict[int, tuple[Sighting, str]] = {}  # job id -> file, its SHA-256
        self._problems: dict[Path, str] = {}
        self._scanning = False
        self._again = False
        self._stopped = False
        self._fs = QFileSystemWatcher(self)
        self._fs.directoryChanged.connect(lambda _folder: self._scan_in(CHANGED_MS))
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self.scan)
        controller.jobFinished.connect(self._on_job_finished)
        controller.passwordNeeded.connect(self._on_password_needed)
        self.reload()

    # -- the folders --------------------------------------------------------------------------

    def reload(self) -> None:
        """Take the watched folders from the settings (at start and after Preferences)."""
        if self._stopped:
            return
        folders = self._store.load().watch.folders
        if folders == self.folders:
            return
        self.folders = folders
        watched = {w.folder for w in folders}
        for path in list(self._seen):
            if path.parent not in watched:
                self._seen.pop(path)
                self._settled.pop(path, None)
        self._problems = {k: v for k, v in self._problems.items() if k in watched}
        self._watch_folders()
        for watched_folder in folders:
            log.info("watching %s (into %s)", watched_folder.folder, watched_folder.output)
        self._scan_in(0)

    def _watch_folders(self) -> None:
        current = set(self._fs.directories())
        wanted = {str(w.folder) for w in self.folders}
        if current - wanted:
            self._fs.removePaths(sorted(current - wanted))
        missing = sorted(p for p in wanted - current if os.path.isdir(p))
        if missing:
            self._fs.addPaths(missing)  # refused ones are still rescanned

    def stop(self) -> None:
        """The window is closing: nothing more is queued, and the record is written now. A
        document cancelled by the closing is not recorded, so it is converted next time."""
        self._stopped = True
        self._timer.stop()
        self._jobs.clear()
        self.records.flush()

    # -- scanning -----------------------------------------------------------------------------

    def _scan_in(self, delay_ms: int) -> None:
        if self._stopped or not self.folders:
            return
        if not self._timer.isActive() or self._timer.remainingTime() > delay_ms:
            self._timer.start(delay_ms)

    def scan(self) -> None:
        """List the folders now (in the background); complete new files are queued after."""
        if self._stopped or not self.folders:
            return
        if self._scanning:
            self._again = True
            return
        self._scanning = True
        folders, settled = self.folders, dict(self._settled)
        run_in_background(lambda: list_folders(folders, settled), self._on_listed,
                          self._on_scan_failed)

    def _on_scan_failed(self, error: BaseException) -> None:
        self._scanning = False
        log.warning("the watched folders could not be scanned: %s", error)
        self._scan_in(RESCAN_MS)

    def _on_listed(self, listing: Listing) -> None:
        self._scanning = False
        if self._stopped:
            return
        self._report_problems(listing.problems)
        now = time.monotonic()
        complete, changing = [], False
        watched = {w.folder for w in self.folders}
        for sighting in listing.fresh:
            path = sighting.path
            if path.parent not in watched:
                continue  # a folder taken off the list while this scan ran
            if self._settled.get(path) == sighting.signature or path in self._hashing:
                continue
            seen = self._seen.get(path)
            if seen is None or seen[0] != sighting.signature:
                self._seen[path] = (sighting.signature, now)
                changing = True
            elif now - seen[1] >= STABLE_S:
                complete.append(sighting)
            else:
                changing = True
        for path in self._seen.keys() - listing.present:  # deleted or moved away
            self._seen.pop(path)
            self._settled.pop(path, None)
        if complete:
            self._hashing.update(s.path for s in complete)
            run_in_background(lambda: hash_files(complete), self._on_hashed,
                              self._on_hash_failed(complete))
        if self._again:
            self._again = False
            self._scan_in(0)
        else:
            self._scan_in(POLL_MS if changing else RESCAN_MS)

    def _report_problems(self, problems: dict[Path, str]) -> None:
        for folder, reason in problems.items():
            if self._problems.get(folder) != reason:
                log.warning("the watched folder %s cannot be read: %s", folder, reason)
        for folder in set(self._problems) - set(problems):
            log.info("the watched folder %s can be read again", folder)
        if set(problems) != set(self._problems):
            self._watch_folders()  # a folder made again needs a new watch
        self._problems = dict(problems)

    def _on_hash_failed(self, sightings: list[Sighting]):
        def report(error: BaseException) -> None:
            self._hashing.difference_update(s.path for s in sightings)
            log.warning("watched files could not be read: %s", error)
        return report

    def _on_hashed(self, results: list[tuple[Sighting, str | None, str]]) -> None:
        for sighting, digest, problem in results:
            self._hashing.discard(sighting.path)
            if self._stopped:
                continue
            self._settled[sighting.path] = sighting.signature
            if digest is None:
                log.warning("the watched file %s cannot be read: %s", sighting.path, problem)
                continue
            self._take(sighting, digest)

    def _take(self, sighting: Sighting, digest: str) -> None:
        earlier = self.records.find(digest, sighting.output)
        if earlier is not None:
            state = earlier.get("state")
            verb = state if state in ("failed", "cancelled") else "converted"
            log.info("%s skipped: the same content was %s before (%s)", sighting.path, verb,
                     earlier.get("source", "?"))
            return
        if any(d == digest and s.output == sighting.output for s, d in self._jobs.values()):
            log.info("%s skipped: the same content is in the queue", sighting.path)
            return
        job = self._controller.add_file(sighting.path, sighting.output)
        if job is None:  # the same file is waiting or being read already
            self._settled.pop(sighting.path, None)
            return
        self._jobs[job.id] = (sighting, digest)
        log.info("watched folder %s: converting %s into %s", sighting.path.parent,
                 sighting.path.name, sighting.output)

    # -- outcomes -----------------------------------------------------------------------------

    def _on_password_needed(self, job_id: int, _wrong: bool) -> None:
        """Nobody is there to type a password for a watched file: it fails, with the reason."""
        if job_id in self._jobs:
            self._controller.provide_password(job_id, None)

    def _on_job_finished(self, job_id: int) -> None:
        taken = self._jobs.pop(job_id, None)
        job = self._controller.model.job(job_id)
        if taken is None or job is None:
            return
        sighting, digest = taken
        if job.state is JobState.FAILED:
            why = job.message or job.error_kind
            if job.error_kind in ("PasswordRequired", "WrongPassword"):
                why += " (add it with Open… to give its password)"
            log.warning("the watched file %s could not be converted: %s", sighting.path, why)
            if job.error_kind not in FILE_FAULTS:
                return
        elif job.state.written:
            log.info("the watched file %s was converted into %s", sighting.path,
                     job.markdown_path or sighting.output)
        self.records.add(digest, sighting.output, sighting.path, job.state.value,
                         job.message, job.output_files)
