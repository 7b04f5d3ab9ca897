"""Exporting converted documents into a chosen folder, in the formats a person picks: the
Markdown (with its images) and the JSON copied from the conversion's own files, the searchable
PDF, Word, Excel, ALTO and hOCR files made from the document's result. The formats chosen are
remembered in window-state.ini beside the settings file (with the recent outputs), the folder
in the settings (output.dir); every selected document is exported in one go, off the UI
thread."""

from __future__ import annotations

import logging
import os
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from PySide6.QtCore import QCoreApplication, QObject
from PySide6.QtWidgets import (QCheckBox, QDialog, QDialogButtonBox, QFileDialog, QHBoxLayout,
                               QLabel, QLineEdit, QMessageBox, QPushButton, QVBoxLayout)

from gui.background import run_in_background

translate = QCoreApplication.translate  # lupdate reads translate("Context", "text")
log = logging.getLogger(__name__)

# The formats in the order they are offered, with the files of a conversion each one copies.
FORMATS = ("md", "json", "pdf", "docx", "xlsx", "alto", "hocr")
COPIED_SUFFIXES = {"md": (".md", ".png"), "json": (".json",)}
MADE = ("pdf", "docx", "xlsx", "alto", "hocr")
DEFAULT = ("md", "json")
"""Formats made from the document's result (engine/export), not copied."""


class ExportError(Exception):
    """The export could not be written; the message is one line for a person."""


def format_label(name: str) -> str:
    return {
        "md": translate("Export", "Markdown, with its images (.md)"),
        "json": translate("Export", "JSON and content list (.json)"),
        "pdf": translate("Export", "Searchable PDF: the pages with their text (.searchable.pdf)"),
        "docx": translate("Export", "Word document with equations and tables (.docx)"),
        "xlsx": translate("Export", "Excel workbook, one sheet per table (.xlsx)"),
        "alto": translate("Export", "ALTO 4 XML: blocks, lines and words with their boxes "
                                    "(.alto.xml)"),
        "hocr": translate("Export", "hOCR: blocks, lines and words with their boxes (.hocr)"),
    }[name]


def export_outputs(outputs: Iterable[str | Path], target: Path,
                   renamed: tuple[str, str] | None = None) -> list[Path]:
    """Copy a document's output files into `target`, keeping their places relative to the .md.

    Images sit in `images/` beside the Markdown, whose links are relative; the copy keeps that
    layout so the exported Markdown shows its pictures. The Markdown is written last, each
    file through a temporary name, so a failed export never leaves a Markdown with missing
    pictures behind. `renamed` = (name, new name): the set is written under the new name, its
    images and the Markdown's links to them too (export_documents chooses it, never over a
    file in `target`)."""
    files = [Path(p) for p in outputs]
    markdown = [p for p in files if p.suffix == ".md"]
    if not markdown:
        raise ExportError(translate(
            "Export", "There is nothing to export yet: the document has no Markdown."))
    base = markdown[0].parent
    ordered = [p for p in files if p.suffix != ".md"] + markdown
    written: list[Path] = []
    try:
        target.mkdir(parents=True, exist_ok=True)
        for source in ordered:
            try:
                relative = source.relative_to(base)
            except ValueError:
                relative = Path(source.name)
            destination = target / _renamed_path(relative, renamed)
            if destination.resolve() == source.resolve():
                written.append(destination)
                continue
            destination.parent.mkdir(parents=True, exist_ok=True)
            if renamed and source.suffix == ".md" and renamed[0] != renamed[1]:
                text = source.read_text(encoding="utf-8").replace(
                    f"images/{renamed[0]}-p", f"images/{renamed[1]}-p")
                _place(destination, lambda temp, text=text: Path(temp).write_text(
                    text, encoding="utf-8"))
            else:
                _place(destination, lambda temp, source=source: shutil.copyfile(source, temp))
            written.append(destination)
    except OSError as error:
        raise ExportError(translate("Export", "Cannot export to {0}: {1}.").format(
            target, error.strerror or error)) from None
    return written


