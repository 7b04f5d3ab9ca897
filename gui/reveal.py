"""A document's files in the system's file manager: its output folder, or its Markdown selected."""

from __future__ import annotations

import logging
import sys
from pathlib import Path

from PySide6.QtCore import QObject, QProcess, QUrl
from PySide6.QtGui import QDesktopServices

log = logging.getLogger(__name__)

# The freedesktop.org interface that file managers (Files, Dolphin, Nemo, Caja, Thunar...) offer
# for "show this file in its folder".
FILE_MANAGER = "org.freedesktop.FileManager1"
FILE_MANAGER_PATH = "/org/freedesktop/FileManager1"

_pending: set[QObject] = set()  # D-Bus calls waiting for their answer


def open_path(path: Path) -> bool:
    """Open a folder (or file) with the system's default application for it."""
    return QDesktopServices.openUrl(QUrl.fromLocalFile(str(path)))


def reveal_file(path: Path) -> None:
    """Open the file manager on the file's folder with the file selected; where no file
    manager offers that, open the folder."""
    if sys.platform == "win32":
        QProcess.startDetached("explorer", [f"/select,{path}"])
    elif sys.platform == "darwin":
        QProcess.startDetached("open", ["-R", str(path)])
    elif not _show_items(path):
        open_path(path.parent)


def _show_items(path: Path) -> bool:
    """Ask the session's file manager over D-Bus, without waiting for it; False when there is
    none to ask. When it answers with an error, the folder is opened instead."""
    try:
        from PySide6.QtDBus import (QDBusConnection, QDBusMessage, QDBusPendingCall,
                                    QDBusPendingCallWatcher)
    except ImportError:  # a Qt without D-Bus
        return False
    bus = QDBusConnection.sessionBus()
    if not bus.isConnected():
        return False
    interface = bus.interface()
    known = interface.isServiceRegistered(FILE_MANAGER).value() or \
        FILE_MANAGER in (interface.activatableServiceNames().value() or [])
    if not known:
        return False
    message = QDBusMessage.createMethodCall(FILE_MANAGER, FILE_MANAGER_PATH, FILE_MANAGER,
                                            "ShowItems")
    message.setArguments([[QUrl.fromLocalFile(str(path)).toString()], ""])
    watcher = QDBusPendingCallWatcher(QDBusPendingCall(bus.asyncCall(message)))
    _pending.add(watcher)

    def finished(call) -> None:
        _pending.discard(watcher)
        if call.isError():
            log.info("the file manager could not show %s: %s", path, call.error().message())
            open_path(path.parent)
        call.deleteLater()

    watcher.finished.connect(finished)
    return True
