"""Start-up loads nothing heavy; the window's parts, shortcuts, state and dialogs are in place."""

from __future__ import annotations

import gc
import logging
import os
import subprocess
import sys
import textwrap

import pytest
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QTextBrowser

from gui.about import AboutDialog, component_rows

pytestmark = pytest.mark.gui


def test_start_up_loads_no_model_and_imports_no_engine(tmp_path):
    """`main()`'s own path, in a fresh interpreter: window shown, events processed."""
    code = textwrap.dedent("""
        import sys
        from PySide6.QtCore import QTimer
        from gui.application import create_application, build_main_window
        from settings import SettingsStore
        app = create_application([])
        window = build_main_window(SettingsStore())
        window.show()
        for _ in range(20):
            app.processEvents()
        heavy = sorted(m for m in sys.modules
                       if m.split('.')[0] in ('engine', 'onnxruntime', 'cv2', 'pymupdf', 'numpy'))
        print('heavy', heavy)
        print('engine', window.controller.worker.engine)
        window.close()
    """)
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen",
           "PAPERLENS_CONFIG": str(tmp_path / "settings.json")}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, env=env, timeout=120)
    assert "heavy []" in out.stdout, out.stdout + out.stderr
    assert "engine None" in out.stdout
    assert not (tmp_path / "settings.json").exists()  # opening the window writes nothing


def test_main_window_parts_and_shortcuts(qtbot, make_window):
    window = make_window()
    window.show()
    qtbot.waitExposed(window)
    assert window.windowTitle() == "Paperlens"
    assert not window.windowIcon().isNull()
    assert window.controller.worker.engine is None
    commands = window.commands
    assert commands.open_files.shortcut() == QKeySequence(QKeySequence.StandardKey.Open)
    assert commands.export.shortcut() == QKeySequence("Ctrl+E")
    assert commands.cancel.shortcut() == QKeySequence("Esc")
    assert not commands.export.isEnabled()  # nothing converted yet
    assert "Select a document" in window.preview.page_view.scene().items()[0].text()


def test_the_windows_start_up_objects_stay_out_of_full_collections(qtbot, make_window):
    """A full collection holds Python's lock; it walks only what was made after the window."""
    window = make_window()
    assert gc.get_freeze_count() > 10_000
    window.close()
    assert gc.get_freeze_count() == 0


def test_geometry_and_splitters_are_remembered(qtbot, make_window):
    first = make_window()
    first.show()
    first.resize(700, 500)  # within the offscreen screen (800x600)
    first.splitter.setSizes([200, 500])
    sizes, size = first.splitter.sizes(), first.size()
    first.close()
    second = make_window()
    second.show()
    assert second.size() == size
    assert second.splitter.sizes() == sizes
    assert second.state.path.parent == second.store.path.parent  # beside the settings file


def test_recent_outputs_menu(qtbot, make_window, tmp_path):
    window = make_window()
    first, second = tmp_path / "a.md", tmp_path / "b.md"
    window.commands.set_recent(window.state.add_recent_output(first))
    window.commands.set_recent(window.state.add_recent_output(second))
    window.commands.set_recent(window.state.add_recent_output(first))
    names = [a.text() for a in window.commands.recent_menu.actions() if a.text()]
    assert names[:2] == ["a.md", "b.md"]
    window.clear_recent()
    assert window.state.recent_outputs() == []


def test_log_window_shows_what_was_logged(qtbot, make_window):
    window = make_window()
    window.log_book.attach()
    try:
        logging.getLogger("gui.test").warning("a line for the log window")
        qtbot.waitUntil(lambda: any("a line for the log window" in line
                                    for line in window.log_book.lines))
        window.show_log()
        assert "a line for the log window" in window._log_window.text.toPlainText()
    finally:
        window.log_book.detach()


def test_about_lists_versions_and_licences(qtbot):
    rows = {name: (version, licence) for name, version, licence in component_rows()}
    assert "ONNX Runtime" in rows and "PyMuPDF" in rows and "Qt" in rows
    assert rows["PyMuPDF"][1] == "AGPL-3.0"
    dialog = AboutDialog()
    qtbot.addWidget(dialog)
    body = dialog.findChild(QTextBrowser, "aboutText")
    assert "GNU Affero" in body.toPlainText()
    assert "yolov8n-doclaynet.onnx" in body.toPlainText()
