"""Window geometry, splitter positions, recent outputs and the last export choice, in an INI
file beside the settings."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from PySide6.QtCore import QByteArray, QSettings

# A part of the window whose layout is kept, by key: how to save it, how to restore it.
LayoutParts = dict[str, tuple[Callable[[], QByteArray], Callable[[QByteArray], object]]]

STATE_FILE_NAME = "window-state.ini"
MAX_RECENT = 10


class WindowState:
    """Look-and-place state only; everything that changes behaviour lives in the settings file."""

    def __init__(self, settings_path: Path) -> None:
        self.path = Path(settings_path).with_name(STATE_FILE_NAME)
        self._ini = QSettings(str(self.path), QSettings.Format.IniFormat)

    def restore_bytes(self, key: str) -> QByteArray | None:
        value = self._ini.value(key)
        return value if isinstance(value, QByteArray) and not value.isEmpty() else None

    def save_bytes(self, key: str, value: QByteArray) -> None:
        self._ini.setValue(key, value)

    def restore_layout(self, parts: LayoutParts) -> None:
        for key, (_save, restore) in parts.items():
            value = self.restore_bytes(key)
            if value is not None:
                restore(value)

    def save_layout(self, parts: LayoutParts) -> None:
        for key, (save, _restore) in parts.items():
            self.save_bytes(key, save())
        self.sync()

    def recent_outputs(self) -> list[Path]:
        value = self._ini.value("recent/outputs", [])
        if isinstance(value, str):  # QSettings returns a lone entry as a string
            value = [value]
        return [Path(v) for v in value or [] if v]

    def add_recent_output(self, markdown: Path) -> list[Path]:
        recent = [p for p in self.recent_outputs() if p != markdown]
        recent.insert(0, markdown)
        recent = recent[:MAX_RECENT]
        self._ini.setValue("recent/outputs", [str(p) for p in recent])
        return recent

    def clear_recent_outputs(self) -> None:
        self._ini.remove("recent/outputs")

    def export_formats(self) -> list[str]:
        """The formats the Export dialog was last asked for ([] before the first export)."""
        value = self._ini.value("export/formats", [])
        if isinstance(value, str):  # QSettings returns a lone entry as a string
            value = [value]
        return [str(v) for v in value or [] if v]

    def set_export_formats(self, formats: list[str]) -> None:
        self._ini.setValue("export/formats", list(formats))

    def sync(self) -> None:
        self._ini.sync()
