"""Entry point of the `paperlens` desktop app: the application object, translations, main window."""

from __future__ import annotations

import logging
import sys
from pathlib import Path

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication, QMessageBox

from gui.about import app_version
from gui.i18n import install_translators
from gui.icons import app_icon
from gui.log_window import LogBook
from gui.main_window import MainWindow
from gui.worker import EngineFactory
from settings import SettingsError, SettingsStore

log = logging.getLogger(__name__)

# Starts the app, shows the main window, prints one line and quits: 0 when the window was
# shown. The installer checks run the frozen app with it.
QUIT_AFTER_SHOW = "--quit-after-show"


def create_application(argv: list[str]) -> QApplication:
    existing = QApplication.instance()
    if existing is not None:
        return existing  # type: ignore[return-value]
    # Fractional scale factors (125 %, 150 %) as the screen asks, not rounded to whole numbers.
    QGuiApplication.setHighDpiScaleFactorRoundingPolicy(
        Qt.HighDpiScaleFactorRoundingPolicy.PassThrough)
    app = QApplication(argv)
    app.setApplicationName("Paperlens")
    app.setOrganizationName("Paperlens")
    app.setApplicationVersion(app_version())
    app.setWindowIcon(app_icon())
    app.setDesktopFileName("paperlens")
    return app


def build_main_window(store: SettingsStore | None = None,
                      engine_factory: EngineFactory | None = None,
                      log_book: LogBook | None = None) -> MainWindow:
    """The main window. It does no model, device or file work when it opens."""
    return MainWindow(store or SettingsStore(), engine_factory, log_book)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv if argv is None else argv)
    app = create_application(argv)
    log_book = LogBook(app)
    log_book.attach()
    store = SettingsStore()
    try:
        settings = store.load()
    except SettingsError as error:  # a bad environment value: the person who set it is here
        QMessageBox.critical(None, "Paperlens", str(error))
        return 2
    install_translators(app, str(settings.ui.language))  # parented to the app: they stay
    window = build_main_window(store, log_book=log_book)
    for warning in settings.warnings:
        log.warning("%s", warning)
    if settings.warnings:
        window.statusBar().showMessage(settings.warnings[0], 15000)
    window.show()
    if QUIT_AFTER_SHOW in argv[1:]:
        QTimer.singleShot(0, lambda: _report_shown(app, window))
    inputs = [Path(a) for a in argv[1:] if not a.startswith("-")]
    if inputs:
        window.add_paths(inputs)
    code = app.exec()
    log_book.detach()
    return code


def _report_shown(app: QApplication, window: MainWindow) -> None:
    shown = window.isVisible()
    if sys.stdout is not None:  # a windowed build on Windows has none
        print(f"paperlens: main window {'shown' if shown else 'not shown'} ({window.windowTitle()})",
              flush=True)
    window.close()  # the way a person quits: the worker thread is stopped first
    app.exit(0 if shown else 1)


if __name__ == "__main__":
    sys.exit(main())
