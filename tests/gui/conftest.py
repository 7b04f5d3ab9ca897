"""GUI fixtures: a settings file in tmp_path, a window on the shared engine, small documents."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from settings import SettingsStore
from tests.conftest import isolated_environ

# Widgets need no screen here; `make test` sets this too, a bare `pytest` may not.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

HERE = str(Path(__file__).resolve().parent)
if HERE not in sys.path:  # the sample builders beside this file
    sys.path.insert(0, HERE)

PHOTOTEST = "tesseract-phototest/input.png"


@pytest.fixture(autouse=True)
def clipboard_left_empty():
    """Each test leaves the clipboard empty. Qt's offscreen platform crashes at exit (SIGSEGV,
    after every test has passed) when the clipboard still holds mime data set by the program;
    the xcb platform a desktop runs does not (checked under Xvfb)."""
    yield
    from PySide6.QtGui import QGuiApplication

    if QGuiApplication.instance() is not None:
        QGuiApplication.clipboard().clear()


@pytest.fixture
def gui_store(tmp_path: Path) -> SettingsStore:
    """A settings store on a file in tmp_path; results go to tmp_path/out."""
    store = SettingsStore(path=tmp_path / "config" / "settings.json", environ=isolated_environ())
    store.set("output.dir", str(tmp_path / "out"))
    return store


@pytest.fixture
def make_window(qtbot, gui_store):
    """Build main windows on the isolated settings; each is closed (worker stopped) at the end."""
    windows = []

    def make(engine_factory=None):
        from gui.main_window import MainWindow

        window = MainWindow(gui_store, engine_factory)
        qtbot.addWidget(window)
        windows.append(window)
        return window

    yield make
    for window in windows:
        window.close()


@pytest.fixture
def engine_window(make_window, engine):
    """A shown main window whose worker uses the session's engine (models loaded once)."""
    window = make_window(lambda _settings: engine)
    window.show()
    return window


@pytest.fixture
def phototest(eval_dev_dir: Path) -> Path:
    path = eval_dev_dir / "items" / PHOTOTEST
    if not path.is_file():
        pytest.skip(f"{path} is missing")
    return path
