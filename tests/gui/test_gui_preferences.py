"""Preferences: the device setting goes through the settings store; re-measure waits for a parse."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtWidgets import QProgressBar, QPushButton

from engine.device.status import DeviceStatus
from engine.events import ModelDownloadProgress
from gui.model_list import _size_text
from engine.types import DocumentResult
from gui.preferences import PreferencesDialog
from gui.queue_model import JobState
from settings import SettingsStore
from tests.conftest import isolated_environ

pytestmark = pytest.mark.gui


class CountingEngine:
    """Stands in for the Engine: records conversions (where a real one decides its device)."""

    made: list["CountingEngine"] = []

    def __init__(self, settings) -> None:
        self.settings = settings
        self.conversions = 0
        CountingEngine.made.append(self)

    def device_status(self) -> DeviceStatus:
        device = str(self.settings.model.onnx_device)
        if self.conversions == 0:
            return DeviceStatus(configured=device, configured_origin="file")
        return DeviceStatus(configured=device, configured_origin="file", effective="cpu",
                            backend="cpu", decided_by="fallback",
                            fallback_reason="No usable GPU was found.",
                            reason_code="webgpu_architecture_policy")

    def convert(self, path, options, on_event, cancel) -> DocumentResult:
        self.conversions += 1
        return DocumentResult(path=str(path), kind="png", page_count=0, pages=(),
                              markdown="", outputs=())


@pytest.fixture
def counting_window(make_window):
    CountingEngine.made = []
    window = make_window(CountingEngine)
    window.show()
    return window


def saved(store: SettingsStore) -> dict:
    return json.loads(store.path.read_text(encoding="utf-8"))


def status_shown(dialog: PreferencesDialog) -> bool:
    return dialog.effective_label.text() not in ("", dialog.tr("Reading…"))


def test_device_choice_is_written_through_the_settings_store(qtbot, counting_window):
    window = counting_window
    dialog = window.preferences_dialog()
    dialog.show()
    qtbot.waitUntil(lambda: status_shown(dialog))
    assert dialog.device_combo.currentData() == "auto"
    assert "Not decided yet" in dialog.effective_label.text()

    dialog.device_combo.setCurrentIndex(dialog.device_combo.findData("gpu"))
    assert saved(window.store)["model"]["onnx_device"] == "gpu"
    assert saved(window.store)["output"]["dir"]  # the other keys are kept
    assert "GPU, from the settings file" in dialog.configured_label.text()

    dialog.device_combo.setCurrentIndex(dialog.device_combo.findData("cpu"))
    assert saved(window.store)["model"]["onnx_device"] == "cpu"


def test_remeasure_sets_auto_and_measures_only_at_the_next_parse(qtbot, counting_window,
                                                                 tmp_path):
    window = counting_window
    document = tmp_path / "scan.png"
    document.write_bytes(b"not opened by the stand-in engine")
    window.store.set("model.onnx_device", "gpu")
    window.add_paths([document])
    [first] = window.controller.model.jobs
    qtbot.waitUntil(lambda: first.state is JobState.DONE)
    used = window.controller.worker.engine
    assert used is not None and used.conversions == 1

    dialog = window.preferences_dialog()
    dialog.show()
    qtbot.waitUntil(lambda: status_shown(dialog))
    assert "CPU" in dialog.effective_label.text()
    assert "Intel graphics" in dialog.reason_label.text()  # the code in plain words

    made_before = len(CountingEngine.made)
    dialog.remeasure_button.click()
    assert saved(window.store)["model"]["onnx_device"] == "auto"
    assert dialog.device_combo.currentData() == "auto"
    assert window.controller.worker.engine is None  # the engine that had decided is gone
    qtbot.waitUntil(lambda: "Not decided yet" in dialog.effective_label.text())
    qtbot.wait(200)
    # Nothing converted (nothing measured) since the click: status reads use throwaway engines.
    assert all(e.conversions == 0 for e in CountingEngine.made[made_before:])
    assert used.conversions == 1

    window.add_paths([document])
    second = window.controller.model.jobs[-1]
    qtbot.waitUntil(lambda: second.state is JobState.DONE)
    fresh = window.controller.worker.engine
    assert fresh is not used and fresh.conversions == 1
    assert str(fresh.settings.model.onnx_device) == "auto"


def test_environment_override_disables_the_device_choice(qtbot, tmp_path):
    environ = {**isolated_environ(), "PAPERLENS_MODEL_ONNX_DEVICE": "cpu"}
    store = SettingsStore(path=tmp_path / "settings.json", environ=environ)
    dialog = PreferencesDialog(store, lambda: DeviceStatus("cpu", "env"))
    qtbot.addWidget(dialog)
    assert not dialog.device_combo.isEnabled()
    assert not dialog.remeasure_button.isEnabled()
    assert "PAPERLENS_MODEL_ONNX_DEVICE" in dialog.device_note.text()
    qtbot.waitUntil(lambda: "environment variable" in dialog.configured_label.text())


def test_output_and_language_options_are_saved(qtbot, gui_store, tmp_path):
    dialog = PreferencesDialog(gui_store, lambda: DeviceStatus("auto", "default"))
    qtbot.addWidget(dialog)
    dialog.json_check.setChecked(False)
    dialog.table_combo.setCurrentIndex(dialog.table_combo.findData("markdown"))
    dialog.language_combo.setCurrentIndex(dialog.language_combo.findData("zh_CN"))
    data = saved(gui_store)
    assert data["output"]["write_json"] is False
    assert data["output"]["table_format"] == "markdown"
    assert data["ui"]["language"] == "zh_CN"
    assert data["output"]["dir"] == str(tmp_path / "out")


def test_model_table_lists_models_and_downloads_with_progress(qtbot, gui_store, tmp_path,
                                                              monkeypatch):
    gui_store.set("model.base_dir", str(tmp_path / "models"))
    dialog = PreferencesDialog(gui_store, lambda: DeviceStatus("auto", "default"))
    qtbot.addWidget(dialog)
    table = dialog.models
    ids = [table.item(row, table.MODEL).text().rstrip(" ★") for row in range(table.rowCount())]
    assert "ppocrv6-det-small" in ids
    row = ids.index("ppocrv6-det-small")
    button = table.cellWidget(row, table.ACTION)
    assert isinstance(button, QPushButton)

    def fake_ensure(model_id):  # no network in tests: report progress, then place the file
        for done in (0, 50, 100):
            table.store.on_progress(ModelDownloadProgress(model_id, done, 100))
        path = table.store.path_for(model_id)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"model")
        return path

    monkeypatch.setattr(table.store, "ensure", fake_ensure)
    with qtbot.waitSignal(table.downloadFinished, timeout=10_000) as finished:
        button.click()
        assert isinstance(table.cellWidget(row, table.ACTION), QProgressBar)
    assert finished.args == ["ppocrv6-det-small", ""]
    assert "Installed" in table.item(row, table.STATUS).text()
    assert Path(tmp_path / "models" / "PP-OCRv6_det_small.onnx").is_file()


def test_model_table_shows_the_shipped_formula_model_without_a_download(qtbot, gui_store,
                                                                        tmp_path):
    gui_store.set("model.base_dir", str(tmp_path / "models"))
    dialog = PreferencesDialog(gui_store, lambda: DeviceStatus("auto", "default"))
    qtbot.addWidget(dialog)
    table = dialog.models
    ids = [table.item(row, table.MODEL).text().rstrip(" ★") for row in range(table.rowCount())]
    row = ids.index("paperlens-formula-v1")
    spec = table.store.spec("paperlens-formula-v1")
    assert table.cellWidget(row, table.ACTION) is None  # nothing to download: it ships inside
    assert table.item(row, table.STATUS).text() == "Shipped with Paperlens"
    # The size is the three files together, not the encoder alone.
    assert spec.total_size > spec.size
    assert table.item(row, table.SIZE).text() == _size_text(spec.total_size)


@pytest.mark.model
def test_remeasure_with_the_real_engine(qtbot, make_window, engine, phototest):
    """The real Engine decides at the first parse; after re-measure nothing is decided."""
    from engine.api import Engine

    made = []

    def real_engine(settings):
        made.append(Engine(settings))
        return made[-1]

    window = make_window(real_engine)
    window.store.set("model.onnx_device", "cpu")
    with qtbot.waitSignal(window.controller.jobFinished, timeout=120_000):
        window.add_paths([phototest])
    assert window.controller.model.jobs[0].state is JobState.DONE
    dialog = window.preferences_dialog()
    dialog.show()
    qtbot.waitUntil(lambda: status_shown(dialog) and "CPU" in dialog.effective_label.text(),
                    timeout=20_000)
    assert window.controller.worker.engine.device_status().effective == "cpu"

    dialog.remeasure_button.click()
    assert saved(window.store)["model"]["onnx_device"] == "auto"
    assert window.controller.worker.engine is None
    qtbot.waitUntil(lambda: "Not decided yet" in dialog.effective_label.text(), timeout=20_000)
    # The engine that answers the status now is a fresh one that has decided nothing.
    assert made[-1].device_status().decided_by == "not yet"
    assert made[-1].device_status().effective is None
