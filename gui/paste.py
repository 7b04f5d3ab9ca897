"""Documents from the clipboard (Ctrl+V): files copied in a file manager are queued as they are;
an image (a screenshot of a formula, a table, a paragraph) is saved as a PNG in the app's data
folder, off the UI thread and atomically, and then queued like a dropped file."""

from __future__ import annotations

import logging
import os
import tempfile
import threading
import time
from pathlib import Path

import shiboken6
from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QMimeData, QObject, QUrl
from PySide6.QtGui import QGuiApplication, QImage, QPixmap

from gui.background import run_in_background
from gui.drop_area import local_paths
from settings import user_data_dir

log = logging.getLogger(__name__)

PASTED_DIR_NAME = "pasted"
# GNOME Files offers the copied files under this name ("copy" or "cut", then one URL a line),
# sometimes without text/uri-list.
GNOME_COPIED_FILES = "x-special/gnome-copied-files"

_naming = threading.Lock()  # two pastes within a second get two names


class PasteError(Exception):
    """The clipboard's image could not be kept; the message says why, for a person."""


def pasted_folder() -> Path:
    """Where pasted images are kept: `pasted` in the per-user data folder."""
    return user_data_dir(os.environ) / PASTED_DIR_NAME


def clipboard_paths(mime: QMimeData) -> list[Path]:
    """The local files and folders on the clipboard, in order (a file manager's copy)."""
    paths = local_paths(mime)
    if paths or not mime.hasFormat(GNOME_COPIED_FILES):
        return paths
    lines = bytes(mime.data(GNOME_COPIED_FILES).data()).decode("utf-8", "replace").splitlines()
    urls = [QUrl(line.strip()) for line in lines[1:] if line.strip()]
    return [Path(url.toLocalFile()) for url in urls if url.isLocalFile()]


def clipboard_image(mime: QMimeData) -> QImage | None:
    """The image on the clipboard, or None when it holds none."""
    if not mime.hasImage():
        return None
    data = mime.imageData()
    image = data.toImage() if isinstance(data, QPixmap) else data
    return image if isinstance(image, QImage) and not image.isNull() else None


def save_pasted_image(image: QImage, folder: Path) -> Path:
    """Write `image` as `pasted-<date>-<time>.png` in `folder` (a new name each time) and return
    its path. The PNG is complete before the name appears. Runs on any thread."""
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    if not image.save(buffer, "PNG"):
        raise PasteError(f"The pasted image ({image.width()}x{image.height()}) could not be "
                         "encoded as PNG.")
    buffer.close()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(prefix=".pasted-", suffix=".part", dir=folder)
        try:
            with os.fdopen(handle, "wb") as stream:
                stream.write(data.data())
                stream.flush()
                os.fsync(stream.fileno())
            with _naming:
                target = _free_name(folder, time.strftime("pasted-%Y%m%d-%H%M%S"))
                os.replace(temporary, target)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
    except OSError as error:
        raise PasteError(f"The pasted image could not be saved in {folder}: "
                         f"{error.strerror or error}") from error
    return target


def _free_name(folder: Path, stem: str) -> Path:
    target, number = folder / f"{stem}.png", 1
    while target.exists():
        number += 1
        target = folder / f"{stem}-{number}.png"
    return target


class Paster(QObject):
    """Edit > Paste: queues what the clipboard holds and selects it in the queue, so that the
    copy commands (Copy LaTeX, Copy Table) apply to it once it is read."""

    def __init__(self, window, folder: Path | None = None) -> None:
        """`window` is the main window (add_paths, queue_view, controller, status_label)."""
        super().__init__(window)
        self._window = window
        self.folder = folder or pasted_folder()

    def paste(self, mime: QMimeData | None = None) -> bool:
        """Queue the clipboard's files or image; False (and a word in the status bar) when it
        holds neither."""
        if mime is None:
            mime = QGuiApplication.clipboard().mimeData()
        paths = clipboard_paths(mime) if mime is not None else []
        if paths:
            log.info("pasted %d file(s) and folder(s)", len(paths))
            self._queue(paths)
            return True
        image = clipboard_image(mime) if mime is not None else None
        if image is None:
            self._say(self.tr("The clipboard holds no image and no copied files."))
            return False
        self._say(self.tr("Saving the pasted image…"))
        folder = self.folder
        run_in_background(lambda: save_pasted_image(image, folder),
                          lambda path: self._queue([path]), self._failed)
        return True

    def _queue(self, paths: list[Path]) -> None:
        window = self._window
        if not shiboken6.isValid(window):  # closed while the image was being saved
            return
        before = {job.id for job in window.controller.model.jobs}
        window.add_paths(paths)
        added = [job for job in window.controller.model.jobs if job.id not in before]
        if added:
            window.queue_view.select_job(added[0].id)
            self._say(self.tr("Pasted {0}").format(", ".join(j.path.name for j in added)))

    def _failed(self, error: BaseException) -> None:
        log.warning("%s", error)
        self._say(str(error))

    def _say(self, text: str) -> None:
        if shiboken6.isValid(self._window):
            self._window.status_label.setText(text)
