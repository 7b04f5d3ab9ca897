"""The searchable PDF: on a generated multi-page Chinese scan and on the dev set's scans, its text
(PyMuPDF and pdftotext) is our Markdown's text in order, words are found where their ink is,
no space comes between CJK characters, the outline is the headings, the file stays small."""

from __future__ import annotations

import re
import shutil
import subprocess
import unicodedata
from pathlib import Path

import pymupdf
import pytest

from engine.formats import OutputFormat
from engine.export.searchable_pdf import outline
from engine.text import joins_unspaced as is_cjk
from engine.options import ConvertOptions
from engine.types import BlockKind
from engine.output.markdown import render_markdown
from tools.chinese_scan import CHINESE_PAGES, ink_box, iou, write_chinese_scan
from tools.eval.edit_distance import similarity
from tools.eval.markdown_text import strip_markdown

pytestmark = pytest.mark.model

MIN_SIMILARITY = 0.98
MAX_SIZE_RATIO = 1.1
MIN_IOU = 0.5
_IDEOGRAPHS = re.compile(r"[\u4e00-\u9fff]{2}")


def plain(text: str) -> str:
    """Text for comparing: one space between words, none where either side is CJK (a line
    break in CJK text is not a space, and our Markdown joins such lines without one); full-
    width punctuation folded as the Markdown side's strip_markdown folds it."""
    text = " ".join(unicodedata.normalize("NFKC", text).split())
    out = []
    for i, ch in enumerate(text):
        if ch == " " and 0 < i < len(text) - 1 and (is_cjk(text[i - 1]) or is_cjk(text[i + 1])):
            continue
        out.append(ch)
    return "".join(out)


def markdown_text(result) -> str:
    """The words of our Markdown, with the running headers, footers and page numbers it sets
    aside (they are on the page, so the PDF carries them): markup, image links, comments and
    display math removed."""
    markdown = render_markdown(result.pages, keep_furniture=True)
    markdown = re.sub(r"<!--.*?-->", " ", markdown, flags=re.S)
    markdown = re.sub(r"\$\$.*?\$\$", " ", markdown, flags=re.S)
    markdown = re.sub(r"!\[[^\]]*\]\([^)]*\)", " ", markdown)
    markdown = re.sub(r"<[^>]+>", " ", markdown)
    return plain(strip_markdown(markdown))


def pdftotext(path: Path, raw: bool = False) -> str:
    """poppler's text of a PDF: by its own layout analysis, or (`raw`) in the order the page
    holds it, which is the reading order we wrote (poppler's analysis reads a table column by
    column)."""
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext is not installed (tools/system_deps.sh installs poppler-utils)")
    done = subprocess.run(["pdftotext", "-enc", "UTF-8", *(["-raw"] if raw else []), str(path),
                           "-"], capture_output=True, text=True, check=True)
    return done.stdout


def cjk_gaps(text: str) -> int:
    """Spaces between two CJK characters within a line."""
    return sum(1 for line in text.splitlines()
               for m in re.finditer(r"(.) (.)", line) if is_cjk(m.group(1)) and is_cjk(m.group(2)))


@pytest.fixture(scope="module")
def chinese(engine, tmp_path_factory):
    folder = tmp_path_factory.mktemp("chinese-scan")
    source = folder / "report.pdf"
    truth = write_chinese_scan(source)
    result = engine.convert(source, ConvertOptions(output_dir=str(folder / "out"),
                                                   exports=(OutputFormat.PDF,)))
    return source, truth, result, folder / "out" / "report.searchable.pdf"


@pytest.fixture(scope="module")
def dev_scans(dev_scans_converted):
    return dev_scans_converted[1]


def test_chinese_scan_text_matches_our_markdown(chinese):
    source, _truth, result, pdf = chinese
    expected = markdown_text(result)
    with pymupdf.open(pdf) as document:
        assert document.page_count == len(CHINESE_PAGES)
        by_mupdf = "\n".join(page.get_text() for page in document)
    by_poppler = pdftotext(pdf)
    assert similarity(plain(by_mupdf), expected) >= MIN_SIMILARITY
    assert similarity(plain(by_poppler), expected) >= MIN_SIMILARITY
    # No space between CJK characters unless our own text has one there.
    ours = sum(cjk_gaps(line.text) for page in result.pages for block in page.blocks
               for line in block.lines)
    assert cjk_gaps(by_mupdf) == ours
    assert cjk_gaps(by_poppler) == ours


