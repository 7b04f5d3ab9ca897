"""The reading options as widgets: the page range field (checked as it is typed, by the CLI's
own --pages parser), the switches (headers and footers, tables, inline formulas, layout model,
the recognition languages, checked by the CLI's --lang parser), and the Read Again With… dialog that holds both for the documents chosen in the queue (ReadAgain
opens it from the window)."""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import (QCheckBox, QComboBox, QDialog, QDialogButtonBox, QFormLayout,
                               QLabel, QLineEdit, QStyle, QVBoxLayout, QWidget)

from gui.queue_model import JobState
from gui.reading_choices import ReadingChoices, format_page_ranges

ERROR_COLOUR = "#b3261e"  # the queue's colour for a failed document


class PageRangeEdit(QWidget):
    """A line edit for '1-3,7' with a message under it while what is typed is no page range.
    Empty means every page."""

    pagesChanged = Signal()  # after each edit; read `valid`, `pages` and `error`

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.edit = QLineEdit()
        self.edit.setObjectName("pageRange")
        self.edit.setClearButtonEnabled(True)
        self.edit.setPlaceholderText(self.tr("every page, or e.g. 1-3,7"))
        self.edit.setToolTip(self.tr("Pages to read, as paperlens-cli --pages takes them: "
                                     "1-3,7 reads pages 1, 2, 3 and 7. Empty: every page."))
        self.message = QLabel()
        self.message.setObjectName("pageRangeMessage")
        self.message.setWordWrap(True)
        self.message.setStyleSheet(f"color: {ERROR_COLOUR};")
        self.message.setVisible(False)
        self._warning = self.edit.addAction(
            self.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxWarning),
            QLineEdit.ActionPosition.TrailingPosition)
        self._warning.setVisible(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.edit)
        layout.addWidget(self.message)
        self.pages: tuple[int, ...] | None = None
        self.error = ""
        self.edit.textChanged.connect(self._check)

    @property
    def valid(self) -> bool:
        return not self.error

    def set_pages(self, pages: tuple[int, ...] | None) -> None:
        self.edit.setText(format_page_ranges(pages) if pages else "")

    def _check(self, text: str) -> None:
        from engine.api import InvalidOptions, parse_page_ranges

        try:
            self.pages, self.error = (parse_page_ranges(text) if text.strip() else None), ""
        except InvalidOptions as error:
            self.pages, self.error = None, error.message
        self.message.setText(self.error)
        self.message.setVisible(bool(self.error))
        self._warning.setVisible(bool(self.error))
        self._warning.setToolTip(self.error)
        self.pagesChanged.emit()


class LanguagesEdit(QWidget):
    """A line edit for the recognition languages as the CLI's --lang takes them ('rus+eng'),
    with a message under it while what is typed is not that. Empty: each line's script is found
    by itself."""

    languagesChanged = Signal()  # after each edit; read `valid`, `languages` and `error`
    languagesChosen = Signal(object)  # editing finished on valid codes: the tuple (() automatic)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.edit = QLineEdit()
        self.edit.setObjectName("recognitionLanguages")
        self.edit.setClearButtonEnabled(True)
        self.edit.setPlaceholderText(self.tr("automatic: each line's script is found"))
        self.edit.setToolTip(self.tr(
            "Tesseract language codes every scanned line is read with, joined by +, as "
            "paperlens-cli --lang takes them: rus+eng reads Russian and English. Empty: "
            "Paperlens finds the script of each line itself."))
        self.message = QLabel()
        self.message.setObjectName("recognitionLanguagesMessage")
        self.message.setWordWrap(True)
        self.message.setStyleSheet(f"color: {ERROR_COLOUR};")
        self.message.setVisible(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.edit)
        layout.addWidget(self.message)
        self.languages: tuple[str, ...] = ()
        self.error = ""
        self.edit.textChanged.connect(self._check)
        self.edit.editingFinished.connect(self._chosen)

    @property
    def valid(self) -> bool:
        return not self.error

    def set_languages(self, languages: tuple[str, ...]) -> None:
        self.edit.setText("+".join(languages))

    def _check(self, text: str) -> None:
        from engine.api import InvalidOptions, parse_languages

        try:
            self.languages, self.error = (parse_languages(text) if text.strip() else ()), ""
        except InvalidOptions as error:
            self.languages, self.error = (), error.message
        self.message.setText(self.error)
        self.message.setVisible(bool(self.error))
        self.languagesChanged.emit()

    def _chosen(self) -> None:
        if self.valid:
            self.languagesChosen.emit(self.languages)


