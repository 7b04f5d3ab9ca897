"""Damage the decoders report, read instead of shown: MuPDF's warnings while a page is drawn,
sorted into lost content or not, and what OpenCV's image libraries write on the standard error
while a picture is decoded (libjpeg, libpng, libtiff through OpenCV's log). Every fault reaches
the person as a typed line of ours; the libraries' own lines never reach the terminal."""

from __future__ import annotations

import logging
import os
import re
import sys
import tempfile
import threading
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Iterator

import pymupdf

# MuPDF's warnings that mean part of a page was not decoded. Each was seen on a damaged file:
# a PDF cut in half (content stream parts that are no streams any more), a truncated image
# stream, a TIFF strip that decodes to too few bytes, a JPEG that ends early, a deflated
# stream with a bad checksum. Others (font substitutions, a page tree rebuilt by the repair)
# lose nothing on the page.
DAMAGE_WARNINGS = (
    "cannot load content stream",
    "object is not a stream",
    "padding truncated image",
    "premature end",
    "zlib error",
    "truncated",
    "read error",
    "cannot decode",
    "unexpected end",
)
# Lines OpenCV's decoders write for a picture they could not decode whole, as the libraries
# word them: a libjpeg warning about the entropy data (the picture is returned, garbled), a
# libpng error, a libtiff error through OpenCV's log (the frame is returned blank).
DECODER_DAMAGE = ("corrupt jpeg data", "premature end", "libpng error", "tiff_error",
                  "tiffreaddirectory", "not enough data")
_CONTENT_PART = re.compile(r"cannot load content stream part (\d+)/(\d+)")
# OpenCV's log prefix ("[ERROR:0@4.127] global grfmt_tiff.cpp:117 TIFF_Error "): a clock and
# a source line, which must not reach a result that is the same bytes on every run.
_LOG_PREFIX = re.compile(r"^\[[^\]]*\]\s*(global\s+\S+\s+)?(TIFF_(Error|Warning)\s+)?")
_quiet = threading.Lock()
_quieted = False
_capture = threading.Lock()
log = logging.getLogger("paperlens.decoders")


def quiet_libraries() -> None:
    """MuPDF keeps its errors and warnings for us to read: its raw lines on a terminal would
    say what our typed page errors already say, or mislead besides."""
    global _quieted
    with _quiet:
        if _quieted:
            return
        pymupdf.TOOLS.mupdf_display_errors(False)
        pymupdf.TOOLS.mupdf_display_warnings(False)
        _quieted = True


@dataclass(frozen=True)
class PageDamage:
    """What MuPDF said while a page was drawn: the lines that mean lost content, and whether
    nothing of the page's content could be loaded at all."""

    lines: tuple[str, ...]
    content_lost: bool

    @property
    def found(self) -> bool:
        return bool(self.lines)

    def describe(self, page_number: int) -> str:
        shown = "; ".join(self.lines[:2]) + ("; ..." if len(self.lines) > 2 else "")
        what = "none of its content could be decoded" if self.content_lost \
            else "part of its content could not be decoded"
        return f"page {page_number} is damaged: {what} ({shown})"


def start_listening() -> None:
    """Forget earlier warnings: what `damage_heard` reads next belongs to this page."""
    pymupdf.TOOLS.reset_mupdf_warnings()


def damage_heard() -> PageDamage:
    """The damage among MuPDF's warnings since `start_listening`."""
    text = pymupdf.TOOLS.mupdf_warnings(reset=True) or ""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    damaged = tuple(dict.fromkeys(line for line in lines
                                  if any(sign in line.lower() for sign in DAMAGE_WARNINGS)))
    parts: dict[int, set[int]] = {}
    for line in damaged:
        match = _CONTENT_PART.search(line)
        if match:
            parts.setdefault(int(match.group(2)), set()).add(int(match.group(1)))
    lost = any(len(missing) >= total for total, missing in parts.items())
    return PageDamage(lines=tuple(line[:160] for line in damaged), content_lost=lost)


@dataclass
class DecoderReport:
    """What the image libraries wrote while a picture was decoded: the lines that mean the
    picture is damaged (the rest went to our log)."""

    damage: list[str] = field(default_factory=list)


@contextmanager
def decoder_messages() -> Iterator[DecoderReport]:
    """The standard error of the process is a file of ours inside: what libjpeg, libpng and
    OpenCV's log write there is read back and sorted, damage into the report, the rest to our
    log. Python's own writes in the meantime (another thread's) are passed on unchanged."""
    report = DecoderReport()
    with _capture:
        try:
            sys.stderr.flush()
        except (AttributeError, OSError, ValueError):
            pass
        try:
            saved = os.dup(2)
        except OSError:  # no standard error at all (a windowed program): nothing to read
            yield report
            return
        sink = tempfile.TemporaryFile()
        try:
            os.dup2(sink.fileno(), 2)
            try:
                yield report
            finally:
                os.dup2(saved, 2)
            sink.seek(0)
            text = sink.read().decode("utf-8", "replace")
        finally:
            os.close(saved)
            sink.close()
    passed = []
    for line in text.splitlines():
        lowered = line.lower()
        if any(sign in lowered for sign in DECODER_DAMAGE):
            report.damage.append(_LOG_PREFIX.sub("", line.strip())[:160])
        elif lowered.startswith(("[error", "[ warn", "[warn", "libpng", "libtiff")):
            log.debug("%s", line)
        elif line:
            passed.append(line)
    if passed:
        os.write(2, ("\n".join(passed) + "\n").encode("utf-8", "replace"))
