"""The model table of the preferences: each model's status, a Download button and its progress."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, Qt, Signal, Slot
from PySide6.QtWidgets import (QHeaderView, QProgressBar, QPushButton, QTableWidget,
                               QTableWidgetItem)

from gui.background import run_detached

log = logging.getLogger(__name__)


def _megabytes(size: float) -> str:
    return QCoreApplication.translate("ModelTable", "{0:.1f} MB").format(size / 1_000_000)


def _size_text(size: int | None) -> str:
    return _megabytes(size) if size else ""


def role_name(role: str) -> str:
    """What a model does, in words."""
    names = {
        "det": QCoreApplication.translate("ModelTable", "Text detection"),
        "rec": QCoreApplication.translate("ModelTable", "Text recognition"),
        "cls": QCoreApplication.translate("ModelTable", "Text direction"),
        "layout": QCoreApplication.translate("ModelTable", "Layout"),
        "table": QCoreApplication.translate("ModelTable", "Tables"),
        "formula": QCoreApplication.translate("ModelTable", "Formulas"),
        "orientation": QCoreApplication.translate("ModelTable", "Page orientation"),
        "script-text": QCoreApplication.translate("ModelTable", "Text in other scripts"),
        "script-id": QCoreApplication.translate("ModelTable", "Script detection"),
        "words": QCoreApplication.translate("ModelTable", "Word list"),
    }
    return names.get(role, role)


class _ProgressRelay(QObject):
    """Carries download progress from the download thread to the UI thread."""

    progress = Signal(object)


class ModelTable(QTableWidget):
    """One row per manifest model. Listing reads files' sizes and records; it loads no model."""

    MODEL, ROLE, SIZE, STATUS, ACTION = range(5)
    downloadFinished = Signal(str, str)  # model id, error message ('' when it worked)

    def __init__(self, model_dir: Path, index_url: str | None, parent=None) -> None:
        super().__init__(0, 5, parent)
        self.setObjectName("modelTable")
        self.setHorizontalHeaderLabels([self.tr("Model"), self.tr("Task"), self.tr("Size"),
                                        self.tr("Status"), ""])
        self.verticalHeader().setVisible(False)
        self.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.setSelectionMode(QTableWidget.SelectionMode.NoSelection)
        header = self.horizontalHeader()
        header.setSectionResizeMode(self.MODEL, QHeaderView.ResizeMode.Stretch)
        for column in (self.ROLE, self.SIZE, self.STATUS, self.ACTION):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        # No parent: a download thread may still report after this table is gone.
        self._relay = _ProgressRelay()
        self._relay.progress.connect(self._on_progress, Qt.ConnectionType.QueuedConnection)
        self._downloading: set[str] = set()
        self._rows: dict[str, int] = {}
        self.set_location(model_dir, index_url)

    def set_location(self, model_dir: Path, index_url: str | None) -> None:
        from engine.api import ModelStore

        self._store = ModelStore(Path(model_dir), index_url, on_progress=self._relay.progress.emit)
        self.refresh()

    @property
    def store(self) -> Any:
        return self._store

    def refresh(self) -> None:
        specs = list(self._store.specs.values())
        self.setRowCount(len(specs))
        self._rows = {}
        for row, spec in enumerate(specs):
            self._rows[spec.id] = row
            status = self._store.status(spec.id)
            name = QTableWidgetItem(spec.id + (" ★" if spec.default else ""))
            name.setToolTip(self.tr("{0}\nLicence: {1}").format(spec.file or self.tr("no file yet"),
                                                               spec.license or "?"))
            self.setItem(row, self.MODEL, name)
            self.setItem(row, self.ROLE, QTableWidgetItem(role_name(spec.role)))
            self.setItem(row, self.SIZE, QTableWidgetItem(_size_text(spec.total_size)))
            if spec.id in self._downloading:
                continue
            self.setItem(row, self.STATUS, QTableWidgetItem(self._status_words(spec, status)))
            if spec.file and spec.sources and not spec.shipped and not status.installed:
                button = QPushButton(self.tr("Download"))
                button.setObjectName(f"download-{spec.id}")
                button.clicked.connect(lambda _=False, model_id=spec.id: self.download(model_id))
                self.setCellWidget(row, self.ACTION, button)
            else:
                self.removeCellWidget(row, self.ACTION)

    def _status_words(self, spec: Any, status: Any) -> str:
        if not spec.file:
            return self.tr("No model available yet")
        if spec.shipped and not status.installed:
            return self.tr("Missing from this installation: reinstall Paperlens")
        if spec.shipped:
            return self.tr("Shipped with Paperlens")
        if not status.installed:
            return self.tr("Not downloaded")
        if status.verified:
            return self.tr("Installed, verified")
        return self.tr("Installed (checked on first use)")

    def download(self, model_id: str) -> None:
        """Fetch one model on a background thread, with a progress bar in its row."""
        if model_id in self._downloading:
            return
        self._downloading.add(model_id)
        row = self._rows[model_id]
        bar = QProgressBar()
        bar.setObjectName(f"progress-{model_id}")
        bar.setRange(0, 0)
        self.setCellWidget(row, self.ACTION, bar)
        self.setItem(row, self.STATUS, QTableWidgetItem(self.tr("Downloading…")))
        store = self._store
        log.info("downloading model %s", model_id)
        run_detached(lambda: store.ensure(model_id),
                     lambda _path: self._finished(model_id, ""),
                     lambda error: self._finished(model_id, str(error)),
                     name=f"download-{model_id}", owner=self)

    @Slot(object)
    def _on_progress(self, event: Any) -> None:
        row = self._rows.get(event.model_id)
        bar = self.cellWidget(row, self.ACTION) if row is not None else None
        if isinstance(bar, QProgressBar):
            if event.bytes_total:
                bar.setRange(0, 1000)
                bar.setValue(int(1000 * event.bytes_done / event.bytes_total))
            bar.setFormat(_megabytes(event.bytes_done))
            bar.setTextVisible(True)

    def _finished(self, model_id: str, error: str) -> None:
        self._downloading.discard(model_id)
        if error:
            log.warning("model %s: %s", model_id, error)
        else:
            log.info("model %s is installed", model_id)
        self.refresh()
        row = self._rows.get(model_id)
        if error and row is not None:
            item = QTableWidgetItem(self.tr("Download failed"))
            item.setToolTip(error)
            self.setItem(row, self.STATUS, item)
        self.downloadFinished.emit(model_id, error)
