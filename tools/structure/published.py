"""`python -m tools.structure published`: real two-column pages typeset by the journal and
conference classes of TeX Live (ACM, IEEE-like, REVTeX, Elsevier, ASME, AGU, MNRAS, OUP, JACoW,
TUGboat ...): the sample and guide PDFs that Debian's `texlive-publishers-doc` installs under
/usr/share/doc/texlive-doc. Nobody drew these pages for Paperlens, so they check that rules
chosen on the generated families hold on layouts made by real class files.

The truth is the page's text in the order TeX wrote it (PyMuPDF without sorting). pdfTeX ships
a two-column page as the head, the first column, the second column and the foot, floats where
the output routine put them, so that order is the reading order, with three caveats: running
heads and page numbers are in it (Paperlens drops them, which costs a little everywhere), text
inside vector figures is in it, and mathematics is there as its glyphs, not as LaTeX. Line
numbers in the margins of draft pages (acmart's `authordraft`) are taken out of the truth, as
Paperlens takes them out of its reading (engine/structure/line_numbers.py). The
figures are comparable between tools on the same pages, not with the generated families. The
PDF's own order is the truth here, so its column is not scored.

Written in the same shape as the generated set (manifest.json, <id>.pdf, <id>.scan.jpg, <id>.md),
so `python -m tools.structure eval --folder` scores it."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pymupdf

from tools.structure.scans import scan

DOCS = Path("/usr/share/doc/texlive-doc")
# The package's own file list: only its PDFs, not those other TeX Live documentation packages
# put under the same folder.
PACKAGE_LIST = Path("/var/lib/dpkg/info/texlive-publishers-doc.list")
FAMILY = "published"
# A page is two-column when at least two text blocks of over LONG_BLOCK characters lie in each
# half of it; the samples' title pages (one wide abstract) and one-column guides are left out.
LONG_BLOCK = 200
MIN_BLOCKS_PER_COLUMN = 2


def two_column(page: pymupdf.Page) -> bool:
    width = page.rect.width
    blocks = [b for b in page.get_text("blocks") if b[6] == 0 and len(b[4]) > LONG_BLOCK]
    left = sum(1 for b in blocks if b[2] < width * 0.55)
    right = sum(1 for b in blocks if b[0] > width * 0.45)
    return left >= MIN_BLOCKS_PER_COLUMN and right >= MIN_BLOCKS_PER_COLUMN


def package_pdfs(docs: Path) -> list[Path]:
    if docs == DOCS and PACKAGE_LIST.is_file():
        listed = PACKAGE_LIST.read_text(encoding="utf-8").split("\n")
        return sorted(Path(line) for line in listed if line.endswith(".pdf"))
    return sorted(docs.rglob("*.pdf"))


def candidate_pages(docs: Path) -> list[tuple[Path, int]]:
    """Every two-column page of every PDF of the package, in a stable order."""
    found = []
    for pdf in package_pdfs(docs):
        pymupdf.TOOLS.mupdf_display_errors(False)
        try:
            with pymupdf.open(pdf) as doc:
                found += [(pdf, n) for n, page in enumerate(doc) if two_column(page)]
        except (RuntimeError, ValueError):  # a damaged or encrypted sample: not ours to read
            continue
    return found


def choose(candidates: list[tuple[Path, int]], count: int, seed: int, per_document: int = 2,
           keep=lambda pdf, number: True) -> list[tuple[Path, int]]:
    """`count` pages, at most `per_document` from one PDF, drawn with `seed`; several PDFs
    render the same sample (sample-sigconf, -xelatex, -lualatex ...): their pages are alike,
    which is why no document gives more than a couple."""
    rng = random.Random(seed)
    by_doc: dict[Path, list[int]] = {}
    for pdf, n in candidates:
        by_doc.setdefault(pdf, []).append(n)
    picks = []
    for pdf in sorted(by_doc):
        pages = by_doc[pdf]
        picks += [(pdf, n) for n in sorted(rng.sample(pages, min(per_document, len(pages))))]
    rng.shuffle(picks)
    return sorted([pick for pick in picks if keep(*pick)][:count])


# Text below this size is the text of pictures of pages (a guide showing its layouts as
# thumbnails); Paperlens keeps such a figure as an image, so a page where more than
# TINY_TEXT_SHARE of the characters are that small has no fair truth and is passed over.
TINY_TEXT_PT = 5.0
TINY_TEXT_SHARE = 0.05


def legible(pdf: Path, number: int) -> bool:
    with pymupdf.open(pdf) as doc:
        spans = [span for block in doc[number].get_text("dict")["blocks"]
                 for line in block.get("lines", ()) for span in line["spans"]]
    total = sum(len(span["text"].strip()) for span in spans)
    tiny = sum(len(span["text"].strip()) for span in spans if span["size"] < TINY_TEXT_PT)
    return total == 0 or tiny <= TINY_TEXT_SHARE * total


def one_page_pdf(pdf: Path, number: int) -> bytes:
    with pymupdf.open(pdf) as source, pymupdf.open() as page:
        page.insert_pdf(source, from_page=number, to_page=number)
        return page.tobytes(garbage=3, deflate=True)


# A margin of line numbers: at least this many bare numbers counting up by one, each its own
# line of the text layer.
LINE_NUMBER_RUN = 5
_BARE_NUMBER = re.compile(r"\s*(\d{1,5})\s*")


def without_line_numbers(text: str) -> str:
    """The text without runs of bare numbers counting up by one (a draft's line numbers)."""
    lines = text.split("\n")
    numbers = [int(m.group(1)) if (m := _BARE_NUMBER.fullmatch(line)) else None
               for line in lines]
    drop: set[int] = set()
    start = 0
    while start < len(lines):
        end = start + 1
        if numbers[start] is not None:
            while end < len(lines) and numbers[end] == numbers[end - 1] + 1:
                end += 1
            if end - start >= LINE_NUMBER_RUN:
                drop.update(range(start, end))
        start = end
    return "\n".join(line for i, line in enumerate(lines) if i not in drop)


def stream_text(pdf: bytes) -> str:
    with pymupdf.open(stream=pdf) as doc:
        return without_line_numbers(doc[0].get_text(sort=False))


def build(out: Path, count: int, seed: int, docs: Path = DOCS) -> list[dict]:
    if not docs.is_dir():
        raise FileNotFoundError(
            f"{docs} is missing; install the sample documents with "
            "`apt-get install texlive-publishers-doc` (Debian/Ubuntu)")
    out.mkdir(parents=True, exist_ok=True)
    pages = []
    for index, (pdf, number) in enumerate(choose(candidate_pages(docs), count, seed, keep=legible)):
        data = one_page_pdf(pdf, number)
        stem = f"{FAMILY}-{index:03d}"
        (out / f"{stem}.pdf").write_bytes(data)
        (out / f"{stem}.scan.jpg").write_bytes(scan(data, random.Random(seed * 7919 + index)))
        (out / f"{stem}.md").write_text(stream_text(data), encoding="utf-8")
        pages.append({"id": stem, "family": FAMILY, "source": str(pdf.relative_to(docs)),
                      "page": number + 1})
    manifest = {"count": len(pages), "seed": seed, "families": [FAMILY], "pages": pages}
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1), encoding="utf-8")
    return pages
