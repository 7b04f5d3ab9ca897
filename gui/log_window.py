"""The log window: what the app and the engine logged in this session, newest at the bottom."""

from __future__ import annotations

import logging
from collections import deque

from PySide6.QtCore import QObject, Qt, Signal, Slot
from PySide6.QtGui import QFontDatabase, QGuiApplication
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QPlainTextEdit, QPushButton, QVBoxLayout

MAX_LINES = 5000


class _Handler(logging.Handler):
    def __init__(self, book: "LogBook") -> None:
        super().__init__(logging.INFO)
        self._book = book
        self.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s",
                                            "%H:%M:%S"))

    def emit(self, record: logging.LogRecord) -> None:  # any thread
        try:
            self._book.fromAnyThread.emit(self.format(record))
        except RuntimeError:  # the app is shutting down and the book is gone
            pass


class LogBook(QObject):
    """Keeps recent log lines and announces new ones on the UI thread."""

    lineAdded = Signal(str)
    fromAnyThread = Signal(str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.lines: deque[str] = deque(maxlen=MAX_LINES)
        self.handler = _Handler(self)
        self.fromAnyThread.connect(self._add, Qt.ConnectionType.QueuedConnection)

    @Slot(str)
    def _add(self, line: str) -> None:
        self.lines.append(line)
        self.lineAdded.emit(line)

    def attach(self) -> None:
        root = logging.getLogger()
        if self.handler not in root.handlers:
            root.addHandler(self.handler)
        if root.level > logging.INFO or root.level == logging.NOTSET:
            root.setLevel(logging.INFO)

    def detach(self) -> None:
        logging.getLogger().removeHandler(self.handler)


class LogWindow(QDialog):
    def __init__(self, book: LogBook, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("logWindow")
        self.setWindowTitle(self.tr("Paperlens log"))
        self.resize(760, 420)
        self.text = QPlainTextEdit()
        self.text.setReadOnly(True)
        self.text.setMaximumBlockCount(MAX_LINES)
        self.text.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.text.setPlainText("\n".join(book.lines))
        book.lineAdded.connect(self.text.appendPlainText)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        copy = QPushButton(self.tr("Copy all"))
        buttons.addButton(copy, QDialogButtonBox.ButtonRole.ActionRole)
        copy.clicked.connect(lambda: QGuiApplication.clipboard().setText(self.text.toPlainText()))
        buttons.rejected.connect(self.close)
        layout = QVBoxLayout(self)
        layout.addWidget(self.text)
        layout.addWidget(buttons)
