"""The main window's actions, with their shortcuts, menus and toolbar."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, QSize, Qt
from PySide6.QtGui import QAction, QIcon, QKeySequence
from PySide6.QtWidgets import QMainWindow, QStyle, QToolBar

from gui.queue_model import Job, JobState


class WindowActions(QObject):
    def __init__(self, window: QMainWindow) -> None:
        """`window` is the main window: its slots (open_files, export_selected, ...) are the
        actions' targets."""
        super().__init__(window)
        self._window = window
        style = window.style()
        icon = style.standardIcon
        SP = QStyle.StandardPixmap

        def make(name: str, text: str, slot, shortcut=None, tip: str = "", pixmap=None) -> QAction:
            action = QAction(text, window)
            action.setObjectName(name)
            if shortcut is not None:
                action.setShortcut(QKeySequence(shortcut))
                action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
            if pixmap is not None:
                action.setIcon(icon(pixmap))
            shown = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
            action.setToolTip(f"{tip or text.replace('&', '')}" + (f" ({shown})" if shown else ""))
            action.triggered.connect(slot)
            window.addAction(action)
            return action

        self.open_files = make("openFiles", self.tr("&Open…"), window.open_files,
                               QKeySequence.StandardKey.Open, self.tr("Add PDFs and images"),
                               SP.SP_DialogOpenButton)
        self.open_folder = make("openFolder", self.tr("Open &Folder…"), window.open_folder,
                                "Ctrl+Shift+O", self.tr("Add every document in a folder"),
                                SP.SP_DirOpenIcon)
        self.export = make("export", self.tr("&Export…"), lambda: window.export_selected(),
                           "Ctrl+E", self.tr("Save the Markdown, JSON and images to a folder"),
                           SP.SP_DialogSaveButton)
        self.open_output = make("openOutput", self.tr("Open Output Fo&lder"),
                                window.open_output_folder, "Ctrl+Shift+L",
                                self.tr("Show the selected document's results"),
                                SP.SP_DirLinkIcon)
        self.reveal = make("reveal", self.tr("&Reveal in File Manager"), window.reveal_selected,
                           "Ctrl+Shift+R", self.tr("Show the selected document's Markdown file "
                                                   "in the file manager"))
        self.copy_markdown = make("copyMarkdown", self.tr("&Copy Markdown"), window.copy_markdown,
                                  "Ctrl+Shift+C", self.tr("Copy the Markdown to the clipboard"),
                                  SP.SP_FileDialogDetailedView)
        self.paste = make("paste", self.tr("&Paste"), lambda: window.paster.paste(),
                          QKeySequence.StandardKey.Paste,
                          self.tr("Convert the image or the files on the clipboard"))
        self.paste.setIcon(QIcon.fromTheme("edit-paste"))  # Qt's own style has no paste icon
        self.copy_latex = make("copyLatex", self.tr("Copy &LaTeX"),
                               lambda: window.copier.copy_latex(), "Ctrl+Shift+M",
                               self.tr("Copy the formula's LaTeX: a document of one formula, or "
                                       "the formula clicked on the page"))
        self.copy_table = make("copyTable", self.tr("Copy &Table"),
                               lambda: window.copier.copy_table(), "Ctrl+Shift+T",
                               self.tr("Copy the table as HTML or Markdown (Preferences > "
                                       "Reading): a document of one table, or the table "
                                       "clicked on the page"))
        self.cancel = make("cancel", self.tr("Cancel"), window.cancel_selected, "Esc",
                           self.tr("Stop converting the selected documents"),
                           SP.SP_BrowserStop)
        self.cancel_all = make("cancelAll", self.tr("Cancel All"), window.cancel_all,
                               "Shift+Esc", self.tr("Stop every waiting and running document"))
        self.retry = make("retry", self.tr("Retry"), window.retry_selected, "Ctrl+R",
                          self.tr("Convert the failed or cancelled documents again"),
                          SP.SP_BrowserReload)
        self.read_again = make("readAgain", self.tr("Read &Again With…"),
                               lambda: window.read_again.open(), "Ctrl+Shift+A",
                               self.tr("Read the selected documents again with other pages, "
                                       "tables, headers and footers, formulas or layout model"))
        self.remove = make("remove", self.tr("Remove"), window.remove_selected,
                           QKeySequence.StandardKey.Delete,
                           self.tr("Take the selected documents off the list"))
        self.preferences = make("preferences", self.tr("&Preferences…"), window.show_preferences,
                                QKeySequence.StandardKey.Preferences,
                                pixmap=SP.SP_FileDialogInfoView)
        if self.preferences.shortcut().isEmpty():
            self.preferences.setShortcut(QKeySequence("Ctrl+,"))
        self.show_log = make("showLog", self.tr("&Log"), window.show_log, "Ctrl+L",
                             self.tr("What Paperlens did in this session"))
        self.about = make("about", self.tr("&About Paperlens"), window.show_about)
        self.quit = make("quit", self.tr("&Quit"), window.close, QKeySequence.StandardKey.Quit)
        self.toggle_boxes = window.preview.boxes_toggle

        menus = window.menuBar()
        file_menu = menus.addMenu(self.tr("&File"))
        file_menu.addActions([self.open_files, self.open_folder])
        self.recent_menu = file_menu.addMenu(self.tr("Recent Outputs"))
        file_menu.addSeparator()
        file_menu.addActions([self.export, self.open_output, self.reveal, self.copy_markdown])
        file_menu.addSeparator()
        file_menu.addAction(self.quit)
        edit_menu = menus.addMenu(self.tr("&Edit"))
        edit_menu.addActions([self.paste, self.copy_latex, self.copy_table])
        edit_menu.addSeparator()
        edit_menu.addAction(self.preferences)
        queue_menu = menus.addMenu(self.tr("&Queue"))
        queue_menu.addActions([self.cancel, self.cancel_all, self.retry, self.read_again,
                               self.remove])
        view_menu = menus.addMenu(self.tr("&View"))
        view_menu.addAction(self.show_log)
        help_menu = menus.addMenu(self.tr("&Help"))
        help_menu.addAction(self.about)

        toolbar = QToolBar(self.tr("Main"), window)
        toolbar.setObjectName("mainToolbar")
        toolbar.setMovable(False)
        toolbar.setIconSize(QSize(20, 20))
        toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        toolbar.addActions([self.open_files, self.paste, self.export, self.open_output,
                            self.copy_markdown, self.copy_latex, self.copy_table])
        toolbar.addSeparator()
        toolbar.addActions([self.cancel, self.retry])
        toolbar.addSeparator()
        toolbar.addAction(self.preferences)
        window.addToolBar(toolbar)

        # Each document's own commands, on a right click in the queue.
        queue = window.queue_view
        queue.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        gap = QAction(window)
        gap.setSeparator(True)
        queue.addActions([self.open_output, self.reveal, self.export, self.copy_markdown,
                          self.copy_latex, self.copy_table, gap, self.read_again, self.retry,
                          self.cancel, self.remove])

    def update(self, current: "Job | None", selected: list["Job"], busy: bool) -> None:
        has_result = current is not None and current.result is not None
        self.copy_markdown.setEnabled(has_result)
        copier = self._window.copier
        self.copy_latex.setEnabled(copier.target("formula") is not None)
        self.copy_table.setEnabled(copier.target("table") is not None)
        # A document of an earlier session has its files, not its result, in this one.
        self.export.setEnabled(current is not None and current.markdown_path is not None)
        self.reveal.setEnabled(current is not None and current.markdown_path is not None)
        self.open_output.setEnabled(current is not None)
        self.cancel.setEnabled(any(not j.state.finished for j in selected))
        self.cancel_all.setEnabled(busy)
        self.retry.setEnabled(any(j.state in (JobState.FAILED, JobState.CANCELLED)
                                  for j in selected))
        self.remove.setEnabled(any(j.state is not JobState.PARSING for j in selected))
        self.read_again.setEnabled(any(j.state is not JobState.PARSING for j in selected))

    def set_recent(self, paths: list[Path]) -> None:
        menu = self.recent_menu
        menu.clear()
        for path in paths:
            action = menu.addAction(path.name)
            action.setToolTip(str(path))
            action.setStatusTip(str(path))
            action.triggered.connect(lambda _=False, p=path: self._window.open_recent(p))
        if paths:
            menu.addSeparator()
            menu.addAction(self.tr("Clear"), self._window.clear_recent)
        menu.setEnabled(bool(paths))
