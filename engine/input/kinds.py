"""What an input is, told by its bytes (ADR 0002), never by its name: PDF, the images, and the
ZIP containers told apart by their members (Office Open XML by the content type of its main
part in `[Content_Types].xml`, OpenDocument by its `mimetype` member). Free of the decoders'
imports, so that a child process that only identifies and counts pages starts quickly."""

from __future__ import annotations

import stat
import zipfile
from enum import Enum
from pathlib import Path

from engine.errors import UnsupportedInput
from engine.input.office_kinds import office_kind, ole_kind
from engine.input.suffixes import IMAGE_SUFFIXES

SNIFF_BYTES = 4096
# The EPUB "mimetype" member is one short line; no more of it is ever read.
MIMETYPE_BYTES = 64
# The Compound File Binary signature: legacy Office files and encrypted Office Open XML.
OLE_SIGNATURE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"


class InputKind(str, Enum):
    PDF = "pdf"
    XPS = "xps"
    EPUB = "epub"
    CBZ = "cbz"
    PNG = "png"
    JPEG = "jpeg"
    TIFF = "tiff"
    BMP = "bmp"
    WEBP = "webp"
    DOCX = "docx"
    XLSX = "xlsx"
    PPTX = "pptx"
    ODT = "odt"
    ODS = "ods"
    ODP = "odp"

    @property
    def is_paged(self) -> bool:
        """Rendered by PyMuPDF (vector pages, maybe with a text layer)."""
        return self in (InputKind.PDF, InputKind.XPS, InputKind.EPUB, InputKind.CBZ)

    @property
    def is_office(self) -> bool:
        """Read from its own markup (engine/office): no page is rendered, only its pictures."""
        return self in (InputKind.DOCX, InputKind.XLSX, InputKind.PPTX, InputKind.ODT,
                        InputKind.ODS, InputKind.ODP)


def identify(path: Path) -> InputKind:
    """The input's kind from its bytes; the file name is only used in messages."""
    try:
        info = path.stat()
        if not stat.S_ISREG(info.st_mode) and not stat.S_ISDIR(info.st_mode):
            # Opening a named pipe waits for a writer, a device never ends: refused unopened.
            raise UnsupportedInput(f"{path.name} is {_special_kind(info.st_mode)}, not a "
                                   "document file; Paperlens reads regular files only.")
        size = info.st_size
        with path.open("rb") as fh:
            head = fh.read(SNIFF_BYTES)
    except IsADirectoryError:
        raise UnsupportedInput(f"{path.name} is a folder, not a document.") from None
    except FileNotFoundError:
        raise UnsupportedInput(f"{path} does not exist.") from None
    except OSError as exc:
        raise UnsupportedInput(f"{path.name} cannot be read: {exc.strerror or exc}.") from None
    if size == 0:
        raise UnsupportedInput(f"{path.name} is empty (0 bytes).")
    kind = sniff(head)
    if kind is None and head.startswith(OLE_SIGNATURE):
        ole_kind(path)  # always raises: what the compound file is, and what to do with it
    if kind is None and head.startswith(b"PK\x03\x04"):
        kind = _sniff_zip(path)
    if kind is None:
        raise UnsupportedInput(
            f"{path.name} is not a PDF, image, XPS, EPUB, CBZ, Word, Excel, PowerPoint or "
            "OpenDocument file (its content matches none of them, whatever its name says).")
    return kind


def _special_kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a regular file"


def sniff(head: bytes) -> InputKind | None:
    """The kind a file's leading bytes alone say (PDF and the images), or None."""
    # PDF readers accept the header anywhere in the first 1024 bytes (PDF 1.7, annex H).
    if b"%PDF-" in head[:1024]:
        return InputKind.PDF
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return InputKind.PNG
    if head.startswith(b"\xff\xd8\xff"):
        return InputKind.JPEG
    if head[:4] in (b"II*\x00", b"MM\x00*"):
        return InputKind.TIFF
    if head.startswith(b"BM") and len(head) >= 26:
        return InputKind.BMP
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return InputKind.WEBP
    return None


def _sniff_zip(path: Path) -> InputKind | None:
    """EPUB, XPS and CBZ are ZIP containers; tell them apart by their members."""
    try:
        with zipfile.ZipFile(path) as zf:
            names = zf.namelist()
            lowered = {n.lower() for n in names}
            mimetype = _read_head(zf, "mimetype") if "mimetype" in names else b""
            if mimetype == b"application/epub+zip":
                return InputKind.EPUB
            office = office_kind(zf, path.name, mimetype)
            if office is not None:
                return InputKind(office)
            if "[content_types].xml" in lowered and any(
                    n.endswith(".fdseq") or "fixeddocumentsequence" in n for n in lowered):
                return InputKind.XPS
            image_members = [n for n in lowered if Path(n).suffix in IMAGE_SUFFIXES]
            if image_members and len(image_members) >= len([n for n in lowered
                                                            if not n.endswith("/")]) // 2:
                return InputKind.CBZ
    except (zipfile.BadZipFile, OSError, KeyError):
        return None
    return None


def _read_head(archive: zipfile.ZipFile, name: str) -> bytes:
    """A member's first bytes, stripped: a member is never read whole to tell the kind."""
    with archive.open(name) as fh:
        return fh.read(MIMETYPE_BYTES).strip()
