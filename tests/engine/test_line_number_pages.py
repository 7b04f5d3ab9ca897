"""A deposition transcript (line numbers 1-25 in the left margin, Q./A. lines) through the real
engine, born-digital and scanned: read as text in order, the numbers left out, never a table."""

from __future__ import annotations

import re
from pathlib import Path

import pymupdf
import pytest

from engine.options import ConvertOptions
from engine.types import BlockKind

pytestmark = pytest.mark.model

SPEAKERS = ["Q.", "A."]
SAYINGS = [
    "Please state your full name for the record.",
    "My name is Harriet Okonkwo, and I live on Mill Lane.",
    "How long have you worked at the grain cooperative?",
    "Eleven years this spring, most of them in the weighing office.",
    "Who else was in the office on the morning of the delivery?",
    "Only the driver and the younger of the two clerks.",
    "Did you see the scale ticket before it was signed?",
    "I did, and the figure on it matched the one in the ledger.",
]


def transcript_lines(rows: int = 25) -> list[str]:
    return [f"{SPEAKERS[k % 2]}  {SAYINGS[k % len(SAYINGS)]}" for k in range(rows)]


def write_transcript(path: Path) -> Path:
    doc = pymupdf.open()
    page = doc.new_page()
    page.draw_line((88, 60), (88, 790), color=(0, 0, 0), width=0.8)
    for k, text in enumerate(transcript_lines()):
        y = 90 + k * 28
        number = str(k + 1)
        width = pymupdf.get_text_length(number, fontname="cour", fontsize=11)
        page.insert_text((76 - width, y), number, fontname="cour", fontsize=11)
        page.insert_text((100, y), text, fontname="cour", fontsize=11)
    doc.save(str(path))
    doc.close()
    return path


def scanned(pdf: Path, out: Path) -> Path:
    with pymupdf.open(str(pdf)) as doc:
        doc[0].get_pixmap(dpi=200).save(str(out))
    return out


def words(text: str) -> str:
    return " ".join(re.findall(r"[a-z]+", text.lower()))


@pytest.mark.parametrize("variant", ["digital", "scanned"])
def test_a_transcript_reads_as_text_without_its_line_numbers(engine, tmp_path, variant):
    pdf = write_transcript(tmp_path / "deposition.pdf")
    source = pdf if variant == "digital" else scanned(pdf, tmp_path / "deposition.png")
    result = engine.convert(source, ConvertOptions())
    (page,) = result.pages
    assert not [b for b in page.blocks if b.kind is BlockKind.TABLE]
    # No line of the Markdown is a bare number, and no number stands before a speaker mark.
    markdown = result.markdown
    assert not re.search(r"(?m)^\s*\d{1,2}\s*$", markdown), markdown
    assert not re.search(r"\b\d{1,2}\s+[QA]\.", markdown), markdown
    expected = words(" ".join(transcript_lines()))
    got = words(markdown)
    assert got == expected or _similar(got, expected) >= 0.97, markdown


def _similar(a: str, b: str) -> float:
    from difflib import SequenceMatcher

    return SequenceMatcher(None, a, b, autojunk=False).ratio()
