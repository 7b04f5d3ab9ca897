"""Inline formulas in OCR lines: candidate words by the characters the recogniser read, their
LaTeX from those characters, the block's text cut around them."""

from __future__ import annotations

from engine.formulas.inline_ocr import _with_spans, find_ocr_inline_math, line_candidates, \
    word_latex
from engine.formulas.inline import spans_text
from engine.page import PageState
from engine.types import Block, BlockKind, Box, Line, Span, Word


def _line(text: str) -> Line:
    words = tuple(Word(w, Box(10 * i, 0, 10 * i + 8, 12), 0.9) for i, w in enumerate(text.split()))
    return Line(text, Box(0, 0, 10 * len(words), 12), words=words)


def _texts(line: Line) -> list[str]:
    return [" ".join(w.text for w in run) for run in line_candidates(line)]


def test_math_characters_start_a_formula_and_short_neighbours_join_it():
    assert _texts(_line("instantiating a N1 → N1 ⊕ N2 PurePath should")) == ["N1 → N1 ⊕ N2"]
    assert _texts(_line("checkers should ω = 2π treat the two")) == ["ω = 2π"]
    assert _texts(_line("a bottom type, a cos(z) type")) == ["cos(z)"]
    assert _texts(_line("the ball B(y, δ) is open")) == ["B(y, δ)"]
    assert _texts(_line("so g = rf holds")) == ["g = rf"]


def test_plain_text_numbers_and_lone_signs_stay_text():
    assert _texts(_line("In Python 3.11, the encode(). a I or A")) == []
    assert _texts(_line("it costs 5 = five dollars")) == []  # a sign with nothing math beside it
    assert _texts(_line("we write = here")) == []


def test_greek_prose_and_language_names_are_not_math():
    assert _texts(_line("Η Ελλάδα είναι χώρα με 2 = δύο")) == []
    assert _texts(_line("the word λόγος means ω = 2π here")) == ["ω = 2π"]
    assert _texts(_line("written in C++ and C# daily")) == []


def test_letter_and_number_shapes_count_only_on_a_page_with_math():
    plain = _line("print it on A4 paper with f(x) margins")
    assert _texts(plain) == ["A4", "f(x)"]
    assert [" ".join(w.text for w in run) for run in line_candidates(plain, False)] == []


def test_a_page_without_math_characters_keeps_its_text():
    line = _line("print it on A4 paper in Q3")
    block = Block(BlockKind.TEXT, line.box, lines=(line,), text=line.text)
    page = PageState(None, 0, None, blocks=(block,))
    assert find_ocr_inline_math(page, None).blocks == (block,)


def test_a_words_latex_from_its_characters():
    assert word_latex("N1") == "N_{1}"
    assert word_latex("cos(z)") == "\\cos(z)"
    assert word_latex("2π") == "2\\pi"
    assert word_latex("⊕") == "\\oplus"


def test_a_kept_span_replaces_its_words_in_the_block_text():
    line = _line("checkers should ω = 2π treat")
    run = line_candidates(line)[0]
    block = Block(BlockKind.TEXT, line.box, lines=(line,), text=line.text)
    spanned = _with_spans(block, [(run, Box(20, 0, 48, 12), "\\omega=2\\pi", 0.9)])
    assert spans_text(spanned) == "checkers should $\\omega=2\\pi$ treat"
    assert spanned.spans[1] == Span("ω = 2π", latex="\\omega=2\\pi", box=Box(20, 0, 48, 12),
                                    score=0.9)


def test_prose_shapes_are_cut_out_of_a_found_run_and_formulas_kept():
    from engine.formulas.inline_ocr import without_prose

    def pieces(text: str) -> list[str]:
        return [" ".join(w.text for w in piece) for piece in without_prose(_line(text).words)]

    assert pieces("(enc=6, dec=6, heads=8) ran 2x") == []
    assert pieces("(395k") == [] and pieces("10%") == [] and pieces("1,5") == []
    assert pieces("2x + 1") == ["2x + 1"]
    assert pieces("(2, -5, 2)") == ["(2, -5, 2)"]
    assert pieces("dropout=0.1, x = 2") == ["x = 2"]
    assert pieces("sin=0.5") == ["sin=0.5"]  # a function's name is not a setting's


def test_an_inline_span_rules_variant_reaches_the_ocr_spans_and_the_inline_stage():
    """`InlineSpanRules` (engine/formulas/inline_rules.py) is used by inline_ocr.py and handed
    on by the inline stage (inline.py): a span's box reaches `pad` line heights past its words,
    and the prose shapes cut out of a run are `prose_runs`; tools/mathset/choose_spans.py
    builds its variants the same way."""
    from dataclasses import replace

    import numpy as np

    from engine.formulas.inline import find_inline_math
    from engine.formulas.inline_ocr import without_prose
    from engine.formulas.inline_rules import INLINE_SPANS
    from engine.options import ConvertOptions
    from engine.types import TextSource
    from tools.mathset.choose_spans import variant

    plain = replace(INLINE_SPANS, span_source="rules", latex_from="characters")
    tight = replace(plain, pad=0.0)
    line = _line("checkers should ω = 2π treat")
    block = Block(BlockKind.TEXT, line.box, lines=(line,), text=line.text)
    page = PageState(None, 1, ConvertOptions(inline_math=True), image=np.zeros((20, 80, 3),
                     np.uint8), blocks=(block,), text_source=TextSource.OCR)
    for find in (find_ocr_inline_math, find_inline_math):
        padded = find(page, None, plain).blocks[0].spans[1].box
        assert (padded.x0, padded.x1) == (20 - 0.2 * 12, 48 + 0.2 * 12)
        assert find(page, None, tight).blocks[0].spans[1].box == Box(20, 0, 48, 12)
    run = _line("ran 2x").words
    assert without_prose(run) == []
    assert [w.text for w in without_prose(run, replace(INLINE_SPANS, prose_runs=()))[0]] == [
        "ran", "2x"]
    assert variant("rules", "model", 0.4, ("words",)) == replace(
        INLINE_SPANS, span_source="rules", latex_from="model", threshold=0.4,
        prose_runs=("words",))
