"""The drop target: accepts dragged files and folders, and opens the file dialog when clicked."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QMimeData, Qt, Signal
from PySide6.QtGui import QDragEnterEvent, QDropEvent, QMouseEvent
from PySide6.QtWidgets import QFrame, QLabel, QVBoxLayout


def local_paths(mime: QMimeData) -> list[Path]:
    """The local files and folders a drag carries, in order."""
    if not mime.hasUrls():
        return []
    return [Path(url.toLocalFile()) for url in mime.urls() if url.isLocalFile()]


class DropArea(QFrame):
    """A framed hint that reacts to drags; the main window also accepts drops anywhere."""

    pathsDropped = Signal(list)  # list[Path]
    clicked = Signal()

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("dropArea")
        self.setAcceptDrops(True)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setMinimumHeight(72)
        self._label = QLabel(self.tr("Drop PDFs, images or folders here\n"
                                     "or click to choose files"))
        self._label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self._label.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addWidget(self._label)
        self.setToolTip(self.tr("PDF, XPS, EPUB, CBZ, Word, Excel, PowerPoint, OpenDocument, PNG, JPEG, "
                                 "TIFF, BMP and WebP"))
        self._set_hover(False)

    def _set_hover(self, on: bool) -> None:
        border = "#2f6fd6" if on else "#9aa3ad"
        background = "#e8f0fd" if on else "palette(base)"
        self.setStyleSheet(f"#dropArea {{ border: 2px dashed {border}; border-radius: 8px; "
                           f"background: {background}; }}")

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if local_paths(event.mimeData()):
            event.acceptProposedAction()
            self._set_hover(True)

    def dragLeaveEvent(self, event) -> None:
        self._set_hover(False)

    def dropEvent(self, event: QDropEvent) -> None:
        self._set_hover(False)
        paths = local_paths(event.mimeData())
        if paths:
            event.acceptProposedAction()
            self.pathsDropped.emit(paths)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self.clicked.emit()
        super().mouseReleaseEvent(event)
