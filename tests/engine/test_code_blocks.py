"""Code stays code (engine/structure/code.py): a code screenshot and a born-digital listing become
one fenced block with their lines and indentation exactly as shown; prose never does; a chat's
short lines stay apart and its senders' names are no headings."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pymupdf
import pytest

from engine.options import ConvertOptions
from engine.output.content_list import content_list
from engine.structure.code import language_hint, reads_as_code
from engine.structure.paragraphs import build_blocks
from engine.types import Block, BlockKind, Box, Line, PageResult, TextSource, Word
from tools.uishots.draw import draw_chat, draw_code

PYTHON = '''import json


def load_totals(path, keys=None):
    with open(path) as handle:
        data = json.load(handle)
    if keys is None:
        return sum(data.values())
    return sum(data[k] for k in keys)'''

C_LISTING = '''#include <stdio.h>

int main(void) {
    for (int i = 0; i < 3; i++) {
        printf("%d\\n", i);
    }
    return 0;
}'''

PROSE = ("The river rose slowly through the night, and by morning the low fields beside the "
         "mill were under water. Nobody in the village could remember a flood so late in the "
         "spring, and the older farmers walked down to the bridge to watch the current carry "
         "branches and fence posts past the stone piers.")


def test_language_hint_only_where_clear():
    assert language_hint(PYTHON) == "python"
    assert language_hint(C_LISTING) == "c"
    assert language_hint("const total = items.length;\nconsole.log(total);") == "javascript"
    assert language_hint("$ ls -l\ntotal 4\n$ cd build") == ""


def _line(text: str, row: int) -> Line:
    return Line(text, Box(0, row * 20, 8 * len(text), row * 20 + 16))


def test_prose_does_not_read_as_code():
    words = PROSE.split()
    rows = [" ".join(words[i:i + 9]) for i in range(0, len(words), 9)]
    assert not reads_as_code([_line(text, n) for n, text in enumerate(rows)])
    assert reads_as_code([_line(text, n) for n, text in enumerate(PYTHON.split("\n")) if text])


def test_content_list_has_a_code_item():
    block = Block(BlockKind.CODE, Box(0, 0, 10, 10), text="x = 1\ny = 2", language="python")
    page = PageResult(1, 100, 100, 72.0, TextSource.OCR, "", blocks=(block,))
    [item] = content_list([page])
    assert item["type"] == "code" and item["code_body"] == "x = 1\ny = 2"
    assert item["guess_lang"] == "python"


def _fences(markdown: str) -> list[tuple[str, str]]:
    return re.findall(r"^```([\w+-]*)\n(.*?)\n```$", markdown, re.S | re.M)


@pytest.mark.model
@pytest.mark.parametrize("scale", [1, 2])
def test_code_screenshot_is_the_exact_fenced_block(engine, tmp_path: Path, scale: int):
    image = tmp_path / f"code@{scale}x.png"
    draw_code(PYTHON, scale=scale, dark=scale == 2).save(image)
    result = engine.convert(image, ConvertOptions())
    assert _fences(result.markdown) == [("python", PYTHON)], result.markdown
    assert [b.kind for b in result.pages[0].blocks] == [BlockKind.CODE]


@pytest.mark.model
def test_chat_screenshot_has_no_heading_and_keeps_its_lines(engine, tmp_path: Path):
    messages = [("Mira Okafor", "Are we still on for the review at three?"),
                ("Tomas Lind", "Yes, room B"), ("Mira Okafor", "Great, see you there")]
    image = tmp_path / "chat.png"
    draw_chat(messages, scale=2).save(image)
    markdown = engine.convert(image, ConvertOptions()).markdown
    assert not re.search(r"^#", markdown, re.M), markdown
    paragraphs = markdown.strip().split("\n\n")
    assert paragraphs == [text for pair in messages for text in pair], markdown


def _pdf(path: Path, prose: str, code: str | None) -> Path:
    doc = pymupdf.open()
    page = doc.new_page()
    box = pymupdf.Rect(72, 72, 520, 300)
    page.insert_textbox(box, prose, fontsize=11, fontname="helv")
    if code is not None:
        for n, text in enumerate(code.split("\n")):
            page.insert_text((72, 330 + n * 13), text, fontsize=10, fontname="cour")
    doc.save(path)
    return path


@pytest.mark.model
def test_born_digital_listing_is_a_fenced_block(engine, tmp_path: Path):
    result = engine.convert(_pdf(tmp_path / "listing.pdf", PROSE, C_LISTING), ConvertOptions())
    assert _fences(result.markdown) == [("c", C_LISTING)], result.markdown
    assert "The river rose slowly" in result.markdown


@pytest.mark.model
def test_prose_pages_have_no_code_block(engine, tmp_path: Path):
    result = engine.convert(_pdf(tmp_path / "prose.pdf", PROSE, None), ConvertOptions())
    assert "```" not in result.markdown
    scan = tmp_path / "prose.png"
    pymupdf.open(tmp_path / "prose.pdf")[0].get_pixmap(dpi=150).save(scan)
    result = engine.convert(scan, ConvertOptions())
    assert "```" not in result.markdown and "The river rose" in result.markdown


def test_word_export_sets_code_in_a_monospaced_style():
    import zipfile
    from io import BytesIO

    from engine.export.docx import build_docx
    from engine.output.markdown import render_markdown
    from engine.types import DocumentResult

    block = Block(BlockKind.CODE, Box(0, 0, 10, 10), text=PYTHON, language="python")
    page = PageResult(1, 100, 100, 72.0, TextSource.OCR, "", blocks=(block,))
    result = DocumentResult("listing.png", "png", 1, (page,), markdown=render_markdown([page]))
    data, _ = build_docx(result, None)
    with zipfile.ZipFile(BytesIO(data)) as archive:
        document = archive.read("word/document.xml").decode("utf-8")
        styles = archive.read("word/styles.xml").decode("utf-8")
    assert 'w:pStyle w:val="SourceCode"' in document
    assert 'w:styleId="SourceCode"' in styles and "VerbatimChar" in styles
    # The listing's text, its line breaks and indentation, across the highlighter's runs.
    shown = "".join("\n" if part.startswith("<w:br") else part for part in re.findall(
        r"<w:br ?/>|(?<=<w:t xml:space=\"preserve\">)[^<]*|(?<=<w:t>)[^<]*", document))
    assert PYTHON in html.unescape(shown)


def _ocr_line(text: str, row: int, x0: float = 0.0, char: float = 7.0) -> Line:
    """An OCR line with word boxes, set in type `char` pixels wide per character."""
    words, x = [], x0
    for word in text.split(" "):
        words.append(Word(word, Box(x, row * 20, x + char * len(word), row * 20 + 14)))
        x += char * (len(word) + 1)
    return Line(text, Box(x0, row * 20, x - char, row * 20 + 14), words=tuple(words))


def test_a_paragraph_running_into_the_next_splits_at_its_end_only():
    """The next paragraph's first word would have fit after "years.": the line ended there on
    purpose, so the paragraphs part there, and only there (no line of prose is kept apart)."""
    rows = ["The river rose slowly through the night and by morning the low fields",
            "beside the mill were under water for the first time in years.",
            "Nobody in the village could remember a flood so late in the spring"]
    blocks = build_blocks([_ocr_line(text, n) for n, text in enumerate(rows)])
    assert [b.text for b in blocks] == [" ".join(rows[:2]), rows[2]]
    assert all(b.kind is BlockKind.TEXT for b in blocks)


def test_short_deliberate_lines_stay_apart():
    rows = ["Mira Okafor 9:35", "It did, but the upload step took twice as long",
            "Tomas Lind 9:36", "Probably the new image sizes"]
    blocks = build_blocks([_ocr_line(text, n) for n, text in enumerate(rows)])
    assert [b.text for b in blocks] == rows


def test_a_column_of_figures_is_no_code():
    rows = ["$ 1,204.50", "(318.20)", "$ 886.30", "(12.00)", "$ 874.30"]
    assert not reads_as_code([_line(text, n) for n, text in enumerate(rows)])
