"""Writing results: images staged as pages finish, everything moved into place only on success,
under a name no other file of the folder holds (nothing of another input, another run or the
user is ever replaced)."""

from __future__ import annotations

import errno
import os
import shutil
import signal
import tempfile
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator

import cv2
import numpy as np

from engine.errors import OutputNotWritable
from engine.formats import EXPORT_SUFFIXES
from engine.output.staging import STAGING_MARK, remove_stale_staging, write_owner

# Every file a document's name gives (images go to images/<name>-p<n>-..., distinct per name).
OUTPUT_SUFFIXES = (".md", ".json", "_content_list.json", "_layout.pdf",
                   *EXPORT_SUFFIXES.values())
IMAGES_FOLDER = "images"
# A staging folder's fixed name per stem: making it is the lock on that name (mkdir either
# makes it or finds it made), for runs of this and of other processes alike.
STAGING_SUFFIX = "run"


def check_writable(folder: Path) -> None:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".paperlens-probe-"):
            pass
    except OSError as exc:
        raise OutputNotWritable(f"Cannot write to the output folder {folder}: "
                                f"{exc.strerror or exc}.") from None


class OutputWriter:
    """Stages a document's files in a hidden folder beside the outputs.

    Page images are written there as each page finishes, so memory holds one page's crops at a
    time. `commit` moves images, then JSON, then the Markdown into place; `abort` (failure or
    cancellation) deletes the staging folder, so no partial output is ever visible. Any write
    that fails (a full disk, a folder gone) is an OutputNotWritable with the staging folder
    already removed. The folder records its owning process, so one left behind by a killed
    process is removed by the next writer in the same folder.

    Exports (searchable PDF, DOCX, XLSX) are made in memory before the commit and written
    with the other payloads, so they are atomic with them: a write that fails leaves none of
    the document's files. An export that cannot be made from this document (engine/export:
    ExportFailed) is not a write failure: it is left out with a message, and the others are
    committed as usual."""

    def __init__(self, folder: Path, stem: str, overwrite: bool = False) -> None:
        check_writable(folder)
        remove_stale_staging(folder)
        self.folder = folder
        self._images: list[str] = []
        self._overwrite = overwrite
        self.stem, self._staging = self._reserve(stem)
        try:
            write_owner(self._staging)
        except OSError as exc:
            self.abort()
            raise self._not_writable(exc) from None

    def _reserve(self, stem: str) -> tuple[str, Path]:
        """`stem`, or `stem-2`, `stem-3`, ...: the first name whose staging folder this writer
        could make and whose files are not in the folder (unless overwriting). The staging
        folder is made before the files are looked for, and a finished run puts its files in
        place before it removes its staging folder: of two runs, one finds the other's folder
        or its files, never neither."""
        for count in range(1, 10_000):
            name = stem if count == 1 else f"{stem}-{count}"
            staging = self.folder / f".{name}{STAGING_MARK}{STAGING_SUFFIX}"
            try:
                staging.mkdir()
            except FileExistsError:
                continue  # another run is writing this name
            except OSError as exc:
                raise self._not_writable(exc) from None
            if self._overwrite or not name_taken(self.folder, name):
                return name, staging
            staging.rmdir()
        raise OutputNotWritable(f"Every name from {stem} to {stem}-9999 is taken in "
                                f"{self.folder}.")
    @property
    def staging(self) -> Path:
        return self._staging

    def add_images(self, crops: dict[str, np.ndarray]) -> None:
        for relative, image in crops.items():
            target = self._staging / relative
            ok, data = cv2.imencode(".png", image[:, :, ::-1] if image.ndim == 3 else image)
            if not ok:
                raise OutputNotWritable(f"Could not encode the image {relative}.")
            try:
                target.parent.mkdir(parents=True, exist_ok=True)
                self._write(target, data.tobytes())
            except OSError as exc:
                self.abort()
                raise self._not_writable(exc) from None
            self._images.append(relative)

    def stage_file(self, name: str) -> Path:
        """A path inside the staging folder for a file produced by someone else (e.g. a PDF)."""
        return self._staging / name

    def produce(self, name: str, write: Callable[[Path], None]) -> str:
        """Stage a file that `write(path)` makes (a library's own saver); any failure of it is
        an OutputNotWritable, since the library's errors are its own types."""
        try:
            write(self.stage_file(name))
        except Exception as exc:  # e.g. PyMuPDF's FzErrorSystem for a full disk
            self.abort()
            text = str(exc).strip()
            reason = text.splitlines()[0][:160] if text else type(exc).__name__
            raise OutputNotWritable(f"Cannot write {name} to {self.folder}: {reason}.") from None
        return name

    def commit(self, payloads: dict[str, bytes], staged: tuple[str, ...] = (),
               move_images: bool = True) -> tuple[str, ...]:
        """Write `payloads` (name -> bytes, Markdown last) and move everything into place;
        the staged images only when `move_images` (they belong to the Markdown).

        The moves run with Ctrl+C and SIGTERM held back (when called on the main thread), so a
        stop request lands after the last file is in place, never between two of them."""
        outputs: list[str] = []
        try:
            for name, data in payloads.items():
                self._write(self._staging / name, data)
            with _stop_signals_held():
                for relative in self._images if move_images else ():
                    target = self.folder / relative
                    target.parent.mkdir(parents=True, exist_ok=True)
                    self._place(self._staging / relative, target)
                    outputs.append(str(target))
                for name in list(staged) + list(payloads):
                    self._place(self._staging / name, self.folder / name)
                    outputs.append(str(self.folder / name))
        except FileExistsError as exc:
            for placed in outputs:  # ours, placed a moment ago: the set is whole or absent
                Path(placed).unlink(missing_ok=True)
            self.abort()
            raise OutputNotWritable(f"{Path(exc.filename).name} appeared in {self.folder} "
                                    "while this document was converted; it was left as it is "
                                    "and nothing was written.") from None
        except OSError as exc:
            self.abort()
            raise OutputNotWritable(f"Cannot write the results to {self.folder}: "
                                    f"{exc.strerror or exc}.") from None
        self.abort()
        return tuple(outputs)

    def abort(self) -> None:
        shutil.rmtree(self._staging, ignore_errors=True)

    def _place(self, source: Path, target: Path) -> None:
        """Move a staged file into place; never over a file that is there already (a hard
        link fails on an existing name), unless overwriting."""
        if self._overwrite:
            os.replace(source, target)
            return
        try:
            os.link(source, target)
        except FileExistsError:
            raise FileExistsError(errno.EEXIST, "exists", str(target)) from None
        except OSError as exc:
            if exc.errno not in (errno.EPERM, errno.EXDEV, errno.ENOTSUP, errno.EOPNOTSUPP,
                                 errno.EMLINK, errno.ENOSYS):
                raise
            # A file system without hard links: looked at just before, under our name's lock.
            if os.path.lexists(target):
                raise FileExistsError(errno.EEXIST, "exists", str(target)) from None
            os.replace(source, target)
            return
        os.unlink(source)

    def _not_writable(self, exc: OSError) -> OutputNotWritable:
        return OutputNotWritable(f"Cannot write to the output folder {self.folder}: "
                                 f"{exc.strerror or exc}.")

    @staticmethod
    def _write(path: Path, data: bytes) -> None:
        with open(path, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())


@contextmanager
def _stop_signals_held() -> Iterator[None]:
    """SIGINT and SIGTERM received inside are delivered again on leaving it."""
    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread can change handlers (the GUI cancels cooperatively)
        return
    received: list[int] = []
    wanted = [s for s in (getattr(signal, "SIGINT", None), getattr(signal, "SIGTERM", None)) if s]
    previous = {number: signal.getsignal(number) for number in wanted}
    for number in wanted:
        signal.signal(number, lambda signum, frame: received.append(signum))
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler if handler is not None else signal.SIG_DFL)
        for number in received:
            signal.raise_signal(number)


def name_taken(folder: Path, name: str) -> bool:
    """Whether a file of `name`'s set is in the folder: its Markdown, JSON, exports, or an
    image of its pages (compared without case, as the file systems of Windows and macOS do)."""
    if any(os.path.lexists(folder / f"{name}{suffix}") for suffix in OUTPUT_SUFFIXES):
        return True
    prefix = f"{name}-p".casefold()
    try:
        with os.scandir(folder / IMAGES_FOLDER) as entries:
            return any(entry.name.casefold().startswith(prefix) and
                       entry.name[len(prefix):len(prefix) + 1].isdigit() for entry in entries)
    except OSError:
        return False
