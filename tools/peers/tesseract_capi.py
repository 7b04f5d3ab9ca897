"""Tesseract through its C API (libtesseract and Leptonica), so one model load serves every page.

The `tesseract` command reloads its language model for every image; driving the library keeps
the load out of the per-page time, as for the other tools. Images are read with Leptonica's
pixRead, as the command reads them (resolution from the file included), and the page
segmentation mode is the command's default (automatic), not the library's (single block).
"""

from __future__ import annotations

import ctypes
import ctypes.util
from pathlib import Path

# tesseract::PageSegMode::PSM_AUTO, the `tesseract` command's default.
PSM_AUTO = 3
_FALLBACK_NAMES = {"tesseract": "libtesseract.so.5", "lept": "liblept.so.5"}


class TesseractError(RuntimeError):
    """The Tesseract library is missing, a language cannot be loaded, or a page failed."""


def _load(name: str) -> ctypes.CDLL:
    found = ctypes.util.find_library(name) or _FALLBACK_NAMES[name]
    try:
        return ctypes.CDLL(found)
    except OSError as error:
        raise TesseractError(f"cannot load the {name} library ({found}): {error}") from error


def _bind() -> tuple[ctypes.CDLL, ctypes.CDLL]:
    tess, lept = _load("tesseract"), _load("lept")
    handle = ctypes.c_void_p
    signatures = {
        "TessVersion": ([], ctypes.c_char_p),
        "TessBaseAPICreate": ([], handle),
        "TessBaseAPIInit3": ([handle, ctypes.c_char_p, ctypes.c_char_p], ctypes.c_int),
        "TessBaseAPISetPageSegMode": ([handle, ctypes.c_int], None),
        "TessBaseAPISetImage2": ([handle, ctypes.c_void_p], None),
        "TessBaseAPIGetUTF8Text": ([handle], ctypes.c_void_p),
        "TessDeleteText": ([ctypes.c_void_p], None),
        "TessBaseAPIClear": ([handle], None),
        "TessBaseAPIEnd": ([handle], None),
        "TessBaseAPIDelete": ([handle], None),
    }
    for name, (argtypes, restype) in signatures.items():
        function = getattr(tess, name)
        function.argtypes, function.restype = argtypes, restype
    lept.pixRead.argtypes, lept.pixRead.restype = [ctypes.c_char_p], ctypes.c_void_p
    lept.pixDestroy.argtypes, lept.pixDestroy.restype = [ctypes.POINTER(ctypes.c_void_p)], None
    return tess, lept


class TesseractReader:
    """One initialised Tesseract for one language set (e.g. "eng", "chi_sim")."""

    def __init__(self, language: str) -> None:
        self._tess, self._lept = _bind()
        self.language = language
        self._handle = self._tess.TessBaseAPICreate()
        if self._tess.TessBaseAPIInit3(self._handle, None, language.encode("ascii")) != 0:
            self._tess.TessBaseAPIDelete(self._handle)
            raise TesseractError(f"Tesseract cannot load language {language!r}; is its "
                                 "traineddata package installed?")
        self._tess.TessBaseAPISetPageSegMode(self._handle, PSM_AUTO)

    @property
    def version(self) -> str:
        return self._tess.TessVersion().decode("ascii", "replace")

    def read_text(self, image_path: Path) -> str:
        pix = ctypes.c_void_p(self._lept.pixRead(str(image_path).encode()))
        if not pix.value:
            raise TesseractError(f"Leptonica cannot read {image_path.name}")
        try:
            self._tess.TessBaseAPISetImage2(self._handle, pix)
            text = self._tess.TessBaseAPIGetUTF8Text(self._handle)
            if not text:
                raise TesseractError(f"Tesseract failed on {image_path.name}")
            try:
                return ctypes.string_at(text).decode("utf-8", "replace")
            finally:
                self._tess.TessDeleteText(text)
        finally:
            self._tess.TessBaseAPIClear(self._handle)
            self._lept.pixDestroy(ctypes.byref(pix))

    def close(self) -> None:
        if self._handle:
            self._tess.TessBaseAPIEnd(self._handle)
            self._tess.TessBaseAPIDelete(self._handle)
            self._handle = None
