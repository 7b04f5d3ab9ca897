"""engine.text: the East Asian character classes the stages share."""

from __future__ import annotations

import pytest

from engine.structure.paragraphs import join_lines
from engine.text import has_cjk, joins_unspaced


@pytest.mark.parametrize(("text", "cjk"), [
    ("中文", True), ("ひらがな", True), ("カタカナ", True), ("한국어", True), ("丽", True),
    ("㐀", True), ("x = a + b", False), ("f（x）＝１", False), ("。、「」", False), ("", False),
])
def test_has_cjk_finds_chinese_japanese_and_korean_letters(text, cjk):
    # Fullwidth forms and CJK punctuation alone are no CJK writing: OCR of a formula gives them.
    assert has_cjk(text) is cjk


@pytest.mark.parametrize(("char", "unspaced"), [
    ("中", True), ("の", True), ("ア", True), ("。", True), ("（", True), ("Ａ", True),
    ("丽", True), ("한", False), ("a", False), ("1", False), (" ", False), ("-", False),
])
def test_joins_unspaced_is_chinese_and_japanese_writing_not_korean(char, unspaced):
    assert joins_unspaced(char) is unspaced


def test_join_lines_keeps_the_space_between_korean_lines():
    assert join_lines(["日本語の", "テキスト。"]) == "日本語のテキスト。"
    assert join_lines(["한국어", "문장"]) == "한국어 문장"