def test_chinese_scan_words_are_found_on_their_ink(chinese):
    _source, truth, result, pdf = chinese
    text = markdown_text(result)
    checked = []
    with pymupdf.open(pdf) as document:
        for page_index, page in enumerate(truth):
            for line in page.lines:
                chars = "".join(c.char for c in line)
                # Character pairs from a quarter, half and three quarters along the line,
                # and its first Latin word.
                samples = [(len(chars) * k // 4, len(chars) * k // 4 + 2) for k in (1, 2, 3)]
                samples = [(a, b) for a, b in samples if _IDEOGRAPHS.fullmatch(chars[a:b])]
                samples += [m.span() for m in re.finditer(r"[A-Za-z]{3,}", chars)][:1]
                for start, end in samples:
                    word = chars[start:end]
                    if text.count(word) != 1:
                        continue  # misread by OCR, or not unique: nothing to find exactly
                    hits = [(i, document[i].search_for(word)) for i in range(document.page_count)]
                    pages_hit = [i for i, rects in hits if rects]
                    assert pages_hit == [page_index], word
                    rects = hits[page_index][1]
                    box = rects[0]
                    for rect in rects[1:]:
                        box |= rect
                    true_box = line[start].box
                    for c in line[start + 1:end]:
                        true_box = (min(true_box[0], c.box[0]), min(true_box[1], c.box[1]),
                                    max(true_box[2], c.box[2]), max(true_box[3], c.box[3]))
                    ink = ink_box(page, true_box)
                    checked.append((word, iou(tuple(box), ink)))
    assert len(checked) >= 25, checked
    poor = [(w, round(v, 2)) for w, v in checked if v < MIN_IOU]
    assert not poor, poor


def test_chinese_scan_outline_title_and_size(chinese):
    source, _truth, result, pdf = chinese
    headings = [line[2:] for line in result.markdown.splitlines() if line.startswith("#")]
    headings = [h.lstrip("# ") for h in headings]
    with pymupdf.open(pdf) as document:
        toc = document.get_toc()
        assert [entry[1] for entry in toc] == headings
        assert [entry[2] for entry in toc] == [1, 2, 3]
        assert document.metadata["title"] == headings[0]
        # The scanned pages keep their own JPEG stream, byte for byte.
        with pymupdf.open(source) as original:
            for ours, theirs in zip(document, original):
                ours_xref, theirs_xref = ours.get_images()[0][0], theirs.get_images()[0][0]
                assert (document.xref_stream_raw(ours_xref)
                        == original.xref_stream_raw(theirs_xref))
    assert outline(result) == [entry[:3] for entry in toc]
    assert pdf.stat().st_size <= MAX_SIZE_RATIO * source.stat().st_size


def own_text(source: Path) -> str:
    """The visible text a PDF input's pages already carry ("" for images and pure scans)."""
    if source.suffix != ".pdf":
        return ""
    with pymupdf.open(source) as document:
        return "\n".join(page.get_text() for page in document)


def test_dev_scans_text_matches_our_markdown(dev_scans):
    pure = [(s, r, p) for s, r, p in dev_scans if not own_text(s).strip()]
    assert len(pure) >= 6
    for source, result, pdf in pure:
        expected = markdown_text(result)
        with pymupdf.open(pdf) as document:
            by_mupdf = "\n".join(page.get_text() for page in document)
        assert similarity(plain(by_mupdf), expected) >= MIN_SIMILARITY, source
        assert similarity(plain(pdftotext(pdf, raw=True)), expected) >= MIN_SIMILARITY, source
        if not any(b.kind is BlockKind.TABLE for page in result.pages for b in page.blocks):
            assert similarity(plain(pdftotext(pdf)), expected) >= MIN_SIMILARITY, source


def test_dev_scan_pdfs_stay_within_a_tenth_of_their_size(dev_scans):
    pdfs = [(s, p) for s, _r, p in dev_scans if s.suffix == ".pdf"]
    assert pdfs
    for source, pdf in pdfs:
        assert pdf.stat().st_size <= MAX_SIZE_RATIO * source.stat().st_size, source


def test_dev_scan_with_text_of_its_own_keeps_it_once(dev_scans):
    """A page that is mostly picture but has some real text: that text stays as it is and is
    not laid a second time; what OCR read elsewhere on the page is added."""
    mixed = [(s, r, p) for s, r, p in dev_scans if own_text(s).strip()]
    assert mixed
    for source, result, pdf in mixed:
        theirs = plain(own_text(source))
        with pymupdf.open(pdf) as document:
            ours = plain("\n".join(page.get_text() for page in document))
        assert ours.startswith(theirs), source  # our layer comes after the page's own content
        added = ours[len(theirs):]
        for word in set(theirs.split()):
            assert ours.split().count(word) == theirs.split().count(word), word
        assert added.strip(), source
        assert added.strip() in markdown_text(result)  # the lines read off the picture
