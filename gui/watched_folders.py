"""Preferences > Watched folders: the folders whose new documents convert by themselves, each
with its output folder (settings: watch.folders)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from PySide6.QtWidgets import (QAbstractItemView, QFileDialog, QHBoxLayout, QHeaderView, QLabel,
                               QPushButton, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget)

from settings import Settings, WatchedFolder

DEFAULT_OUTPUT_NAME = "converted"  # a subfolder: only the folder itself is watched


class WatchedFoldersTab(QWidget):
    """Changes go through `save("watch.folders", value)`: the dialog's one way to write."""

    def __init__(self, save: Callable[[str, Any], bool], parent=None) -> None:
        super().__init__(parent)
        self._save = save
        self.folders: tuple[WatchedFolder, ...] = ()
        self.table = QTableWidget(0, 2)
        self.table.setObjectName("watchedFolders")
        self.table.setHorizontalHeaderLabels([self.tr("Folder"), self.tr("Output folder")])
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.table.verticalHeader().setVisible(False)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.itemSelectionChanged.connect(self._update_buttons)
        add = QPushButton(self.tr("Add…"))
        add.setObjectName("addWatchedFolder")
        add.clicked.connect(self._choose_folder)
        self.output_button = QPushButton(self.tr("Change Output…"))
        self.output_button.clicked.connect(self._choose_output)
        self.remove_button = QPushButton(self.tr("Remove"))
        self.remove_button.setObjectName("removeWatchedFolder")
        self.remove_button.clicked.connect(self.remove_selected)
        buttons = QHBoxLayout()
        buttons.addWidget(add)
        buttons.addWidget(self.output_button)
        buttons.addWidget(self.remove_button)
        buttons.addStretch(1)
        note = QLabel(self.tr(
            "A document that appears in a watched folder is converted into its output folder "
            "with the current options once it is complete (its size stops changing), and only "
            "once: the same content is never converted twice, even under another name. "
            "Documents already in the folder are converted too; subfolders are not watched. "
            "A document that cannot be converted is reported in the log (View > Log)."))
        note.setObjectName("watchNote")
        note.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table, 1)
        layout.addLayout(buttons)
        layout.addWidget(note)
        self._update_buttons()

    def load(self, settings: Settings) -> None:
        self.folders = settings.watch.folders
        row = self.table.currentRow()
        self.table.setRowCount(len(self.folders))
        for index, watched in enumerate(self.folders):
            for column, path in enumerate((watched.folder, watched.output)):
                item = QTableWidgetItem(str(path))
                item.setToolTip(str(path))
                self.table.setItem(index, column, item)
        if 0 <= row < len(self.folders):
            self.table.selectRow(row)
        self._update_buttons()

    def _update_buttons(self) -> None:
        chosen = bool(self.table.selectionModel().selectedRows())
        self.output_button.setEnabled(chosen)
        self.remove_button.setEnabled(chosen)

    # -- changes ------------------------------------------------------------------------------

    def add_folder(self, folder: Path, output: Path | None = None) -> bool:
        """Watch `folder`, converting into `output` (default: its `converted` subfolder)."""
        folder = Path(folder)
        watched = WatchedFolder(folder, Path(output) if output else folder / DEFAULT_OUTPUT_NAME)
        kept = tuple(w for w in self.folders if w.folder != folder)
        return self._save("watch.folders", list(kept + (watched,)))

    def set_output(self, row: int, output: Path) -> bool:
        folders = list(self.folders)
        folders[row] = WatchedFolder(folders[row].folder, Path(output))
        return self._save("watch.folders", folders)

    def remove_selected(self) -> bool:
        rows = {index.row() for index in self.table.selectionModel().selectedRows()}
        if not rows:
            return False
        return self._save("watch.folders",
                          [w for i, w in enumerate(self.folders) if i not in rows])

    def _choose_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, self.tr("Folder to watch"),
                                                  str(Path.home()))
        if folder:
            self.add_folder(Path(folder))

    def _choose_output(self) -> None:
        row = self.table.currentRow()
        if not 0 <= row < len(self.folders):
            return
        output = QFileDialog.getExistingDirectory(
            self, self.tr("Output folder for {0}").format(self.folders[row].folder),
            str(self.folders[row].output))
        if output:
            self.set_output(row, Path(output))
