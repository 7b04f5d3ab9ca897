"""The real-page check of the structure set (tools/structure/published.py): two-column pages
found in a folder of PDFs, a couple per document, written in the generated set's shape with
the text in the order the PDF holds it as truth."""

from __future__ import annotations

import json

import pymupdf
import pytest

from tools.structure.published import build, candidate_pages, choose, legible, two_column

WORDS = ("the column of running text goes on with words that a reader reads in order " * 3)


def draw(path, pages: list[str], size: float = 9) -> None:
    """Pages of "two" columns (two long paragraphs in each half) or "one" wide column."""
    with pymupdf.open() as doc:
        for kind in pages:
            page = doc.new_page(width=612, height=792)
            if kind == "two":
                for k, (x0, y0) in enumerate([(50, 60), (50, 400), (320, 60), (320, 400)]):
                    page.insert_textbox(pymupdf.Rect(x0, y0, x0 + 240, y0 + 300),
                                        f"Part {k}: {WORDS}", fontsize=size)
            else:
                page.insert_textbox(pymupdf.Rect(50, 60, 560, 700), WORDS * 3, fontsize=size)
        doc.save(path)


@pytest.fixture
def docs(tmp_path):
    folder = tmp_path / "docs"
    (folder / "latex" / "a").mkdir(parents=True)
    (folder / "latex" / "b").mkdir()
    draw(folder / "latex" / "a" / "guide.pdf", ["one", "two", "two", "two", "one"])
    draw(folder / "latex" / "b" / "sample.pdf", ["two"])
    (folder / "latex" / "b" / "broken.pdf").write_bytes(b"%PDF-1.4 not really")
    return folder


def test_two_column_pages_are_found_and_one_column_pages_and_damaged_files_are_not(docs):
    found = candidate_pages(docs)
    assert [(p.name, n) for p, n in found] == [("guide.pdf", 1), ("guide.pdf", 2),
                                              ("guide.pdf", 3), ("sample.pdf", 0)]
    with pymupdf.open(docs / "latex" / "a" / "guide.pdf") as doc:
        assert not two_column(doc[0]) and two_column(doc[1])


def test_no_document_gives_more_than_its_share_and_the_choice_is_reproducible(docs):
    found = candidate_pages(docs)
    picked = choose(found, 10, seed=4)
    assert sum(1 for p, _n in picked if p.name == "guide.pdf") == 2
    assert picked == choose(found, 10, seed=4) and len(choose(found, 1, seed=4)) == 1


def test_the_set_has_the_generated_shape_and_the_pdf_order_as_truth(docs, tmp_path):
    out = tmp_path / "set"
    pages = build(out, 3, seed=1, docs=docs)
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["count"] == len(pages) == 3 and manifest["families"] == ["published"]
    for page in pages:
        truth = (out / f"{page['id']}.md").read_text()
        assert [truth.index(f"Part {k}:") for k in range(4)] == sorted(
            truth.index(f"Part {k}:") for k in range(4))
        with pymupdf.open(out / f"{page['id']}.pdf") as doc:
            assert doc.page_count == 1
        assert (out / f"{page['id']}.scan.jpg").read_bytes()[:2] == b"\xff\xd8"


def test_a_missing_package_says_how_to_install_it(tmp_path):
    with pytest.raises(FileNotFoundError, match="apt-get install texlive-publishers-doc"):
        build(tmp_path / "set", 3, seed=1, docs=tmp_path / "nothing")


def test_a_drafts_line_numbers_are_not_in_the_truth_and_other_numbers_are():
    from tools.structure.published import without_line_numbers

    text = "\n".join(["Draft", *map(str, range(349, 360)), "Table 2", "100", "300", "400",
                      "12", "13", "some text", "7"])
    assert without_line_numbers(text).split("\n") == [
        "Draft", "Table 2", "100", "300", "400", "12", "13", "some text", "7"]


def test_pages_of_page_thumbnails_are_passed_over(tmp_path):
    draw(tmp_path / "normal.pdf", ["two"])
    draw(tmp_path / "thumbnails.pdf", ["two"], size=3)
    assert legible(tmp_path / "normal.pdf", 0) and not legible(tmp_path / "thumbnails.pdf", 0)
    found = [(tmp_path / "normal.pdf", 0), (tmp_path / "thumbnails.pdf", 0)]
    assert choose(found, 5, seed=1, keep=legible) == [(tmp_path / "normal.pdf", 0)]
