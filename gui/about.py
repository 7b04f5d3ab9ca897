"""The About box: versions of the app and the libraries it runs on, and their licences."""

from __future__ import annotations

import html
import platform
from importlib import metadata

from PySide6 import __version__ as pyside_version
from PySide6.QtCore import Qt, qVersion
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QTextBrowser, QVBoxLayout

from gui.icons import app_icon

# (distribution names to try, what to call it, licence). Versions are read from the installed
# package metadata, so showing them imports nothing heavy.
COMPONENTS: tuple[tuple[tuple[str, ...], str, str], ...] = (
    (("onnxruntime", "onnxruntime-directml", "onnxruntime-gpu"), "ONNX Runtime", "MIT"),
    (("onnxruntime-ep-webgpu",), "ONNX Runtime WebGPU execution provider", "MIT"),
    (("onnxruntime-directml",), "ONNX Runtime DirectML", "MIT"),
    (("pymupdf", "PyMuPDF"), "PyMuPDF", "AGPL-3.0"),
    (("opencv-python-headless", "opencv-python"), "OpenCV", "Apache-2.0"),
    (("numpy",), "NumPy", "BSD-3-Clause"),
    (("PySide6-Essentials", "PySide6"), "Qt for Python (PySide6)", "LGPL-3.0"),
)


def distribution_version(names: tuple[str, ...]) -> str | None:
    for name in names:
        try:
            return metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return None


def app_version() -> str:
    return distribution_version(("paperlens",)) or "dev"


def model_rows() -> list[tuple[str, str]]:
    """(model file, licence) for every model in the manifest; reading it loads no model."""
    try:
        from engine.api import load_manifest

        specs = load_manifest(None)
    except Exception:  # the About box must open even with a broken manifest
        return []
    return [(spec.file, spec.license or "?") for spec in specs.values() if spec.file]


def component_rows() -> list[tuple[str, str, str]]:
    """(name, version, licence) for each installed component."""
    rows = []
    for names, label, licence in COMPONENTS:
        version = distribution_version(names)
        if version is not None:
            rows.append((label, version, licence))
    rows.append(("Qt", qVersion(), "LGPL-3.0"))
    rows.append(("Python", platform.python_version(), "PSF-2.0"))
    return rows


class AboutDialog(QDialog):
    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("aboutDialog")
        self.setWindowTitle(self.tr("About Paperlens"))
        self.resize(560, 520)
        heading = QLabel(f"<h2>Paperlens {html.escape(app_version())}</h2>"
                         + self.tr("<p>PDFs and images to Markdown, on your own machine.</p>"))
        heading.setTextFormat(Qt.TextFormat.RichText)
        icon = QLabel()
        icon.setPixmap(app_icon().pixmap(64, 64))
        rows = "".join(f"<tr><td>{html.escape(n)}</td><td>{html.escape(v)}</td>"
                       f"<td>{html.escape(lic)}</td></tr>" for n, v, lic in component_rows())
        models = "".join(f"<tr><td>{html.escape(f)}</td><td>{html.escape(lic)}</td></tr>"
                         for f, lic in model_rows())
        header = "".join(f"<th align='left'>{html.escape(title)}</th>" for title in
                         (self.tr("Component"), self.tr("Version"), self.tr("Licence")))
        body = QTextBrowser()
        body.setObjectName("aboutText")
        body.setOpenExternalLinks(True)
        body.setHtml(
            f"<table cellspacing='0' cellpadding='3'><tr>{header}</tr>{rows}</table>"
            + self.tr("<p>Paperlens is free software under the GNU Affero General Public "
                      "License, version 3 or later (PyMuPDF, which renders every page, is "
                      "AGPL). It comes with no warranty.</p>"
                      "<p>Models are fetched from their publishers' packages and keep their "
                      "own licences:</p>")
            + "<table cellspacing='0' cellpadding='2'>" + models + "</table>"
            + f"<p>PySide6 {html.escape(pyside_version)}</p>")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(icon, 0, Qt.AlignmentFlag.AlignHCenter)
        layout.addWidget(heading, 0, Qt.AlignmentFlag.AlignHCenter)
        layout.addWidget(body, 1)
        layout.addWidget(buttons)