class ReadingSwitches(QWidget):
    """The switches of ReadingChoices, as a form; every change is announced by its
    ReadingChoices field name and value."""

    switchChanged = Signal(str, object)  # ReadingChoices field, new value

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.furniture_check = QCheckBox(self.tr("Keep running headers, footers and page numbers"))
        self.furniture_check.setObjectName("keepFurniture")
        self.furniture_check.setToolTip(self.tr(
            "Off: the lines repeated at the top and bottom of the pages are left out of the "
            "Markdown (they stay in the JSON, marked as header and footer)."))
        self.inline_math_check = QCheckBox(self.tr("Write formulas inside running text as $…$"))
        self.inline_math_check.setObjectName("inlineMath")
        self.inline_math_check.setToolTip(self.tr(
            "Born-digital pages with a math font: formulas within sentences as LaTeX between "
            "dollar signs. Off: the text as the page spells it."))
        self.dewarp_check = QCheckBox(self.tr("Straighten photographed pages"))
        self.dewarp_check.setObjectName("dewarp")
        self.dewarp_check.setToolTip(self.tr(
            "A photo of a page is cut to the page, its perspective undone and a curled page "
            "flattened before it is read. Off: the picture is read as it is."))
        self.table_combo = combo_of([("html", self.tr("HTML")),
                                   ("markdown", self.tr("Markdown (simple tables only)"))],
                                  "tableFormat")
        self.table_combo.setToolTip(self.tr(
            "Markdown writes pipe tables where no cell spans rows or columns; other tables stay "
            "HTML."))
        self.layout_combo = combo_of([("doclaynet", self.tr("DocLayNet (papers, reports, forms)")),
                                    ("cdla", self.tr("CDLA (Chinese documents)")),
                                    ("none", self.tr("None (paragraphs by geometry only)"))],
                                   "layoutModel")
        self.languages_edit = LanguagesEdit()
        form = QFormLayout(self)
        form.setContentsMargins(0, 0, 0, 0)
        form.addRow(self.tr("Tables as:"), self.table_combo)
        form.addRow(self.tr("Layout model:"), self.layout_combo)
        form.addRow(self.tr("Recognition languages:"), self.languages_edit)
        form.addRow("", self.furniture_check)
        form.addRow("", self.inline_math_check)
        form.addRow("", self.dewarp_check)
        self.form = form
        self.furniture_check.toggled.connect(
            lambda on: self.switchChanged.emit("keep_furniture", on))
        self.inline_math_check.toggled.connect(
            lambda on: self.switchChanged.emit("inline_math", on))
        self.dewarp_check.toggled.connect(lambda on: self.switchChanged.emit("dewarp", on))
        self.table_combo.currentIndexChanged.connect(
            lambda: self.switchChanged.emit("table_format", self.table_combo.currentData()))
        self.layout_combo.currentIndexChanged.connect(
            lambda: self.switchChanged.emit("layout", self.layout_combo.currentData()))
        self.languages_edit.languagesChosen.connect(
            lambda languages: self.switchChanged.emit("languages", languages))

    def show_choices(self, choices: ReadingChoices) -> None:
        """Show `choices` without announcing a change."""
        for widget in self._switches():
            widget.blockSignals(True)
        self.furniture_check.setChecked(choices.keep_furniture)
        self.inline_math_check.setChecked(choices.inline_math)
        self.dewarp_check.setChecked(choices.dewarp)
        self.table_combo.setCurrentIndex(max(0, self.table_combo.findData(choices.table_format)))
        self.layout_combo.setCurrentIndex(max(0, self.layout_combo.findData(choices.layout)))
        if self.languages_edit.languages != choices.languages or not self.languages_edit.valid:
            self.languages_edit.set_languages(choices.languages)
        for widget in self._switches():
            widget.blockSignals(False)

    def _switches(self) -> tuple[QWidget, ...]:
        return (self.furniture_check, self.inline_math_check, self.dewarp_check,
                self.table_combo, self.layout_combo, self.languages_edit)

    def choices(self, pages: tuple[int, ...] | None = None) -> ReadingChoices:
        return ReadingChoices(pages=pages, keep_furniture=self.furniture_check.isChecked(),
                              table_format=self.table_combo.currentData(),
                              inline_math=self.inline_math_check.isChecked(),
                              layout=self.layout_combo.currentData(),
                              dewarp=self.dewarp_check.isChecked(),
                              languages=self.languages_edit.languages)


