"""Scripts in the window: the recognition languages pinned in Preferences > Reading (as the CLI's
--lang) reach the engine with each document; the page caption names the scripts a page was read
in; a page whose script has no installed recogniser is offered Download and Read Again, which
fetches the model through the model store and reads the document again."""

from __future__ import annotations

import json
import threading
from dataclasses import replace
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QImage

from engine.ocr.script_detection import Unreadable, install_hint
from engine.ocr.stage import SCRIPT_UNAVAILABLE
from engine.types import DocumentResult, PageError, PageResult, Status, TextSource

pytestmark = pytest.mark.gui

THAI_DATA = Path("/usr/share/tesseract-ocr/5/tessdata/tha.traineddata")


def scan(folder: Path, name: str = "page.png") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    image = QImage(300, 200, QImage.Format.Format_RGB888)
    image.fill(QColor("white"))
    assert image.save(str(folder / name))
    return folder / name


class ScriptEngine:
    """Stands in for the Engine: records the options; a page reads in Thai only once the Thai
    model is in the model folder, and says that script is unread before (as the page reader
    does, in its words)."""

    def __init__(self, settings) -> None:
        self.model_dir = Path(settings.model.base_dir)
        self.options: list = []

    def device_status(self):
        from engine.device.status import DeviceStatus

        return DeviceStatus(configured="cpu", configured_origin="default")

    def convert(self, path, options, on_event, cancel) -> DocumentResult:
        self.options.append(options)
        page = PageResult(1, 300, 200, 72.0, TextSource.OCR, "image input")
        if (self.model_dir / "tha.traineddata").is_file():
            page = replace(page, scripts=("Thai",))
        else:
            unread = Unreadable("Thai", 2, install_hint("Thai"))
            page = replace(page, status=Status.PARTIAL,
                           errors=(PageError("ocr", SCRIPT_UNAVAILABLE, unread.message()),))
        return DocumentResult(path=str(path), kind="png", page_count=1, pages=(page,),
                              markdown="", outputs=())


@pytest.fixture
def window(make_window, gui_store, tmp_path):
    gui_store.set("model.base_dir", str(tmp_path / "models"))
    window = make_window(ScriptEngine)
    window.resize(1200, 700)
    window.show()
    return window


def finished(qtbot, window, count: int) -> list:
    qtbot.waitUntil(lambda: window.controller.worker.engine is not None and len(
        window.controller.worker.engine.options) == count and window.controller.running is None
        and all(job.state.finished for job in window.controller.model.jobs), timeout=10_000)
    return window.controller.worker.engine.options


def test_pinned_languages_are_a_preference_that_reaches_the_engine(qtbot, window, gui_store,
                                                                   tmp_path):
    first, second = scan(tmp_path / "in", "first.png"), scan(tmp_path / "in", "second.png")
    window.add_paths([first])
    dialog = window.preferences_dialog()
    dialog.show()
    dialog.tabs.setCurrentWidget(dialog.switches.parentWidget())
    field = dialog.switches.languages_edit
    assert field.edit.text() == "" and field.valid  # automatic by default

    qtbot.keyClicks(field.edit, "rus eng")
    assert not field.valid and not field.message.isHidden()
    field.edit.editingFinished.emit()
    assert gui_store.load().model.languages == ()  # not saved while it is no language list
    field.edit.clear()
    qtbot.keyClicks(field.edit, "rus+eng")
    assert field.valid and field.message.isHidden()
    qtbot.keyClick(field.edit, Qt.Key.Key_Return)
    saved = json.loads(gui_store.path.read_text(encoding="utf-8"))["model"]["languages"]
    assert saved == "rus+eng"
    dialog.close()
    dialog.load()
    assert field.edit.text() == "rus+eng"

    window.add_paths([second])
    before, after = finished(qtbot, window, 2)
    assert before.languages == () and after.languages == ("rus", "eng")
    tip = window.controller.model.index(1, 0).data(Qt.ItemDataRole.ToolTipRole)
    assert "languages rus+eng" in tip

    # Read Again With… takes other languages, and refuses what is none.
    window.queue_view.select_job(window.controller.model.jobs[1].id)
    window.commands.read_again.trigger()
    again = window.read_again.dialog
    assert again.switches.languages_edit.edit.text() == "rus+eng"
    again.switches.languages_edit.edit.setText("ell+")
    assert again.read_button.isEnabled()
    again.switches.languages_edit.edit.setText("el l")
    assert not again.read_button.isEnabled()
    again.switches.languages_edit.edit.clear()
    qtbot.mouseClick(again.read_button, Qt.MouseButton.LeftButton)
    assert finished(qtbot, window, 3)[-1].languages == ()


