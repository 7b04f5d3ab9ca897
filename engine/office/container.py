"""An Office container checked before any reader parses it: every member's declared size and
compression ratio, then every XML member read through a counting stream (its real size, not
the one declared) by a parser that refuses a DTD, entity declarations and external references
and stops at a nesting depth no document needs. Pictures are read back the same bounded way."""

from __future__ import annotations

import zipfile
from dataclasses import dataclass
from pathlib import Path

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import iterparse

from engine.errors import CorruptDocument, UnsafeInput


@dataclass(frozen=True)
class OfficeRules:
    """What one Office document may cost to read."""

    max_members: int = 20_000
    """Parts in the package: a 500-slide deck has ~3,000 (slides, layouts, media, relations)."""
    max_member_bytes: int = 256 * 1024 * 1024
    """One member unpacked: the cap on every ZIP container's member (engine/input/limits.py)."""
    max_xml_bytes: int = 256 * 1024 * 1024
    """All XML members unpacked together: a 100,000-row sheet is ~50 MiB of XML."""
    max_ratio: float = 200.0
    """Unpacked over packed size of a member above `ratio_floor_bytes`: XML packs 5-30 times,
    a sheet of repeated rows ~100 times; a bomb of zeros packs ~1,000 times."""
    ratio_floor_bytes: int = 1024 * 1024
    max_depth: int = 256
    """Element nesting of one XML member: tables in tables in text boxes stay under 60."""


OFFICE_RULES = OfficeRules()
XML_SUFFIXES = (".xml", ".rels", ".vml")
_CHUNK = 64 * 1024


def screen_container(path: Path, rules: OfficeRules = OFFICE_RULES) -> None:
    """Raise UnsafeInput (a bomb, a DTD or entity) or CorruptDocument (a damaged package)
    before any reader opens the file."""
    try:
        archive = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError) as exc:
        raise CorruptDocument(f"{path.name} is damaged and cannot be opened ({exc}).") from None
    with archive:
        members = [m for m in archive.infolist() if not m.is_dir()]
        if len(members) > rules.max_members:
            raise UnsafeInput(f"{path.name} holds {len(members):,} parts; Paperlens reads Office "
                              f"documents of up to {rules.max_members:,} (the file may be built "
                              "to exhaust the reader).")
        xml_total = 0
        for member in members:
            _check_declared(path.name, member, rules)
            if member.filename.lower().endswith(XML_SUFFIXES):
                xml_total += member.file_size
                if xml_total > rules.max_xml_bytes:
                    raise UnsafeInput(
                        f"{path.name} unpacks to more than {rules.max_xml_bytes // 2**20} MiB of "
                        "XML; Paperlens does not read it (the file may be a decompression bomb).")
        for member in members:
            if member.filename.lower().endswith(XML_SUFFIXES):
                _screen_xml(archive, member, path.name, rules)


def _check_declared(name: str, member: zipfile.ZipInfo, rules: OfficeRules) -> None:
    if member.file_size > rules.max_member_bytes:
        raise UnsafeInput(f"{name} holds {member.filename}, which unpacks to "
                          f"{member.file_size / 2**20:.0f} MiB; Paperlens reads parts up to "
                          f"{rules.max_member_bytes // 2**20} MiB (the file may be a "
                          "decompression bomb).")
    if member.file_size > rules.ratio_floor_bytes and \
            member.file_size > rules.max_ratio * max(member.compress_size, 1):
        raise UnsafeInput(f"{name} holds {member.filename}, packed "
                          f"{member.file_size / max(member.compress_size, 1):,.0f} times "
                          f"(Office parts pack at most ~{rules.max_ratio:.0f} times); Paperlens "
                          "does not read it (the file may be a decompression bomb).")


class _Counted:
    """A member's stream that stops past its declared size or the cap (a lying header)."""

    def __init__(self, stream, name: str, member: zipfile.ZipInfo, limit: int) -> None:
        self.stream, self.name, self.member, self.limit = stream, name, member, limit
        self.seen = 0

    def read(self, size: int = _CHUNK) -> bytes:
        data = self.stream.read(min(size if size > 0 else _CHUNK, _CHUNK))
        self.seen += len(data)
        if self.seen > min(self.limit, self.member.file_size):
            raise UnsafeInput(f"{self.name} holds {self.member.filename}, which unpacks to more "
                              "than its header declares; Paperlens does not read it (the file "
                              "may be a decompression bomb).")
        return data


def _screen_xml(archive: zipfile.ZipFile, member: zipfile.ZipInfo, name: str,
                rules: OfficeRules) -> None:
    depth = 0
    try:
        with archive.open(member) as raw:
            stream = _Counted(raw, name, member, rules.max_member_bytes)
            for event, element in iterparse(stream, events=("start", "end"), forbid_dtd=True):
                if event == "start":
                    depth += 1
                    if depth > rules.max_depth:
                        raise UnsafeInput(
                            f"{name} holds {member.filename}, whose elements nest more than "
                            f"{rules.max_depth} deep; Paperlens does not read it (the file may "
                            "be built to exhaust the reader).")
                else:
                    depth -= 1
                    element.clear()
    except DefusedXmlException as exc:
        raise UnsafeInput(f"{name} holds {member.filename}, which declares "
                          f"{_what(exc)}; no Office document does, and Paperlens does not read "
                          "it (such XML is built to exhaust memory or to read other files; "
                          "nothing was fetched).") from None
    except (zipfile.BadZipFile, EOFError, OSError) as exc:
        raise CorruptDocument(f"{name} is damaged: {member.filename} cannot be unpacked "
                              f"({exc}).") from None
    except UnsafeInput:
        raise
    except Exception as exc:  # expat's ParseError: malformed XML
        raise CorruptDocument(f"{name} is damaged: {member.filename} is not well-formed XML "
                              f"({str(exc)[:120]}); open and save it again in its "
                              "application.") from None


def _what(exc: DefusedXmlException) -> str:
    kind = type(exc).__name__
    if kind == "DTDForbidden":
        return "a document type (DTD)"
    if kind == "ExternalReferenceForbidden":
        return "a reference to an external entity"
    return "XML entities"


def read_member(path: Path, member_name: str, limit: int = OFFICE_RULES.max_member_bytes
                ) -> bytes:
    """One member's bytes (a picture), read no further than its declared size or `limit`."""
    with zipfile.ZipFile(path) as archive:
        member = archive.getinfo(member_name)
        if member.file_size > limit:
            raise UnsafeInput(f"{path.name} holds {member_name}, which unpacks to "
                              f"{member.file_size / 2**20:.0f} MiB; Paperlens reads parts up to "
                              f"{limit // 2**20} MiB.")
        with archive.open(member) as raw:
            stream = _Counted(raw, path.name, member, limit)
            parts = []
            while chunk := stream.read(_CHUNK):
                parts.append(chunk)
    return b"".join(parts)
