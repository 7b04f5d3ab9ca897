"""What an input may cost before it is decoded: the pixel cap on every image and on every page
of a container, the size cap on the members of ZIP containers (CBZ, EPUB, XPS), and what their
markup asks to draw (engine/input/markup.py)."""

from __future__ import annotations

import struct
import zipfile
from pathlib import Path
from typing import BinaryIO

import pymupdf

from engine.errors import CorruptDocument, PageTooLarge, UnsupportedInput
from engine.input.markup import check_markup

# An image larger than this is refused before decoding: decoding 30000x30000 RGB alone needs
# 2.7 GB. 200 Mpx covers an A0 poster scanned at 300 dpi (9933x14043 = 139 Mpx).
MAX_IMAGE_PIXELS = 200_000_000
# One member of a ZIP container, unpacked. A 200 Mpx page stored as PNG or JPEG stays far
# below it; a few MB of zeros unpacking to gigabytes (a decompression bomb) does not.
MAX_MEMBER_BYTES = 256 * 1024 * 1024
# Everything in a container that is not an image (chapters, pages, styles, fonts), unpacked
# together: MuPDF parses it when it lays the document out.
MAX_TEXT_MEMBERS_BYTES = 256 * 1024 * 1024
# More pages than this in one TIFF are not walked (libtiff itself gives up on such chains).
MAX_TIFF_PAGES = 65_535
# Garbage tolerated between JPEG segments before the frame header is given up on.
MAX_JPEG_GAP_BYTES = 64 * 1024

# Leading bytes of the image formats MuPDF decodes inside containers.
_IMAGE_MAGIC = (b"\x89PNG", b"\xff\xd8\xff", b"GIF8", b"II*\x00", b"MM\x00*", b"BM",
                b"\x00\x00\x00\x0cjP  ", b"\xff\x4f\xff\x51", b"II\xbc")


def _mpx(pixels: int) -> str:
    return f"{pixels / 1e6:.0f} megapixels"


def check_image_file(path: Path, kind: str) -> int:
    """Every page of a single image file is within the pixel cap, read from its headers;
    returns how many pages were checked.

    A header that does not say the image's size is a damaged file: nothing is decoded
    without knowing what it will cost."""
    try:
        with path.open("rb") as fh:
            sizes = image_sizes(fh, kind)
    except (OSError, struct.error):
        sizes = None
    if not sizes:
        raise CorruptDocument(f"{path.name} is a damaged {kind.upper()} image (its header does "
                              "not say its size).")
    for number, (width, height) in enumerate(sizes, start=1):
        if width * height > MAX_IMAGE_PIXELS:
            where = f"page {number} of {path.name}" if len(sizes) > 1 else path.name
            raise UnsupportedInput(
                f"{where} is {width}x{height} pixels ({_mpx(width * height)}); Paperlens reads "
                f"images up to {_mpx(MAX_IMAGE_PIXELS)}. Scale it down and try again.")
    return len(sizes)


def image_sizes(fh: BinaryIO, kind: str) -> list[tuple[int, int]] | None:
    """(width, height) of every page, read from the headers without decoding, or None."""
    if kind == "tiff":
        return _tiff_sizes(fh)
    head = fh.read(64)
    size = None
    if kind == "png" and len(head) >= 24:
        size = struct.unpack(">II", head[16:24])
    elif kind == "bmp" and len(head) >= 26:
        size = _bmp_size(head)
    elif kind == "jpeg":
        size = _jpeg_size(fh)
    elif kind == "webp":
        size = _webp_size(head)
    return [size] if size and size[0] > 0 and size[1] > 0 else None


def _bmp_size(head: bytes) -> tuple[int, int]:
    if struct.unpack("<I", head[14:18])[0] == 12:  # OS/2 1.x header: 16-bit sizes
        return struct.unpack("<HH", head[18:22])
    width, height = struct.unpack("<ii", head[18:26])
    return abs(width), abs(height)


def _jpeg_size(fh: BinaryIO) -> tuple[int, int] | None:
    """The frame header's size, found by walking the segments from the start of the file
    (metadata before it can be any length)."""
    fh.seek(2)
    gap = 0
    while True:
        byte = fh.read(1)
        if not byte:
            return None
        if byte != b"\xff":
            gap += 1
            if gap > MAX_JPEG_GAP_BYTES:
                return None
            continue
        gap = 0
        marker = fh.read(1)
        while marker == b"\xff":  # fill bytes
            marker = fh.read(1)
        if not marker:
            return None
        code = marker[0]
        if code in (0x00, 0x01, 0xD8) or 0xD0 <= code <= 0xD7:
            continue  # no length follows
        if code in (0xD9, 0xDA):
            return None  # end of image or start of scan before any frame header
        length = struct.unpack(">H", _exactly(fh, 2))[0]
        if length < 2:
            return None
        if 0xC0 <= code <= 0xCF and code not in (0xC4, 0xC8, 0xCC):
            height, width = struct.unpack(">xHH", _exactly(fh, 5))
            return width, height
        fh.seek(length - 2, 1)