def _renamed_path(relative: Path, renamed: tuple[str, str] | None) -> Path:
    """A file of the set under its new name: `doc.md` -> `doc-2.md`, `images/doc-p1-...`
    -> `images/doc-2-p1-...`."""
    if not renamed or renamed[0] == renamed[1]:
        return relative
    old, new = renamed
    name = relative.name
    if relative.parent.name == "images" and name.startswith(f"{old}-p"):
        return relative.parent / (new + name[len(old):])
    if name.startswith(old) and name[len(old):len(old) + 1] in (".", "_"):
        return relative.parent / (new + name[len(old):])
    return relative


def free_name(target: Path, name: str, own_folder: Path | None) -> str:
    """`name`, or `name-2`, `name-3`, ...: the first whose files are not in `target` (the
    engine's rule for conversions: nothing of another document or the user is replaced).
    Exporting into the document's own folder keeps its name: the files are its own."""
    from engine.api import name_taken

    if own_folder is not None and target.resolve() == own_folder.resolve():
        return name
    count, free = 1, name
    while name_taken(target, free):
        count += 1
        free = f"{name}-{count}"
    return free


def _place(destination: Path, write) -> None:
    """`write(temp)` fills a temporary file beside `destination`, which then replaces it."""
    fd, temp = tempfile.mkstemp(dir=destination.parent, prefix=f".{destination.name}.",
                                suffix=".part")
    os.close(fd)
    try:
        write(temp)
        os.replace(temp, destination)
    finally:
        if os.path.exists(temp):
            os.unlink(temp)


@dataclass(frozen=True)
class DocumentExport:
    """What exporting one queued document needs (taken from its job on the UI thread)."""

    name: str
    """The output name (<name>.md, <name>.docx, ...)."""
    outputs: tuple[str, ...]
    result: object = None
    """The DocumentResult, when converted in this session; None for one restored from an
    earlier session (only its files can be copied then)."""
    password: str | None = None


@dataclass
class ExportReport:
    written: list[Path] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def export_documents(documents: Iterable[DocumentExport], formats: Iterable[str],
                     target: Path) -> ExportReport:
    """Every document in every chosen format into `target`; a document or a format that
    cannot be exported is named in the report and the others are still written."""
    from engine.api import ExportContext, OutputFormat, export_document

    chosen = [f for f in FORMATS if f in set(formats)]
    report = ExportReport()
    for document in documents:
        copied = [p for p in document.outputs if _copied_by(p, chosen)]
        markdown = next((Path(p) for p in document.outputs if p.endswith(".md")), None)
        own = markdown.parent if markdown else (Path(copied[0]).parent if copied else None)
        name = free_name(target, document.name, own)
        renamed = (document.name, name)
        try:
            if copied:
                report.written += export_outputs(copied, target, renamed) if any(
                    p.endswith(".md") for p in copied) else _copy_plain(copied, target, renamed)
        except ExportError as error:
            report.problems.append(f"{document.name}: {error}")
        made = [OutputFormat(f) for f in chosen if f in MADE]
        if not made:
            continue
        if document.result is None:
            report.problems.append(translate(
                "Export", "{0}: convert it again to export it as PDF, Word or Excel (it was "
                "converted in an earlier session).").format(document.name))
            continue
        outcome = export_document(document.result, tuple(made), name, ExportContext(
            document.password, markdown.parent if markdown else None))
        report.problems += list(outcome.problems)
        try:
            target.mkdir(parents=True, exist_ok=True)
            for name, data in outcome.files.items():
                _place(target / name, lambda temp, data=data: Path(temp).write_bytes(data))
                report.written.append(target / name)
        except OSError as error:
            report.problems.append(translate("Export", "Cannot export to {0}: {1}.").format(
                target, error.strerror or error))
    return report


def _copied_by(output: str, chosen: list[str]) -> bool:
    suffix = Path(output).suffix.lower()
    return any(suffix in COPIED_SUFFIXES.get(name, ()) for name in chosen)


def _copy_plain(files: list[str], target: Path,
                renamed: tuple[str, str] | None = None) -> list[Path]:
    written = []
    try:
        target.mkdir(parents=True, exist_ok=True)
        for source in map(Path, files):
            destination = target / _renamed_path(Path(source.name), renamed)
            if destination.resolve() != source.resolve():
                _place(destination, lambda temp, s=source: shutil.copyfile(s, temp))
            written.append(destination)
    except OSError as error:
        raise ExportError(translate("Export", "Cannot export to {0}: {1}.").format(
            target, error.strerror or error)) from None
    return written


