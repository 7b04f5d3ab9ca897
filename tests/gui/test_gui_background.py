"""Background calls whose window closes before their result comes back."""

from __future__ import annotations

import threading

import pytest
from PySide6.QtWidgets import QLabel

from gui.background import run_in_background

pytestmark = pytest.mark.gui


def test_a_result_for_a_closed_window_is_dropped_and_a_live_one_delivered(qtbot):
    gone, kept = QLabel(), QLabel()
    release = threading.Event()
    delivered: list[str] = []

    def slow_status() -> str:
        release.wait(10)
        return "status"

    def show_on(label: QLabel):
        def show(text: str) -> None:
            label.setText(text)  # raises on a deleted label
            delivered.append(text)
        return show

    run_in_background(slow_status, show_on(gone), owner=gone)
    run_in_background(slow_status, show_on(kept), owner=kept)
    gone.deleteLater()
    qtbot.waitUntil(lambda: not _alive(gone), timeout=5000)
    release.set()
    qtbot.waitUntil(lambda: delivered == ["status"], timeout=10000)
    qtbot.wait(100)
    assert delivered == ["status"] and kept.text() == "status"


def _alive(widget) -> bool:
    import shiboken6

    return shiboken6.isValid(widget)
