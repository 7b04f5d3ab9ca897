"""Exporting a converted document: its Markdown, JSON and images copied into a chosen folder."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import Iterable

from PySide6.QtCore import QCoreApplication

translate = QCoreApplication.translate  # lupdate reads translate("Context", "text")


class ExportError(Exception):
    """The export could not be written; the message is one line for a person."""


def export_outputs(outputs: Iterable[str | Path], target: Path) -> list[Path]:
    """Copy a document's output files into `target`, keeping their places relative to the .md.

    Images sit in `images/` beside the Markdown, whose links are relative; the copy keeps that
    layout so the exported Markdown shows its pictures. The Markdown is written last, each
    file through a temporary name, so a failed export never leaves a Markdown with missing
    pictures behind."""
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
            destination = target / relative
            if destination.resolve() == source.resolve():
                written.append(destination)
                continue
            destination.parent.mkdir(parents=True, exist_ok=True)
            fd, temp = tempfile.mkstemp(dir=destination.parent, prefix=f".{destination.name}.",
                                        suffix=".part")
            os.close(fd)
            try:
                shutil.copyfile(source, temp)
                os.replace(temp, destination)
            finally:
                if os.path.exists(temp):
                    os.unlink(temp)
            written.append(destination)
    except OSError as error:
        raise ExportError(translate("Export", "Cannot export to {0}: {1}.").format(
            target, error.strerror or error)) from None
    return written
