"""Hostile Office documents: a decompression bomb, XML entities that expand a billion times,
an external entity pointing at a local file and at a listening socket, macro-enabled
documents and an encrypted one. Each gives one typed error naming what is wrong and what to do;
nothing in it is run, no file it names is read and no connection is made, and the CLI that
meets one stays within its own memory (the reading happens in the bounded child)."""

from __future__ import annotations

import socket
import zipfile
from pathlib import Path

import pytest

from engine.errors import CorruptDocument, UnsafeInput, UnsupportedInput
from engine.input.document import open_document
from engine.input.kinds import identify

from fault_samples import cli_environ, run_cli_child
from office_samples import (compound_file, docx_with, encrypted_office, external_entity_document,
                            laughs_document, write_odf, write_xlsx)

PEAK_MIB = 700


def _refused(path: Path, error=UnsafeInput) -> str:
    with pytest.raises(error) as caught:
        open_document(path).close()
    assert type(caught.value) is error
    return caught.value.message


def zip_bomb_docx(path: Path) -> Path:
    """A DOCX carrying 64 MiB of zeros in a part, packed ~1,000 times."""
    docx_with(path)
    with zipfile.ZipFile(path, "a", zipfile.ZIP_DEFLATED) as archive:
        with archive.open("word/media/filler.xml", "w", force_zip64=True) as fh:
            for _ in range(64):
                fh.write(bytes(1 << 20))
    return path


def test_a_zip_bomb_is_refused_before_anything_is_parsed(tmp_path):
    message = _refused(zip_bomb_docx(tmp_path / "bomb.docx"))
    assert "word/media/filler.xml" in message and "decompression bomb" in message


def test_a_part_that_unpacks_past_its_declared_size_is_read_no_further(tmp_path):
    """The headers say 1 KiB; the data inflates to 2 MiB. Reading stops at the declared size,
    and the part is damaged (its checksum is over the rest)."""
    path = docx_with(tmp_path / "liar.docx", add={"word/liar.xml": b"<a>" + b" " * (2 << 20)
                                                  + b"</a>"})
    data = bytearray(path.read_bytes())
    with zipfile.ZipFile(path) as archive:
        info = archive.getinfo("word/liar.xml")
    real = info.file_size.to_bytes(4, "little")
    for at in range(len(data) - 4):  # both headers' sizes (the local one and the directory's)
        if data[at:at + 4] == real:
            data[at:at + 4] = (1024).to_bytes(4, "little")
    path.write_bytes(bytes(data))
    assert "word/liar.xml cannot be unpacked" in _refused(path, error=CorruptDocument)


def test_entities_that_expand_without_bound_are_refused(tmp_path):
    path = docx_with(tmp_path / "laughs.docx", replace={"word/document.xml": laughs_document()})
    assert "XML entities" in _refused(path) or "document type" in _refused(path)


def test_an_external_entity_reads_no_file_and_opens_no_connection(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("the secret words")
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    listener.setblocking(False)
    url = f"http://127.0.0.1:{listener.getsockname()[1]}/x"
    try:
        for target in (secret.as_uri(), url):
            path = docx_with(tmp_path / "leak.docx",
                             replace={"word/document.xml": external_entity_document(target)})
            message = _refused(path)
            assert "the secret words" not in message and "nothing was fetched" in message
        with pytest.raises(BlockingIOError):
            listener.accept()  # nobody knocked
    finally:
        listener.close()


@pytest.mark.parametrize("content_type", [
    "application/vnd.ms-word.document.macroEnabled.main+xml", None])
def test_a_macro_enabled_document_is_refused_unrun(tmp_path, content_type):
    path = docx_with(tmp_path / "report.docx", add={"word/vbaProject.bin": b"\xd0\xcf\x11\xe0"},
                     content_type=content_type)
    message = _refused(path)
    assert ".docm" in message and "Save a copy as Word Document (.docx)" in message


def test_a_macro_enabled_workbook_is_refused_by_its_content_type(tmp_path):
    source = write_xlsx(tmp_path / "book.xlsx")
    path = tmp_path / "book.xlsm"
    with zipfile.ZipFile(source) as inp, zipfile.ZipFile(path, "w") as out:
        for info in inp.infolist():
            data = inp.read(info).replace(b"spreadsheetml.sheet.main+xml",
                                          b"sheet.macroEnabled.main+xml").replace(
                b"application/vnd.openxmlformats-officedocument.sheet.macroEnabled",
                b"application/vnd.ms-excel.sheet.macroEnabled")
            out.writestr(info, data)
    assert ".xlsm" in _refused(path)


def test_opendocument_with_basic_macros_is_refused(tmp_path):
    path = write_odf(tmp_path / "m.odt", "application/vnd.oasis.opendocument.text",
                     "<office:text/>", {"Basic/Standard/Module1.xml": b"<x/>"})
    assert "macros" in _refused(path)


def test_an_encrypted_office_document_says_how_to_open_it(tmp_path):
    with pytest.raises(UnsupportedInput) as caught:
        identify(encrypted_office(tmp_path / "locked.docx"))
    assert "password-protected Office document" in caught.value.message
    assert "remove the password" in caught.value.message


def test_a_legacy_binary_document_says_what_to_save_it_as(tmp_path):
    with pytest.raises(UnsupportedInput) as caught:
        identify(compound_file(tmp_path / "old.doc", "WordDocument", "1Table"))
    assert "Word 97-2003 document (.doc)" in caught.value.message
    assert "save it as Word Document (.docx)" in caught.value.message


def test_the_cli_refuses_a_bomb_in_words_within_its_own_memory(tmp_path):
    bomb = zip_bomb_docx(tmp_path / "bomb.docx")
    run = run_cli_child(["convert", str(bomb), "-o", str(tmp_path / "out")],
                        cli_environ(tmp_path), tmp_path)
    assert run.code == 1 and "decompression bomb" in run.stderr
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())
    assert run.peak_mib < PEAK_MIB, f"peak {run.peak_mib:.0f} MiB"


def test_a_damaged_part_is_a_corrupt_document_naming_it(tmp_path):
    path = docx_with(tmp_path / "cut.docx", replace={"word/document.xml": b"<w:document><w:bo"})
    message = _refused(path, error=CorruptDocument)
    assert "word/document.xml is not well-formed XML" in message


def test_markup_nested_past_any_document_is_refused(tmp_path):
    nested = b"<w:p>" * 300 + b"</w:p>" * 300
    body = (b'<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">'
            b"<w:body>" + nested + b"</w:body></w:document>")
    path = docx_with(tmp_path / "deep.docx", replace={"word/document.xml": body})
    assert "nest more than 256 deep" in _refused(path)