@pytest.mark.skipif(not THAI_DATA.is_file(), reason="needs tesseract-ocr-tha (make sysdeps)")
def test_an_unread_script_is_offered_its_model_and_read_again(qtbot, window, monkeypatch,
                                                              tmp_path):
    from engine.models import store as store_module
    from engine.models.manifest import SourceSpec, load_manifest

    # Fetched from the system's language data only: never the network in a test.
    specs = load_manifest()
    specs["tesseract-thai"] = replace(specs["tesseract-thai"], sources=(
        SourceSpec("file", path=str(THAI_DATA.parent)),))
    monkeypatch.setattr(store_module, "load_manifest", lambda path=None: dict(specs))

    window.add_paths([scan(tmp_path / "in")])
    finished(qtbot, window, 1)
    [job] = window.controller.model.jobs
    window.queue_view.select_job(job.id)
    bar = window.unread_scripts.bar
    qtbot.waitUntil(bar.isVisible)
    assert bar.models == ("tesseract-thai",)
    assert "tesseract-thai" in bar.label.text() and "1.1 MB" in bar.label.text()
    assert "read in" not in window.preview.page_caption.text()

    with qtbot.waitSignal(bar.fetched, timeout=20_000) as fetched:
        qtbot.mouseClick(bar.button, Qt.MouseButton.LeftButton)
    assert fetched.args == [""]
    assert (tmp_path / "models" / "tha.traineddata").read_bytes() == THAI_DATA.read_bytes()

    finished(qtbot, window, 2)
    first, again = window.controller.model.jobs
    assert again.path == first.path and again.state.name == "DONE"
    window.queue_view.select_job(again.id)
    qtbot.waitUntil(lambda: "read in Thai" in window.preview.page_caption.text())
    assert not bar.isVisible()
    # The first reading still says what it left unread.
    window.queue_view.select_job(first.id)
    qtbot.waitUntil(bar.isVisible)


def test_a_failed_download_says_why_and_offers_it_again(qtbot, window, monkeypatch, tmp_path):
    from engine.models import store as store_module
    from engine.models.manifest import SourceSpec, load_manifest

    empty = tmp_path / "no-tessdata"
    empty.mkdir()
    specs = load_manifest()
    specs["tesseract-thai"] = replace(specs["tesseract-thai"], sources=(
        SourceSpec("file", path=str(empty)), SourceSpec("url", url="http://127.0.0.1:9/tha")))
    monkeypatch.setattr(store_module, "load_manifest", lambda path=None: dict(specs))

    window.add_paths([scan(tmp_path / "in")])
    finished(qtbot, window, 1)
    window.queue_view.select_job(window.controller.model.jobs[0].id)
    bar = window.unread_scripts.bar
    qtbot.waitUntil(bar.isVisible)
    with qtbot.waitSignal(bar.fetched, timeout=30_000) as fetched:
        bar.button.click()
    assert fetched.args[0]  # the store's reason
    assert bar.label.text().startswith("The download failed") and bar.button.isEnabled()
    assert len(window.controller.model.jobs) == 1  # nothing read again
