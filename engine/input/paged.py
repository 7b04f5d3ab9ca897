"""Paged inputs (PDF, XPS, EPUB, CBZ) opened by MuPDF: the container's members checked before
MuPDF unpacks them, the password asked for, a repaired file whose first page does not parse
refused. Free of OpenCV, for the identification child (engine/input/probe_child.py)."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from engine.errors import CorruptDocument, PasswordRequired, WrongPassword
from engine.input.kinds import InputKind
from engine.input.limits import check_archive


def open_paged(path: Path, kind: InputKind, password: str | None) -> pymupdf.Document:
    """MuPDF's document, its members' sizes and markup checked first; typed errors for a
    damaged or encrypted file."""
    filetype = {InputKind.PDF: "pdf", InputKind.XPS: "xps", InputKind.EPUB: "epub",
                InputKind.CBZ: "cbz"}[kind]
    if kind is not InputKind.PDF:
        check_archive(path)  # member sizes, before PyMuPDF unpacks anything
    try:
        doc = pymupdf.open(str(path), filetype=filetype)
    except Exception as exc:  # PyMuPDF raises its own FileDataError / RuntimeError variants
        raise CorruptDocument(f"{path.name} is damaged and cannot be opened "
                              f"({short_reason(exc)}).") from None
    if doc.needs_pass:
        if not password:
            doc.close()
            raise PasswordRequired(f"{path.name} is encrypted; enter its password to convert it.")
        if not doc.authenticate(password):
            doc.close()
            raise WrongPassword(f"The password does not open {path.name}; check it and try again.")
    if doc.page_count < 1:
        doc.close()
        raise CorruptDocument(f"{path.name} has no readable page (the file may be truncated).")
    if kind is InputKind.PDF and doc.is_repaired:
        # MuPDF rebuilt a broken cross-reference table. That happens with truncated files; make
        # sure at least the first page still parses, otherwise report the file as damaged.
        try:
            doc.load_page(0).get_text("text")
        except Exception as exc:
            doc.close()
            raise CorruptDocument(f"{path.name} is damaged ({short_reason(exc)}).") from None
    return doc


def short_reason(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return text[:160]
