"""What the watched folders have converted: one record per (content SHA-256, output folder) in
watched.json beside the settings, read once when the window opens and written atomically off
the UI thread after each watched document, and at closing."""

from __future__ import annotations

import json
import logging
import threading
from pathlib import Path
from typing import Any

from gui.background import run_in_background
from settings.config_file import write_atomic

log = logging.getLogger(__name__)

RECORDS_FILE_NAME = "watched.json"
FORMAT_VERSION = 1


class WatchRecords:
    """The records of one settings file; used from the UI thread."""

    def __init__(self, settings_path: Path) -> None:
        self.path = Path(settings_path).with_name(RECORDS_FILE_NAME)
        self._records: dict[tuple[str, str], dict[str, Any]] = {}
        self._lock = threading.Lock()
        self._changes = 0  # numbered; a write never replaces a newer one
        self._written = 0
        self._load()

    def _load(self) -> None:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            records = data["files"]
        except FileNotFoundError:
            return
        except (OSError, ValueError, KeyError, TypeError) as error:
            # Files converted before may be converted once more; nothing else is lost.
            log.warning("the record of converted watched files could not be read from %s: %s",
                        self.path, error)
            return
        for record in records if isinstance(records, list) else []:
            if isinstance(record, dict) and isinstance(record.get("sha256"), str) \
                    and isinstance(record.get("output_dir"), str):
                self._records[(record["sha256"], record["output_dir"])] = record

    def __len__(self) -> int:
        return len(self._records)

    def find(self, sha256: str, output_dir: Path) -> dict[str, Any] | None:
        """The record of this content converted into this folder, or None."""
        return self._records.get((sha256, str(output_dir)))

    def add(self, sha256: str, output_dir: Path, source: Path, state: str, message: str = "",
            outputs: tuple[str, ...] = ()) -> None:
        self._records[(sha256, str(output_dir))] = {
            "sha256": sha256, "output_dir": str(output_dir), "source": str(source),
            "state": state, "message": message, "outputs": list(outputs)}
        self._changes += 1
        number, data = self._changes, self._data()
        run_in_background(lambda: self._write(number, data), lambda _done: None, self._report)

    def flush(self) -> None:
        """Write the newest records now, when a background write has not yet."""
        if self._written < self._changes:
            try:
                self._write(self._changes, self._data())
            except OSError as error:
                self._report(error)

    def _data(self) -> dict[str, Any]:
        return {"version": FORMAT_VERSION, "files": list(self._records.values())}

    def _report(self, error: BaseException) -> None:
        log.warning("the record of converted watched files could not be saved to %s: %s",
                    self.path, error)

    def _write(self, number: int, data: dict[str, Any]) -> None:
        with self._lock:
            if number <= self._written:
                return
            write_atomic(self.path, data)
            self._written = number
