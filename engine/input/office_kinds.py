"""Office documents told apart by their content (ADR 0002, ADR 0012): Office Open XML by the
content type `[Content_Types].xml` gives its main part, OpenDocument by its `mimetype` member,
and the Compound File Binary container (legacy Office, encrypted Office Open XML) by the names
of its streams. A macro-enabled document, an encrypted one or a legacy binary one is refused
here, with what to do instead; nothing in any of them is ever run."""

from __future__ import annotations

import zipfile
from pathlib import Path

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import fromstring

from engine.errors import UnsafeInput, UnsupportedInput

# [Content_Types].xml is a short list; one larger than this is no Office document's.
CONTENT_TYPES_BYTES = 1024 * 1024
_OOXML = "application/vnd.openxmlformats-officedocument."
# The main part's content type -> the kind; macro-enabled and template variants included.
MAIN_CONTENT_TYPES = {
    _OOXML + "wordprocessingml.document.main+xml": "docx",
    _OOXML + "wordprocessingml.template.main+xml": "docx",
    _OOXML + "spreadsheetml.sheet.main+xml": "xlsx",
    _OOXML + "spreadsheetml.template.main+xml": "xlsx",
    _OOXML + "presentationml.presentation.main+xml": "pptx",
    _OOXML + "presentationml.slideshow.main+xml": "pptx",
    _OOXML + "presentationml.template.main+xml": "pptx",
}
MACRO_CONTENT_TYPES = {
    "application/vnd.ms-word.document.macroenabled.main+xml": ("docm", "Word Document (.docx)"),
    "application/vnd.ms-word.template.macroenabledtemplate.main+xml":
        ("dotm", "Word Document (.docx)"),
    "application/vnd.ms-excel.sheet.macroenabled.main+xml": ("xlsm", "Excel Workbook (.xlsx)"),
    "application/vnd.ms-excel.template.macroenabled.main+xml": ("xltm", "Excel Workbook (.xlsx)"),
    "application/vnd.ms-powerpoint.presentation.macroenabled.main+xml":
        ("pptm", "PowerPoint Presentation (.pptx)"),
    "application/vnd.ms-powerpoint.slideshow.macroenabled.main+xml":
        ("ppsm", "PowerPoint Presentation (.pptx)"),
}
ODF_MIMETYPES = {
    b"application/vnd.oasis.opendocument.text": "odt",
    b"application/vnd.oasis.opendocument.spreadsheet": "ods",
    b"application/vnd.oasis.opendocument.presentation": "odp",
}
# Where macros live: VBA projects in Office Open XML, Basic and scripts in OpenDocument.
MACRO_MEMBERS = ("vbaproject.bin", "vbadata.xml")
ODF_MACRO_FOLDERS = ("basic/", "scripts/")
# Stream names inside a compound file, as its directory stores them (UTF-16LE).
_ENCRYPTED_PACKAGE = "EncryptedPackage".encode("utf-16-le")
_LEGACY_STREAMS = (("WordDocument", "Word 97-2003 document (.doc)", "Word Document (.docx)"),
                   ("Workbook", "Excel 97-2003 workbook (.xls)", "Excel Workbook (.xlsx)"),
                   ("Book", "Excel 5 workbook (.xls)", "Excel Workbook (.xlsx)"),
                   ("PowerPoint Document", "PowerPoint 97-2003 presentation (.ppt)",
                    "PowerPoint Presentation (.pptx)"))
OLE_SCAN_BYTES = 64 * 1024 * 1024
_SCAN_CHUNK = 1024 * 1024


