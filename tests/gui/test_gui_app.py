"""The placeholder main window opens offscreen and loads no engine module."""

import subprocess
import sys

import pytest

pytestmark = pytest.mark.gui


def test_main_window_shows_placeholder(qtbot):
    from gui.app import build_main_window

    window = build_main_window()
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    assert window.windowTitle() == "Paperlens"
    assert "paperlens-cli convert" in window.centralWidget().text()


def test_opening_the_window_does_no_engine_work():
    code = ("import sys; from PySide6.QtWidgets import QApplication; app = QApplication([]); "
            "from gui.app import build_main_window; w = build_main_window(); w.show(); "
            "app.processEvents(); "
            "print(sorted(m for m in sys.modules if m.startswith(('engine', 'onnxruntime'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={**__import__("os").environ, "QT_QPA_PLATFORM": "offscreen"})
    assert out.stdout.strip() == "[]"
