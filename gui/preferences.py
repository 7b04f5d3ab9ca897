"""The preferences dialog: device, output, reading switches, models, language and watched folders,
saved through the settings store."""

from __future__ import annotations

import logging
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Callable

from PySide6.QtCore import QUrl, Signal
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import (QCheckBox, QComboBox, QDialog, QDialogButtonBox, QFileDialog,
                               QFormLayout, QHBoxLayout, QLabel, QLineEdit, QMessageBox,
                               QPushButton, QTabWidget, QVBoxLayout, QWidget)

from gui.background import run_in_background
from gui.device_text import configured_text, decided_text, details_text, effective_text, \
    reason_text
from gui.model_list import ModelTable
from gui.reading_choices import ReadingChoices
from gui.reading_options import ReadingSwitches, combo_of
from gui.watched_folders import WatchedFoldersTab
from settings import SettingsError, SettingsStore

log = logging.getLogger(__name__)

DEVICES = ("auto", "cpu", "gpu")
LANGUAGES = ("system", "en", "zh_CN")
# The settings key of each reading switch (gui/reading_choices.py).
SWITCH_KEYS = {"keep_furniture": "output.keep_furniture", "table_format": "output.table_format",
               "inline_math": "output.inline_math", "layout": "model.layout",
               "dewarp": "output.dewarp", "languages": "model.languages"}



def _select(combo: QComboBox, value: str) -> None:
    index = combo.findData(value)
    if index >= 0 and index != combo.currentIndex():
        combo.blockSignals(True)
        combo.setCurrentIndex(index)
        combo.blockSignals(False)


def _wrapping_label(name: str) -> QLabel:
    label = QLabel()
    label.setObjectName(name)
    label.setWordWrap(True)
    return label


