"""Line-end hyphens: a compound's own kept, a word broken in two mended (engine/structure/hyphens.py)."""

from __future__ import annotations

import gzip
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import msgpack
import pytest

from engine.structure.hyphens import (WordListError, WordLists, compound_judge, mend_block,
                                      mend_hyphens, read_word_list)
from engine.structure.paragraphs import join_lines
from engine.output.markdown import render_markdown
from engine.types import Block, BlockKind, Box, Line, PageResult, TextSource

# Bands as in wordfreq's lists (centibels: 0 the most frequent word).
ENGLISH = {"the": 100, "well": 297, "known": 361, "inter": 484, "national": 349,
           "international": 300, "any": 293, "one": 253, "anyone": 362, "whole": 354,
           "ness": 540, "rule": 380, "of": 120, "trade": 390, "is": 150, "and": 110, "a": 130}
RUSSIAN = {"из": 223, "за": 231, "изза": 582, "города": 330, "он": 200, "пришёл": 420,
           "the": 450}
GERMAN = {"die": 150, "haus": 330, "tür": 420, "er": 200, "hat": 220, "geöffnet": 450}


def lists() -> WordLists:
    return WordLists({"en": ENGLISH, "ru": RUSSIAN, "de": GERMAN})


def test_without_word_lists_a_line_end_hyphen_is_a_word_broken_in_two():
    assert join_lines(["the well-", "known rule"]) == "the wellknown rule"


def test_a_compound_s_hyphen_is_kept_and_a_broken_word_mended():
    keeps = compound_judge(ENGLISH)
    assert join_lines(["the well-", "known rule of inter-", "national trade"], keeps) == (
        "the well-known rule of international trade")


def test_two_words_written_as_a_common_one_are_joined():
    # "anyone" is rarer than "any" by 0.7 orders of magnitude, not two: one word.
    assert join_lines(["and any-", "one"], compound_judge(ENGLISH)) == "and anyone"


def test_a_rare_suffix_the_list_knows_is_no_word_of_a_compound():
    assert join_lines(["the whole-", "ness"], compound_judge(ENGLISH)) == "the wholeness"


def test_a_joined_form_far_rarer_than_its_halves_keeps_the_hyphen():
    assert join_lines(["Он пришёл из-", "за города"], compound_judge(RUSSIAN)) == (
        "Он пришёл из-за города")


def test_a_paragraph_s_language_is_the_list_that_knows_its_words_best():
    # The Russian list knows "the" too, as web text does, only far rarer.
    assert lists().language_of("the well known rule of the trade") == "en"
    assert lists().language_of("Он пришёл из за города") == "ru"
    assert lists().language_of("qwx zzv kkp") is None


def _block(texts: list[str], text: str | None = None) -> Block:
    lines = tuple(Line(t, Box(0, 20 * i, 300, 20 * i + 18)) for i, t in enumerate(texts))
    return Block(BlockKind.TEXT, Box(0, 0, 300, 20 * len(texts)), lines,
                 join_lines(texts) if text is None else text, 1.0)


def test_a_block_is_joined_again_in_its_language():
    block = _block(["the well-", "known rule of inter-", "national trade"])
    assert block.text == "the wellknown rule of international trade"
    assert mend_block(block, lists()).text == "the well-known rule of international trade"


def test_a_german_block_keeps_its_words_mended():
    block = _block(["Er hat die Haus-", "tür geöffnet"])
    assert mend_block(block, lists()) is block


def test_a_block_whose_text_a_step_wrote_otherwise_is_left_as_it_is():
    block = _block(["the well-", "known rule"], text="the wellknown rule (a step's own text)")
    assert mend_block(block, lists()) is block


def test_a_page_without_line_end_hyphens_does_not_load_the_lists():
    class NoLists:
        def word_lists(self):
            raise AssertionError("word lists loaded for a page without hyphens")

    page = SimpleNamespace(blocks=(_block(["a plain", "paragraph"]),))
    assert mend_hyphens(page, NoLists()) is page


def test_a_wordfreq_list_is_read_with_each_word_s_band(tmp_path: Path):
    path = tmp_path / "small_xx.msgpack.gz"
    path.write_bytes(gzip.compress(msgpack.packb([{"format": "cB", "version": 1},
                                                  ["the"], [], ["known", "well"]])))
    assert read_word_list(path) == {"the": 0, "known": 2, "well": 2}


@pytest.mark.parametrize("payload", [b"not gzip at all",
                                     gzip.compress(b"\xc1\xc1\xc1"),
                                     gzip.compress(msgpack.packb([{"format": "other"}]))])
def test_a_file_that_is_no_word_list_is_refused_by_name(tmp_path: Path, payload: bytes):
    path = tmp_path / "small_xx.msgpack.gz"
    path.write_bytes(payload)
    with pytest.raises(WordListError, match="small_xx.msgpack.gz"):
        read_word_list(path)


def _page(blocks: list[Block], number: int = 1) -> PageResult:
    return PageResult(number, 1000, 1400, 72.0, TextSource.OCR, "image input",
                      blocks=tuple(blocks))


def test_a_paragraph_going_on_in_the_next_column_keeps_its_compound_s_hyphen():
    first = _block(["It is the rule of the trade and the well-"])
    second = _block(["known rule of trade"])
    pages = [_page([first, second])]
    assert "the wellknown rule" in render_markdown(pages)
    assert "the well-known rule" in render_markdown(pages, word_lists=lists)


def test_markdown_loads_the_word_lists_only_for_a_hyphen():
    def never():
        raise AssertionError("word lists loaded without a hyphen to judge")

    pages = [_page([replace(_block(["It is the rule of the trade and"]),
                            text="It is the rule of the trade and"), _block(["known rules"])])]
    assert "and known rules" in render_markdown(pages, word_lists=never)


@pytest.mark.model
def test_a_bulgarian_compound_cut_at_a_line_s_end_keeps_its_hyphen(engine, tmp_path: Path):
    """The scripts set's two-column Bulgarian page ends its first line "най-" before
    "големият" ("the largest"); read as a word broken in two it was "найголемият"."""
    pytest.importorskip("tesserocr")
    import cv2

    from engine.options import ConvertOptions
    from tools.scripts.pages import FontMissing, page_pdf, render, two_column_sample
    from tools.scripts.texts import SAMPLES

    sample = two_column_sample(next(s for s in SAMPLES if s.key == "bulgarian"))
    try:
        image = render(page_pdf(sample, columns=2), 200)
    except FontMissing as missing:
        # The Noto fonts come with make test's system packages (tools/system_deps.sh), so CI
        # never takes this; a machine without them cannot draw the page at all.
        pytest.skip(str(missing))
    path = tmp_path / "bulgarian.png"
    cv2.imwrite(str(path), cv2.cvtColor(image, cv2.COLOR_RGB2BGR))
    markdown = engine.convert(path, ConvertOptions()).markdown
    assert "столицата и най-големият град" in markdown, markdown
