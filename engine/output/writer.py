"""Writing results: images staged as pages finish, everything moved into place only on success."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import cv2
import numpy as np

from engine.errors import OutputNotWritable


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
    cancellation) deletes the staging folder, so no partial output is ever visible."""

    def __init__(self, folder: Path, stem: str) -> None:
        check_writable(folder)
        self.folder = folder
        self.stem = stem
        self._staging = Path(tempfile.mkdtemp(dir=folder, prefix=f".{stem}.paperlens-"))
        self._images: list[str] = []

    @property
    def staging(self) -> Path:
        return self._staging

    def add_images(self, crops: dict[str, np.ndarray]) -> None:
        for relative, image in crops.items():
            target = self._staging / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            ok, data = cv2.imencode(".png", image[:, :, ::-1] if image.ndim == 3 else image)
            if not ok:
                raise OutputNotWritable(f"Could not encode the image {relative}.")
            self._write(target, data.tobytes())
            self._images.append(relative)

    def stage_file(self, name: str) -> Path:
        """A path inside the staging folder for a file produced by someone else (e.g. a PDF)."""
        return self._staging / name

    def commit(self, payloads: dict[str, bytes], staged: tuple[str, ...] = ()) -> tuple[str, ...]:
        """Write `payloads` (name -> bytes, Markdown last) and move everything into place."""
        try:
            for name, data in payloads.items():
                self._write(self._staging / name, data)
            outputs = []
            for relative in self._images:
                target = self.folder / relative
                target.parent.mkdir(parents=True, exist_ok=True)
                os.replace(self._staging / relative, target)
                outputs.append(str(target))
            for name in list(staged) + list(payloads):
                os.replace(self._staging / name, self.folder / name)
                outputs.append(str(self.folder / name))
        except OSError as exc:
            self.abort()
            raise OutputNotWritable(f"Cannot write the results to {self.folder}: "
                                    f"{exc.strerror or exc}.") from None
        self.abort()
        return tuple(outputs)

    def abort(self) -> None:
        shutil.rmtree(self._staging, ignore_errors=True)

    @staticmethod
    def _write(path: Path, data: bytes) -> None:
        with open(path, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
