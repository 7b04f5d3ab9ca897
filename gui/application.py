"""The desktop app once a window can open: the application object, translations, main window."""

from __future__ import annotations

import logging
import signal
import sys
import time
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
# `--screenshot=PATH`: the same, once the window is on the screen, after saving the screen
# (read back from the window system, not drawn by us) to PATH.
SCREENSHOT = "--screenshot="
# With --quit-after-show: also typesets one formula with the Rendered tab's renderer (ziamath,
# its fonts, QtSvg) and reports the picture's size, so a frozen build shows that it can.
TYPESET_CHECK = "--typeset-check"
CHECK_FORMULA = r"e^{i\pi}+1=0"
SHOWN_TIMEOUT_S = 20.0
SETTLE_MS = 400  # after the window is exposed, for its first paint to reach the screen


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


def run(argv: list[str]) -> int:
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
    options = argv[1:]
    screenshot = next((a[len(SCREENSHOT):] for a in options if a.startswith(SCREENSHOT)), None)
    if screenshot:
        _when_on_screen(window, lambda: _report_shown(app, window, Path(screenshot)))
    elif QUIT_AFTER_SHOW in options:
        QTimer.singleShot(0, lambda: _report_shown(app, window,
                                                   typeset_check=TYPESET_CHECK in options))
    inputs = [Path(a) for a in options if not a.startswith("-")]
    if inputs:
        window.add_paths(inputs)
    terminated = close_on_terminate(window)
    code = app.exec()
    log_book.detach()
    return TERMINATED_EXIT if terminated() else code


# The shell's convention for "ended by SIGTERM", as paperlens-cli exits.
TERMINATED_EXIT = 128 + signal.SIGTERM


def close_on_terminate(window: MainWindow):
    """SIGTERM (a logout, `kill`, a service manager) closes the window as the user would: the
    running document is cancelled and its staging folder removed. Python runs signal handlers
    only between bytecodes, so a timer lets the interpreter in while Qt's loop waits. Returns
    a callable saying whether the signal came."""
    received: list[int] = []
    if not hasattr(signal, "SIGTERM") or sys.platform == "win32":
        return lambda: False  # Windows ends processes without a signal a program can catch

    def on_terminate(signum, frame) -> None:
        received.append(signum)
        QTimer.singleShot(0, window.close)

    signal.signal(signal.SIGTERM, on_terminate)
    wake = QTimer(window)
    wake.timeout.connect(lambda: None)
    wake.start(200)
    return lambda: bool(received)


def _when_on_screen(window: MainWindow, then) -> None:
    """Call `then` once the window system has mapped the window and its first paint is shown
    (or after SHOWN_TIMEOUT_S, when it never was)."""
    deadline = time.monotonic() + SHOWN_TIMEOUT_S

    def poll() -> None:
        handle = window.windowHandle()
        if handle is not None and handle.isExposed():
            window.repaint()
            QTimer.singleShot(SETTLE_MS, then)
        elif time.monotonic() > deadline:
            then()
        else:
            QTimer.singleShot(50, poll)

    QTimer.singleShot(0, poll)


def _typeset_line() -> tuple[bool, str]:
    from gui.math_view import FormulaRejected, formula_image

    try:
        image = formula_image(CHECK_FORMULA, display=True, pixel_size=16.0, x_height=8.0)
    except FormulaRejected as why:
        return False, f"paperlens: formula not typeset ({why})"
    drawn = not image.isNull() and image.width() > 20 and image.height() > 8
    return drawn, (f"paperlens: formula {'typeset' if drawn else 'not typeset'} "
                   f"({image.width()}x{image.height()} px)")


def _report_shown(app: QApplication, window: MainWindow, screenshot: Path | None = None,
                  typeset_check: bool = False) -> None:
    handle = window.windowHandle()
    shown = window.isVisible() and (screenshot is None or (handle is not None
                                                           and handle.isExposed()))
    lines = [f"paperlens: main window {'shown' if shown else 'not shown'} ({window.windowTitle()})"]
    if shown and screenshot is not None:
        # The whole screen as the window system holds it: what a person would see.
        picture = window.screen().grabWindow(0)
        saved = not picture.isNull() and picture.save(str(screenshot), "PNG")
        lines.append(f"paperlens: screenshot {'saved to' if saved else 'not saved to'} "
                     f"{screenshot} ({picture.width()}x{picture.height()}, "
                     f"{QGuiApplication.platformName()})")
        shown = saved
    if shown and typeset_check:
        shown, line = _typeset_line()
        lines.append(line)
    if sys.stdout is not None:  # a windowed build on Windows has none
        print("\n".join(lines), flush=True)
    window.close()  # the way a person quits: the worker thread is stopped first
    app.exit(0 if shown else 1)