def _exactly(fh: BinaryIO, count: int) -> bytes:
    data = fh.read(count)
    if len(data) != count:
        raise struct.error("truncated header")
    return data


def _webp_size(data: bytes) -> tuple[int, int] | None:
    chunk = data[12:16]
    if chunk == b"VP8X" and len(data) >= 30:
        return int.from_bytes(data[24:27], "little") + 1, int.from_bytes(data[27:30], "little") + 1
    if chunk == b"VP8 " and len(data) >= 30:
        width, height = struct.unpack("<HH", data[26:30])
        return width & 0x3FFF, height & 0x3FFF
    if chunk == b"VP8L" and len(data) >= 25:
        bits = int.from_bytes(data[21:25], "little")
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    return None


def _tiff_sizes(fh: BinaryIO) -> list[tuple[int, int]] | None:
    """Every page (image file directory) in the chain, not only the first."""
    head = _exactly(fh, 8)
    endian = "<" if head[:2] == b"II" else ">"
    offset = struct.unpack(endian + "I", head[4:8])[0]
    sizes: list[tuple[int, int]] = []
    seen: set[int] = set()
    while offset and offset not in seen and len(sizes) < MAX_TIFF_PAGES:
        seen.add(offset)
        fh.seek(offset)
        count = struct.unpack(endian + "H", _exactly(fh, 2))[0]
        entries = _exactly(fh, 12 * count)
        width = height = 0
        for i in range(count):
            tag, kind, _n, value = struct.unpack(endian + "HHI4s", entries[12 * i:12 * i + 12])
            if tag in (256, 257):
                if kind not in (3, 4):
                    return None
                number = struct.unpack(endian + ("H" if kind == 3 else "I"),
                                       value[: 2 if kind == 3 else 4])[0]
                width, height = (number, height) if tag == 256 else (width, number)
        if not (width and height):
            return None
        sizes.append((width, height))
        following = fh.read(4)
        offset = struct.unpack(endian + "I", following)[0] if len(following) == 4 else 0
    return sizes


def check_archive(path: Path) -> None:
    """No member unpacks past MAX_MEMBER_BYTES, and the members that are not images stay
    within MAX_TEXT_MEMBERS_BYTES together. Sizes are the ones the central directory
    declares: Python and MuPDF both stop reading a member there."""
    try:
        archive = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError):
        return  # PyMuPDF reports the damage in its own words
    with archive:
        text_bytes = 0
        for member in archive.infolist():
            if member.is_dir():
                continue
            if member.file_size > MAX_MEMBER_BYTES:
                raise UnsupportedInput(
                    f"{path.name} holds {member.filename}, which unpacks to "
                    f"{member.file_size / 2**20:.0f} MiB; Paperlens reads archive members up to "
                    f"{MAX_MEMBER_BYTES // 2**20} MiB (the file may be a decompression bomb).")
            if not _is_image_member(archive, member):
                text_bytes += member.file_size
        if text_bytes > MAX_TEXT_MEMBERS_BYTES:
            raise UnsupportedInput(
                f"{path.name} unpacks to {text_bytes / 2**20:.0f} MiB of pages, text and fonts; "
                f"Paperlens reads up to {MAX_TEXT_MEMBERS_BYTES // 2**20} MiB (the file may be a "
                "decompression bomb).")
        check_markup(archive, path.name)  # SVG <use> copies of copies, XML entity bombs


def _is_image_member(archive: zipfile.ZipFile, member: zipfile.ZipInfo) -> bool:
    try:
        with archive.open(member) as fh:
            head = fh.read(12)
    except Exception:  # damaged or encrypted member: MuPDF will not read it either
        return False
    return head.startswith(_IMAGE_MAGIC) or (head[:4] == b"RIFF" and head[8:12] == b"WEBP")


def check_page_images(page: pymupdf.Page, page_number: int) -> None:
    """Every image drawn on the page is within the pixel cap, before any of them is decoded
    (PyMuPDF reports their sizes from the headers)."""
    try:
        images = page.get_image_info()
    except Exception as exc:  # MuPDF's own error types for a page it cannot interpret
        reason = str(exc).strip().splitlines()[0][:160] if str(exc).strip() else type(exc).__name__
        raise CorruptDocument(f"page {page_number} is damaged ({reason})") from None
    for image in images:
        width, height = int(image.get("width", 0)), int(image.get("height", 0))
        if width * height > MAX_IMAGE_PIXELS:
            raise PageTooLarge(
                f"page {page_number} holds an image of {width}x{height} pixels "
                f"({_mpx(width * height)}); Paperlens reads images up to "
                f"{_mpx(MAX_IMAGE_PIXELS)}, so this page was skipped")