class PreferencesDialog(QDialog):
    """Every change is written at once through `SettingsStore.set` (the one write path)."""

    settingsChanged = Signal()
    remeasureRequested = Signal()

    def __init__(self, store: SettingsStore, device_status: Callable[[], Any],
                 parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("preferencesDialog")
        self.setWindowTitle(self.tr("Preferences"))
        self.resize(660, 460)
        self._store = store
        self._device_status = device_status
        self._status_request = 0
        settings = store.load()

        self.tabs = QTabWidget()
        self.tabs.addTab(self._device_tab(), self.tr("Device"))
        self.tabs.addTab(self._output_tab(), self.tr("Output"))
        self.tabs.addTab(self._reading_tab(), self.tr("Reading"))
        self.tabs.addTab(self._models_tab(settings), self.tr("Models"))
        self.tabs.addTab(self._interface_tab(), self.tr("Interface"))
        self.watched = WatchedFoldersTab(self._set)
        self.tabs.addTab(self.watched, self.tr("Watched Folders"))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.tabs)
        layout.addWidget(buttons)
        self.load(settings)

    # -- tabs ---------------------------------------------------------------------------------

    def _device_tab(self) -> QWidget:
        self.device_combo = combo_of([("auto", self.tr("Automatic (measure once, keep the faster)")),
                                    ("cpu", self.tr("CPU")), ("gpu", self.tr("GPU"))],
                                   "deviceCombo")
        self.device_combo.currentIndexChanged.connect(self._on_device_chosen)
        self.device_note = _wrapping_label("deviceNote")
        self.configured_label = _wrapping_label("configuredLabel")
        self.effective_label = _wrapping_label("effectiveLabel")
        self.decided_label = _wrapping_label("decidedLabel")
        self.reason_label = _wrapping_label("reasonLabel")
        self.details_label = _wrapping_label("deviceDetails")
        self.remeasure_button = QPushButton(self.tr("Re-measure"))
        self.remeasure_button.setObjectName("remeasureButton")
        self.remeasure_button.setToolTip(self.tr(
            "Set the device to Automatic so that the next document measures the GPU against "
            "the CPU again. Nothing is measured now."))
        self.remeasure_button.clicked.connect(self.remeasure)
        self.remeasure_note = _wrapping_label("remeasureNote")
        form = QFormLayout()
        form.addRow(self.tr("Run models on:"), self.device_combo)
        form.addRow("", self.device_note)
        form.addRow(self.tr("Configured:"), self.configured_label)
        form.addRow(self.tr("In use:"), self.effective_label)
        form.addRow(self.tr("Why:"), self.decided_label)
        form.addRow(self.tr("Fallback reason:"), self.reason_label)
        form.addRow("", self.details_label)
        row = QHBoxLayout()
        row.addWidget(self.remeasure_button)
        row.addWidget(self.remeasure_note, 1)
        form.addRow("", row)
        explanation = _wrapping_label("deviceExplanation")
        explanation.setText(self.tr(
            "Automatic: the first time a document needs the models, Paperlens times the GPU "
            "against the CPU on a few sample lines and keeps the GPU only if it is at least "
            "20% faster. The result is saved, so later sessions start at once. Nothing is "
            "measured when the app starts or when this window opens."))
        explanation.setStyleSheet("color: palette(placeholder-text);")
        layout = QVBoxLayout()
        layout.addLayout(form)
        layout.addStretch(1)
        layout.addWidget(explanation)
        tab = QWidget()
        tab.setLayout(layout)
        return tab

    def _output_tab(self) -> QWidget:
        self.output_edit = QLineEdit()
        self.output_edit.setObjectName("outputFolder")
        self.output_edit.setReadOnly(True)
        choose = QPushButton(self.tr("Choose…"))
        choose.clicked.connect(self._choose_output)
        beside = QPushButton(self.tr("Next to each document"))
        beside.clicked.connect(lambda: self._set("output.dir", None))
        folder_row = QHBoxLayout()
        folder_row.addWidget(self.output_edit, 1)
        folder_row.addWidget(choose)
        folder_row.addWidget(beside)
        self.json_check = QCheckBox(self.tr("Write the JSON result next to the Markdown"))
        self.json_check.setObjectName("writeJson")
        self.json_check.toggled.connect(lambda on: self._set("output.write_json", on))
        form = QFormLayout()
        form.addRow(self.tr("Output folder:"), folder_row)
        form.addRow("", self.json_check)
        tab = QWidget()
        tab.setLayout(form)
        return tab

    def _reading_tab(self) -> QWidget:
        self.switches = ReadingSwitches()
        self.switches.setObjectName("readingSwitches")
        self.table_combo = self.switches.table_combo
        self.layout_combo = self.switches.layout_combo
        self.switches.switchChanged.connect(lambda name, value: self._set(SWITCH_KEYS[name],
                                                                          value))
        note = _wrapping_label("readingNote")
        note.setText(self.tr(
            "For the documents added from now on; each keeps the choices it was queued with. "
            "The pages to read are chosen beside the queue, and a document can be read again "
            "with other choices from its right-click menu."))
        note.setStyleSheet("color: palette(placeholder-text);")
        layout = QVBoxLayout()
        layout.addWidget(self.switches)
        layout.addStretch(1)
        layout.addWidget(note)
        tab = QWidget()
        tab.setLayout(layout)
        return tab

    def _models_tab(self, settings) -> QWidget:
        self.model_dir_edit = QLineEdit()
        self.model_dir_edit.setObjectName("modelFolder")
        self.model_dir_edit.setReadOnly(True)
        change = QPushButton(self.tr("Change…"))
        change.clicked.connect(self._choose_model_dir)
        open_button = QPushButton(self.tr("Open"))
        open_button.clicked.connect(lambda: QDesktopServices.openUrl(
            QUrl.fromLocalFile(self.model_dir_edit.text())))
        row = QHBoxLayout()
        row.addWidget(self.model_dir_edit, 1)
        row.addWidget(change)
        row.addWidget(open_button)
        self.models = ModelTable(settings.model.base_dir, settings.model.index_url)
        layout = QVBoxLayout()
        layout.addLayout(row)
        layout.addWidget(self.models, 1)
        note = _wrapping_label("modelsNote")
        note.setText(self.tr("Models download by themselves when a document needs them; "
                             "★ marks the default ones."))
        layout.addWidget(note)
        tab = QWidget()
        tab.setLayout(layout)
        return tab

    def _interface_tab(self) -> QWidget:
        self.language_combo = combo_of([("system", self.tr("System language")),
                                      ("en", "English"), ("zh_CN", "简体中文")],
                                     "languageCombo")
        self.language_combo.currentIndexChanged.connect(
            lambda: self._set("ui.language", self.language_combo.currentData()))
        note = _wrapping_label("languageNote")
        note.setText(self.tr("The language changes the next time Paperlens starts."))
        form = QFormLayout()
        form.addRow(self.tr("Language:"), self.language_combo)
        form.addRow("", note)
        tab = QWidget()
        tab.setLayout(form)
        return tab

    # -- showing the settings ----------------------------------------------------------------

    def load(self, settings=None) -> None:
        settings = settings or self._store.load()
        device = str(settings.model.onnx_device)
        _select(self.device_combo, device)
        from_env = str(settings.origin("model.onnx_device")) == "env"
        self.device_combo.setEnabled(not from_env)
        self.remeasure_button.setEnabled(not from_env)
        self.device_note.setText(self.tr(
            "PAPERLENS_MODEL_ONNX_DEVICE is set, so the environment decides; unset it to "
            "choose here.") if from_env else "")
        self.device_note.setVisible(from_env)
        # Known without asking the engine; the status read below confirms it.
        self.configured_label.setText(configured_text(SimpleNamespace(
            configured=device, configured_origin=str(settings.origin("model.onnx_device")))))
        self.output_edit.setText(str(settings.output.dir) if settings.output.dir else "")
        self.output_edit.setPlaceholderText(self.tr("Next to each document"))
        self.json_check.blockSignals(True)
        self.json_check.setChecked(settings.output.write_json)
        self.json_check.blockSignals(False)
        self.switches.show_choices(ReadingChoices.from_settings(settings))
        _select(self.language_combo, str(settings.ui.language))
        self.model_dir_edit.setText(str(settings.model.base_dir))
        self.watched.load(settings)
        self.refresh_status()

    def refresh_status(self) -> None:
        """Ask for the device status off the UI thread; reading it measures nothing."""
        self._status_request += 1
        request = self._status_request
        self.effective_label.setText(self.tr("Reading…"))

        def show(status: Any) -> None:
            if request == self._status_request:
                self.show_status(status)

        def failed(error: BaseException) -> None:
            if request == self._status_request:
                self.effective_label.setText(self.tr("Unknown ({0})").format(error))

        run_in_background(self._device_status, show, failed, owner=self)

    def show_status(self, status: Any) -> None:
        self.configured_label.setText(configured_text(status))
        self.effective_label.setText(effective_text(status))
        self.decided_label.setText(decided_text(status))
        self.reason_label.setText(reason_text(status) or self.tr("None"))
        details = details_text(status)
        self.details_label.setText(details)
        self.details_label.setVisible(bool(details))

    # -- changing the settings ---------------------------------------------------------------

    def _set(self, key: str, value: Any) -> bool:
        try:
            settings = self._store.set(key, value)
        except SettingsError as error:
            QMessageBox.warning(self, self.tr("Settings not saved"), str(error))
            self.load()
            return False
        log.info("setting %s = %s", key, value)
        for warning in settings.warnings:
            log.warning("%s", warning)
        self.load(settings)
        self.settingsChanged.emit()
        return True

    def _on_device_chosen(self) -> None:
        self.remeasure_note.clear()
        self._set("model.onnx_device", self.device_combo.currentData())

    def remeasure(self) -> None:
        """Set auto so the next parse measures again; nothing is measured here."""
        if self._set("model.onnx_device", "auto"):
            self.remeasureRequested.emit()
            self.remeasure_note.setText(self.tr("The next document measures the device again."))
            self.refresh_status()  # again: the engine that had decided is forgotten only now

    def _choose_output(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, self.tr("Output folder"),
                                                  self.output_edit.text() or str(Path.home()))
        if folder:
            self._set("output.dir", folder)

    def _choose_model_dir(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, self.tr("Model folder"),
                                                  self.model_dir_edit.text())
        if folder and self._set("model.base_dir", folder):
            settings = self._store.load()
            self.models.set_location(settings.model.base_dir, settings.model.index_url)