def office_kind(archive: zipfile.ZipFile, name: str, mimetype: bytes) -> str | None:
    """"docx", "xlsx", "pptx", "odt", "ods" or "odp" for an Office container, None for any
    other ZIP; a macro-enabled one raises UnsafeInput."""
    lowered = {n.lower(): n for n in archive.namelist()}
    if mimetype in ODF_MIMETYPES:
        if any(n.startswith(ODF_MACRO_FOLDERS) for n in lowered):
            raise UnsafeInput(f"{name} is an OpenDocument file carrying macros; Paperlens does "
                              "not read documents with macros (nothing in it was run). Save a "
                              "copy without macros and convert that.")
        return ODF_MIMETYPES[mimetype]
    if "[content_types].xml" not in lowered:
        return None
    main = _main_content_types(archive, lowered["[content_types].xml"], name)
    for content_type in main:
        if content_type in MACRO_CONTENT_TYPES:
            _refuse_macros(name, *MACRO_CONTENT_TYPES[content_type])
    kinds = {MAIN_CONTENT_TYPES[t] for t in main if t in MAIN_CONTENT_TYPES}
    if not kinds:
        return None  # XPS and other packages with content types
    kind = kinds.pop()
    if any(Path(n).name in MACRO_MEMBERS for n in lowered):
        _refuse_macros(name, {"docx": "docm", "xlsx": "xlsm", "pptx": "pptm"}[kind],
                       {"docx": "Word Document (.docx)", "xlsx": "Excel Workbook (.xlsx)",
                        "pptx": "PowerPoint Presentation (.pptx)"}[kind])
    return kind


def _refuse_macros(name: str, suffix: str, save_as: str) -> None:
    raise UnsafeInput(f"{name} is a macro-enabled Office document (.{suffix}); Paperlens does not "
                      f"read documents with macros (nothing in it was run). Save a copy as "
                      f"{save_as}, which drops the macros, and convert that.")


def _main_content_types(archive: zipfile.ZipFile, member: str, name: str) -> set[str]:
    """The content types of the parts `[Content_Types].xml` names (lower case)."""
    info = archive.getinfo(member)
    if info.file_size > CONTENT_TYPES_BYTES:
        raise UnsafeInput(f"{name} has a [Content_Types].xml of {info.file_size:,} bytes, far "
                          "more than an Office document's (the file may be built to exhaust "
                          "memory); Paperlens does not read it.")
    with archive.open(info) as fh:
        data = fh.read(CONTENT_TYPES_BYTES + 1)
    try:
        root = fromstring(data, forbid_dtd=True)
    except DefusedXmlException:
        raise UnsafeInput(f"{name} declares a DTD or entities in [Content_Types].xml, which no "
                          "Office document does (the file may be built to exhaust memory or to "
                          "read other files); Paperlens does not read it.") from None
    except Exception:  # expat's ParseError: the list is damaged
        raise UnsupportedInput(f"{name} looks like an Office document but its "
                               "[Content_Types].xml is damaged; open and save it again in its "
                               "application.") from None
    return {(element.get("ContentType") or "").lower() for element in root.iter()
            if element.tag.rsplit("}", 1)[-1] in ("Override", "Default")}


def ole_kind(path: Path) -> None:
    """A Compound File Binary container, always refused: an encrypted Office document (its
    `EncryptedPackage` stream), a legacy binary one, or another compound file."""
    names = _stream_names_present(path)
    if _ENCRYPTED_PACKAGE in names:
        raise UnsupportedInput(
            f"{path.name} is a password-protected Office document; Paperlens cannot open "
            "encrypted Office files. Open it in its application, remove the password (File > "
            "Info > Protect) and save it again, then convert that copy.")
    for stream, what, save_as in _LEGACY_STREAMS:
        if stream.encode("utf-16-le") in names:
            raise UnsupportedInput(f"{path.name} is a {what}, a format Paperlens does not read; "
                                   f"save it as {save_as} and convert that.")
    raise UnsupportedInput(f"{path.name} is a Compound File Binary container (an old Office or "
                           "Windows format) that Paperlens does not read.")


def _stream_names_present(path: Path) -> set[bytes]:
    """Which of the stream names of interest appear in the file (their directory entries)."""
    wanted = [_ENCRYPTED_PACKAGE] + [s.encode("utf-16-le") for s, _, _ in _LEGACY_STREAMS]
    found: set[bytes] = set()
    tail = b""
    with path.open("rb") as fh:
        read = 0
        while read < OLE_SCAN_BYTES:
            chunk = fh.read(_SCAN_CHUNK)
            if not chunk:
                break
            read += len(chunk)
            window = tail + chunk
            found.update(w for w in wanted if w in window)
            tail = window[-64:]
    return found
