"""The main window: the drop area and queue on the left, the selected document's preview right."""

from __future__ import annotations

import gc
import logging
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QCloseEvent, QDragEnterEvent, QDropEvent, QGuiApplication
from PySide6.QtWidgets import (QComboBox, QFileDialog, QFormLayout, QHBoxLayout, QInputDialog,
                               QLabel, QLineEdit, QMainWindow, QProgressBar, QPushButton,
                               QSplitter, QVBoxLayout, QWidget)

from gui.about import AboutDialog
from gui.actions import WindowActions
from gui.background import run_in_background
from gui.copy_block import BlockCopier
from gui.device_text import decided_text, device_name, effective_text, reason_text
from gui.drop_area import DropArea, local_paths
from gui.export import Exporter
from gui.icons import app_icon
from gui.jobs import JobController
from gui.log_window import LogBook, LogWindow
from gui.paste import Paster
from gui.preferences import PreferencesDialog
from gui.preview import PreviewPane
from gui.queue_history import QueueHistory
from gui.queue_model import Job, JobState, status_text
from gui.queue_view import QueueView
from gui.reading_options import PageRangeEdit, ReadAgain
from gui.reveal import open_path, reveal_file
from gui.unread_scripts import UnreadScriptsOffer
from gui.watch import FolderWatcher
from gui.window_state import LayoutParts, WindowState
from gui.worker import EngineFactory
from settings import SettingsStore

log = logging.getLogger(__name__)

FILE_SUFFIXES = ("*.pdf *.xps *.oxps *.epub *.cbz *.docx *.xlsx *.pptx *.odt *.ods *.odp *.png "
                 "*.jpg *.jpeg *.tif *.tiff *.bmp *.webp")


