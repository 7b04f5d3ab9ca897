"""Entry point of the `paperlens` desktop app."""

from __future__ import annotations

import sys

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLabel, QMainWindow


def build_main_window() -> QMainWindow:
    """The main window. It does no model, device or file work when it opens."""
    window = QMainWindow()
    window.setObjectName("paperlensMainWindow")
    window.setWindowTitle("Paperlens")
    label = QLabel(window.tr("Paperlens: the desktop window is on its way.\n"
                             "Convert documents now with: paperlens-cli convert FILE -o OUTDIR"))
    label.setObjectName("placeholderLabel")
    label.setAlignment(Qt.AlignmentFlag.AlignCenter)
    window.setCentralWidget(label)
    window.resize(640, 400)
    return window


def main(argv: list[str] | None = None) -> int:
    app = QApplication.instance() or QApplication(argv if argv is not None else sys.argv)
    window = build_main_window()
    window.show()
    return app.exec()


if __name__ == "__main__":
    sys.exit(main())