class ExportDialog(QDialog):
    """Which formats, into which folder."""

    def __init__(self, parent, formats: Iterable[str], folder: Path, count: int) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Export"))
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(self.tr("Export {0} document(s) as:").format(count)))
        self.boxes: dict[str, QCheckBox] = {}
        for name in FORMATS:
            box = QCheckBox(format_label(name))
            box.setChecked(name in set(formats))
            box.toggled.connect(self._update)
            layout.addWidget(box)
            self.boxes[name] = box
        row = QHBoxLayout()
        self.folder = QLineEdit(str(folder))
        browse = QPushButton(self.tr("Choose…"))
        browse.clicked.connect(self._browse)
        row.addWidget(QLabel(self.tr("Folder:")))
        row.addWidget(self.folder, 1)
        row.addWidget(browse)
        layout.addLayout(row)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                        | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText(self.tr("Export"))
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        self._update()

    def chosen(self) -> list[str]:
        return [name for name, box in self.boxes.items() if box.isChecked()]

    def _update(self) -> None:
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setEnabled(bool(self.chosen()) and bool(self.folder.text().strip()))

    def _browse(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, self.tr("Export to folder"),
                                                  self.folder.text())
        if folder:
            self.folder.setText(folder)
            self._update()


class Exporter(QObject):
    """File > Export for the main window: asks for formats and a folder (both remembered) and
    exports every selected document."""

    def __init__(self, window) -> None:
        """`window` is the main window (store, state, commands, status_label)."""
        super().__init__(window)
        self._window = window
        self.problems: list[str] = []
        """What the last export could not write, one sentence each."""
        self._message: QMessageBox | None = None

    def export(self, jobs: list, folder: str | Path | None = None) -> list[Path]:
        """Export `jobs`. With a `folder` (scripts, tests), in the remembered formats and
        right away, returning the files written; without one, after the dialog, in the
        background (the status bar says when it is done)."""
        window = self._window
        documents = [DocumentExport(job.output_name, tuple(job.output_files), job.result,
                                    job.password) for job in jobs if job.markdown_path]
        if not documents:
            return []
        settings = window.store.load()
        formats = [f for f in window.state.export_formats() if f in FORMATS] or list(DEFAULT)
        if folder is None:
            start = settings.output.dir or Path(jobs[0].output_dir)
            dialog = ExportDialog(window, formats, Path(start), len(documents))
            if dialog.exec() != QDialog.DialogCode.Accepted:
                return []
            formats, folder = dialog.chosen(), dialog.folder.text().strip()
        self._remember(formats, Path(folder))
        if folder is not None and not (set(formats) & set(MADE)):
            return self._done(export_documents(documents, formats, Path(folder)), Path(folder))
        window.status_label.setText(self.tr("Exporting {0} document(s)…").format(len(documents)))
        target = Path(folder)
        run_in_background(lambda: export_documents(documents, formats, target),
                          lambda report: self._done(report, target), self._failed)
        return []

    def _remember(self, formats: list[str], folder: Path) -> None:
        from settings import SettingsError

        self._window.state.set_export_formats(formats)
        try:
            self._window.store.set("output.dir", str(folder))
        except SettingsError as error:
            log.warning("could not remember the export folder: %s", error)

    def _done(self, report: ExportReport, folder: Path) -> list[Path]:
        window = self._window
        for markdown in (p for p in report.written if p.suffix == ".md"):
            window.commands.set_recent(window.state.add_recent_output(markdown))
        window.status_label.setText(self.tr("Exported {0} file(s) to {1}").format(
            len(report.written), folder))
        self.problems = list(report.problems)
        if report.problems:
            for problem in report.problems:
                log.warning("export: %s", problem)
            # Shown without blocking: the queue goes on while the person reads it.
            self._message = QMessageBox(QMessageBox.Icon.Warning, self.tr("Export"),
                                        self.tr("Some exports could not be written:"),
                                        QMessageBox.StandardButton.Ok, window)
            self._message.setInformativeText("\n".join(report.problems))
            self._message.open()
        return report.written

    def _failed(self, error: BaseException) -> None:
        log.error("export failed: %s", error)
        QMessageBox.warning(self._window, self.tr("Export failed"), str(error))