class MainWindow(QMainWindow):
    """Opening it does no model, device or file work; the first document starts the engine."""

    def __init__(self, store: SettingsStore, engine_factory: EngineFactory | None = None,
                 log_book: LogBook | None = None) -> None:
        super().__init__()
        self.setObjectName("paperlensMainWindow")
        self.setWindowTitle("Paperlens")
        self.setWindowIcon(app_icon())
        self.setAcceptDrops(True)
        self.store = store
        self.state = WindowState(store.path)
        self.log_book = log_book or LogBook(self)
        self._preferences: PreferencesDialog | None = None
        self._log_window: LogWindow | None = None
        self._closing = False
        # Where the user picks a password; replaceable so tests can answer it.
        self.password_prompt = self._ask_password

        self.controller = JobController(store, engine_factory, self, QueueHistory(store.path))
        self.queue_view = QueueView(self.controller.model)
        self.drop_area = DropArea()
        self.preview = PreviewPane()
        # Before the window's own slots: a watched document is never asked for a password.
        self.watcher = FolderWatcher(store, self.controller, self)
        self.paster, self.copier, self.read_again = Paster(self), BlockCopier(self), ReadAgain(self)
        self.unread_scripts = UnreadScriptsOffer(self)  # after the preview: its bar goes there
        self.exporter = Exporter(self)
        self.commands = WindowActions(self)
        self._build()
        self._connect()
        self._restore_state()
        self._update_actions()
        # What opening the window made lives as long as it. Collected once and frozen out of
        # the collector's way, a full collection (Python's lock held, the window waiting) walks
        # only what came after: over the 52,000 objects of a window with a 300-document queue
        # it took 22 ms on two busy cores, in the first document. Given back at close.
        gc.collect()
        gc.freeze()

    # -- building -----------------------------------------------------------------------------

    def _build(self) -> None:
        buttons = QHBoxLayout()
        for action in (self.commands.cancel, self.commands.cancel_all, self.commands.retry,
                       self.commands.remove):
            button = QPushButton(action.text().replace("&", ""))
            button.setObjectName(f"{action.objectName()}Button")
            button.setToolTip(action.toolTip())
            button.clicked.connect(action.trigger)
            action.enabledChanged.connect(button.setEnabled)
            buttons.addWidget(button)
        self.method_combo = QComboBox()
        self.method_combo.setObjectName("methodCombo")
        for value, text in (("auto", self.tr("Automatic")),
                            ("txt", self.tr("Text layer of digital PDFs")),
                            ("ocr", self.tr("OCR every page"))):
            self.method_combo.addItem(text, value)
        self.method_combo.setToolTip(self.tr(
            "Automatic reads the text layer where it is usable and runs OCR elsewhere."))
        self.method_combo.currentIndexChanged.connect(
            lambda: setattr(self.controller, "method", self.method_combo.currentData()))
        # The pages of the documents added next (the reading switches are preferences).
        self.pages_edit = PageRangeEdit()
        self.pages_edit.pagesChanged.connect(lambda: setattr(self.controller, "pages",
                                                             self.pages_edit.pages))
        reading_form = QFormLayout()
        reading_form.addRow(self.tr("Read text with:"), self.method_combo)
        reading_form.addRow(self.tr("Pages:"), self.pages_edit)
        left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(6, 6, 0, 6)
        left_layout.addWidget(self.drop_area)
        left_layout.addLayout(reading_form)
        left_layout.addWidget(self.queue_view, 1)
        left_layout.addLayout(buttons)
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.setObjectName("mainSplitter")
        self.splitter.addWidget(left)
        self.splitter.addWidget(self.preview)
        self.splitter.setStretchFactor(0, 0)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([380, 1000])
        self.setCentralWidget(self.splitter)

        self.status_label = QLabel()
        self.device_label = QLabel(self.tr("Device: chosen when the first document starts"))
        self.device_label.setObjectName("deviceLabel")
        self.overall_progress = QProgressBar()
        self.overall_progress.setObjectName("overallProgress")
        self.overall_progress.setMinimumWidth(170)
        self.overall_progress.setMaximumWidth(240)
        self.overall_progress.setVisible(False)
        self.statusBar().addWidget(self.status_label, 1)
        self.statusBar().addPermanentWidget(self.device_label)
        self.statusBar().addPermanentWidget(self.overall_progress)
        self.resize(1320, 820)

    def _connect(self) -> None:
        controller = self.controller
        controller.jobChanged.connect(self._on_job_changed)
        controller.pageArrived.connect(self._on_page_arrived)
        controller.jobFinished.connect(self._on_job_finished)
        controller.passwordNeeded.connect(self._on_password_needed)
        controller.downloadProgress.connect(self._on_download_progress)
        controller.deviceDecided.connect(self._on_device_decided)
        self.drop_area.pathsDropped.connect(self.add_paths)
        self.drop_area.clicked.connect(self.open_files)
        self.queue_view.selectionModel().currentRowChanged.connect(self._on_current_row)
        self.queue_view.selectionModel().selectionChanged.connect(self._update_actions)
        self.queue_view.doubleClicked.connect(lambda _: self.open_output_folder())
        self.preview.blockChosen.connect(self._update_actions)

    # -- adding documents ---------------------------------------------------------------------

    def add_paths(self, paths: list[Path | str]) -> None:
        if not self.pages_edit.valid:  # never read every page of what was meant to be a few
            self.status_label.setText(self.tr("Not added: {0} Correct the pages or clear them, "
                                              "then add the documents again.").format(
                                                  self.pages_edit.error))
            return
        self.controller.add_paths(paths)
        if self.queue_view.current_job_id() is None and self.controller.model.jobs:
            self.queue_view.select_job(self.controller.model.jobs[0].id)
        self._update_actions()

    def open_files(self) -> None:
        files, _ = QFileDialog.getOpenFileNames(
            self, self.tr("Open documents"), str(self._start_folder()),
            self.tr("Documents and images ({0});;All files (*)").format(FILE_SUFFIXES))
        if files:
            self.add_paths(files)

    def open_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, self.tr("Open a folder of documents"),
                                                  str(self._start_folder()))
        if folder:
            self.add_paths([folder])

    def _start_folder(self) -> Path:
        jobs = self.controller.model.jobs
        return jobs[-1].path.parent if jobs else Path.home()

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if local_paths(event.mimeData()):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        paths = local_paths(event.mimeData())
        if paths:
            event.acceptProposedAction()
            self.add_paths(paths)

    # -- the selected document ----------------------------------------------------------------

    def selected_job(self) -> Job | None:
        job_id = self.queue_view.current_job_id()
        return self.controller.model.job(job_id) if job_id is not None else None

    def selected_jobs(self) -> list[Job]:
        ids = self.queue_view.selected_job_ids() or [self.queue_view.current_job_id()]
        return [j for j in (self.controller.model.job(i) for i in ids if i is not None) if j]

    def _on_current_row(self) -> None:
        self.preview.show_job(self.selected_job())
        self._update_actions()

    def cancel_selected(self) -> None:
        for job in self.selected_jobs():
            self.controller.cancel(job.id)

    def cancel_all(self) -> None:
        self.controller.cancel_all()

    def retry_selected(self) -> None:
        for job in self.selected_jobs():
            self.controller.retry(job.id)

    def remove_selected(self) -> None:
        for job in self.selected_jobs():
            self.preview.forget_job(job.id)
            self.controller.remove(job.id)
        self._on_current_row()

    # -- export -------------------------------------------------------------------------------

    def export_selected(self, folder: str | Path | None = None) -> list[Path]:
        """Export the selected documents in the formats and into the folder the Export dialog
        asks for (both remembered); gui/export.py."""
        return self.exporter.export(self.selected_jobs(), folder)

    def open_output_folder(self) -> None:
        job = self.selected_job()
        if job is not None:
            open_path(job.markdown_path.parent if job.markdown_path else job.output_dir)

    def reveal_selected(self) -> None:
        job = self.selected_job()
        if job is not None and job.markdown_path is not None:
            reveal_file(job.markdown_path)

    def copy_markdown(self) -> None:
        job = self.selected_job()
        if job is not None and job.result is not None:
            QGuiApplication.clipboard().setText(job.result.markdown)
            self.status_label.setText(self.tr("Markdown of {0} copied").format(job.path.name))

    def open_recent(self, path: Path) -> None:
        open_path(path)

    def clear_recent(self) -> None:
        self.state.clear_recent_outputs()
        self.commands.set_recent([])

    # -- dialogs ------------------------------------------------------------------------------

    def preferences_dialog(self) -> PreferencesDialog:
        if self._preferences is None:
            dialog = PreferencesDialog(self.store, self.controller.worker.device_status, self)
            # Direct: forget_engine is thread-safe, and the status read next must see it done.
            dialog.remeasureRequested.connect(self.controller.worker.forget_engine,
                                              Qt.ConnectionType.DirectConnection)
            self.controller.deviceDecided.connect(lambda _event: dialog.refresh_status())
            dialog.settingsChanged.connect(self.watcher.reload)
            self._preferences = dialog
        return self._preferences

    def show_preferences(self) -> None:
        dialog = self.preferences_dialog()
        dialog.load()
        dialog.show()
        dialog.raise_()

    def show_log(self) -> None:
        if self._log_window is None:
            self._log_window = LogWindow(self.log_book, self)
        self._log_window.show()
        self._log_window.raise_()

    def show_about(self) -> None:
        AboutDialog(self).exec()

    def _ask_password(self, job: Job, wrong: bool) -> str | None:
        prompt = (self.tr("The password did not open {0}. Try again:") if wrong
                  else self.tr("{0} is encrypted. Enter its password:")).format(job.path.name)
        text, ok = QInputDialog.getText(self, self.tr("Password needed"), prompt,
                                        QLineEdit.EchoMode.Password)
        return text if ok and text else None

    # -- controller signals -------------------------------------------------------------------

    def _on_job_changed(self, job_id: int) -> None:
        shown = self.preview.job
        if shown is not None and shown.id == job_id:
            self.preview.refresh()
        done, total = self.controller.model.progress()
        running = self.controller.running is not None
        self.overall_progress.setVisible(total > 0 and (running or done < total))
        self.overall_progress.setRange(0, max(1, total) * 100)
        self.overall_progress.setValue(int(done * 100))
        self.overall_progress.setFormat(self.tr("{0} of {1} documents").format(int(done), total))
        if running:
            job = self.controller.running
            self.status_label.setText(self.tr("Converting {0}").format(job.path.name))
        self._update_actions()

    def _on_page_arrived(self, job_id: int, index: int) -> None:
        shown = self.preview.job
        if shown is None:
            self.queue_view.select_job(job_id)
        elif shown.id == job_id and self.preview.page_index == index - 1:
            self.preview.select_page(index)  # follow the parse while the newest page is shown

    def _on_job_finished(self, job_id: int) -> None:
        job = self.controller.model.job(job_id)
        if job is None:
            return
        if job.state.written:
            if job.state is JobState.PARTIAL:
                self.status_label.setText(f"{job.path.name}: {status_text(job)}")
            else:
                self.status_label.setText(self.tr("{0} done: {1}").format(
                    job.path.name, job.markdown_path or job.output_dir))
            if job.markdown_path is not None:
                self.commands.set_recent(self.state.add_recent_output(job.markdown_path))
        elif job.state is JobState.FAILED:
            self.status_label.setText(self.tr("{0} failed: {1}").format(job.path.name,
                                                                        job.message))
        elif job.state is JobState.CANCELLED:
            self.status_label.setText(self.tr("{0} cancelled").format(job.path.name))
        self._on_job_changed(job_id)
        if not self._closing:
            self.refresh_device_label()

    def refresh_device_label(self) -> None:
        """Show the device the engine runs on, once it has decided (read off the UI thread)."""
        def show(status) -> None:
            if status.effective and not self._closing:
                self.device_label.setText(self.tr("Device: {0}").format(effective_text(status)))
                reason = reason_text(status)
                self.device_label.setToolTip(decided_text(status) + ("\n" + reason if reason
                                                                     else ""))

        run_in_background(self.controller.worker.device_status, show,
                          lambda error: log.info("device status unavailable: %s", error),
                          owner=self)

    def _on_password_needed(self, job_id: int, wrong: bool) -> None:
        job = self.controller.model.job(job_id)
        if job is None or self._closing or job.state is not JobState.NEEDS_PASSWORD:
            return
        self.controller.provide_password(job_id, self.password_prompt(job, wrong))

    def _on_download_progress(self, event) -> None:
        if event.bytes_total:
            self.status_label.setText(self.tr("Downloading model {0}: {1}%").format(
                event.model_id, int(100 * event.bytes_done / event.bytes_total)))
        else:
            self.status_label.setText(self.tr("Downloading model {0}: {1:.1f} MB").format(
                event.model_id, event.bytes_done / 1_000_000))

    def _on_device_decided(self, event) -> None:
        self.device_label.setText(self.tr("Device: {0}").format(device_name(event.device)))
        self.device_label.setToolTip(event.reason)

    def _update_actions(self, *_args) -> None:
        self.commands.update(self.selected_job(), self.selected_jobs(),
                            any(not j.state.finished for j in self.controller.model.jobs))

    # -- state and closing --------------------------------------------------------------------

    def _restore_state(self) -> None:
        self.state.restore_layout(self._layout_parts())
        self.commands.set_recent(self.state.recent_outputs())

    def save_state(self) -> None:
        self.state.save_layout(self._layout_parts())

    def _layout_parts(self) -> LayoutParts:
        return {"window/geometry": (self.saveGeometry, self.restoreGeometry),
                "window/state": (self.saveState, self.restoreState),
                "window/mainSplitter": (self.splitter.saveState, self.splitter.restoreState),
                "window/previewSplitter": (self.preview.splitter.saveState,
                                           self.preview.splitter.restoreState)}

    def closeEvent(self, event: QCloseEvent) -> None:
        """Cancel the running document, wait for the worker to return, then close."""
        self._closing = True
        self.watcher.stop()
        self.save_state()
        if self.controller.running is not None:
            self.status_label.setText(self.tr("Stopping the conversion…"))
        self.controller.shutdown()
        gc.unfreeze()
        super().closeEvent(event)