class ReadAgainDialog(QDialog):
    """The pages and switches for reading documents again, filled in with how the first of
    them was read; Read is offered only while the page range is one."""

    def __init__(self, names: list[str], choices: ReadingChoices,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("readAgainDialog")
        self.setWindowTitle(self.tr("Read Again With…"))
        heading = QLabel(self.tr("Read {0} again with:").format(names[0]) if len(names) == 1
                         else self.tr("Read {0} documents again with:").format(len(names)))
        heading.setObjectName("readAgainHeading")
        heading.setWordWrap(True)
        heading.setTextFormat(Qt.TextFormat.PlainText)  # a file name is shown, never read as markup
        self.pages_edit = PageRangeEdit()
        self.switches = ReadingSwitches()
        self.switches.show_choices(choices)
        self.switches.form.insertRow(0, self.tr("Pages:"), self.pages_edit)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.read_button = self.buttons.addButton(self.tr("Read"),
                                                  QDialogButtonBox.ButtonRole.AcceptRole)
        self.read_button.setObjectName("readAgainButton")
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.pages_edit.pagesChanged.connect(self._enable_read)
        self.switches.languages_edit.languagesChanged.connect(self._enable_read)
        self.pages_edit.set_pages(choices.pages)
        layout = QVBoxLayout(self)
        layout.addWidget(heading)
        layout.addWidget(self.switches)
        layout.addStretch(1)
        layout.addWidget(self.buttons)
        self.resize(520, self.sizeHint().height())

    def _enable_read(self) -> None:
        self.read_button.setEnabled(self.pages_edit.valid and self.switches.languages_edit.valid)

    def choices(self) -> ReadingChoices:
        return self.switches.choices(self.pages_edit.pages)


def combo_of(items: list[tuple[str, str]], name: str) -> QComboBox:
    """A combo box of (value, shown text) items, named for tests and styles."""
    combo = QComboBox()
    combo.setObjectName(name)
    for value, text in items:
        combo.addItem(text, value)
    return combo


class ReadAgain(QObject):
    """Queue > Read Again With…: the dialog for the documents chosen in the window's queue;
    on Read, each of them is read again with the choices made there (JobController.read_again)."""

    def __init__(self, window) -> None:
        """`window` is the main window (controller, selected_jobs, status_label)."""
        super().__init__(window)
        self._window = window
        self.dialog: ReadAgainDialog | None = None

    def targets(self) -> list:
        """The chosen documents that can be read again: all but the one being read."""
        return [job for job in self._window.selected_jobs() if job.state is not JobState.PARSING]

    def open(self) -> ReadAgainDialog | None:
        """Show the dialog (window-modal, without waiting); None when there is nothing to read."""
        jobs = self.targets()
        if not jobs:
            return None
        dialog = ReadAgainDialog([job.path.name for job in jobs], jobs[0].choices, self._window)
        dialog.accepted.connect(lambda: self._read(jobs, dialog.choices()))
        dialog.finished.connect(dialog.deleteLater)
        self.dialog = dialog
        dialog.open()
        return dialog

    def _read(self, jobs: list, choices: ReadingChoices) -> None:
        again = [self._window.controller.read_again(job.id, choices) for job in jobs]
        queued = [job for job in again if job is not None]
        if queued:
            self._window.queue_view.select_job(queued[-1].id)
        refused = [job.path.name for job, new in zip(jobs, again) if new is None]
        if refused:  # read again while its next reading waits or runs
            self._window.status_label.setText(self.tr(
                "Not read again: {0} is already in the queue to be read.").format(
                    ", ".join(refused)))
