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
    from engine.formulas.inline_prose import without_prose
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


def test_prose_the_ocr_glued_to_a_formula_leaves_it():
    from engine.formulas.inline_ocr import without_prose

    def pieces(text: str) -> list[str]:
        return [" ".join(w.text for w in piece) for piece in without_prose(_line(text).words)]

    assert pieces("strongly∫∂u P dx") == ["∫∂u P dx"]
    assert pieces("Mx,x0is") == ["Mx,x0"]
    assert pieces("α ∈ k′another") == ["α ∈ k′"]
    assert pieces("mλ/d = sinθ (the") == ["mλ/d = sinθ"]
    assert pieces("sinθ + (1-x)dx") == ["sinθ + (1-x)dx"]  # a function's name, a differential
    assert pieces("2xy = sin(x)") == ["2xy = sin(x)"]


def test_a_glued_word_leaves_the_span_box_and_the_text_around_it_stays():
    from engine.formulas.inline_ocr import without_prose

    word = Word("x0is", Box(0, 0, 40, 12), 0.9)
    (piece,) = without_prose((word,))
    assert piece[0].text == "x0" and piece[0].box == Box(0, 0, 20, 12)
    line = Line("then x0is not", Box(0, 0, 100, 12), words=(
        Word("then", Box(0, 0, 30, 12)), Word("x0is", Box(40, 0, 80, 12)),
        Word("not", Box(85, 0, 100, 12))))
    block = Block(BlockKind.TEXT, line.box, lines=(line,), text=line.text)
    spanned = _with_spans(block, [(piece, Box(40, 0, 60, 12), "x_{0}", 0.9)])
    assert spans_text(spanned) == "then $x_{0}$is not"


def test_a_function_name_between_math_words_joins_them():
    from engine.formulas.inline_ocr import classified_runs

    line = _line("is d + x = 2 cos t a line")
    chances = [0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.1, 1.0, 0.0, 0.0]
    assert [" ".join(w.text for w in run) for run in classified_runs(line, chances, True)] \
        == ["d + x = 2 cos t"]


def test_the_formula_model_reads_the_ink_rows_of_a_span_down_to_a_blank_row():
    from dataclasses import replace

    import numpy as np

    from engine.formulas.inline_ocr import _crop_box
    from engine.formulas.inline_rules import INLINE_SPANS

    image = np.full((80, 100), 255, np.uint8)
    image[20:31, 10:60] = 0  # the words the OCR boxed
    image[12:20, 30:40] = 0  # a numerator above them, touching
    image[31:38, 30:40] = 0  # a denominator below
    image[44:56, 10:90] = 0  # the next line, a blank row away
    line = Line("x", Box(0, 8, 100, 50), words=(Word("x", Box(10, 20, 60, 31)),))
    page = PageState(None, 0, None, image=image)
    box = _crop_box(page, Box(10, 20, 60, 31), line.words, line, 0.0, INLINE_SPANS)
    assert (box.y0, box.y1) == (12, 38)
    words_only = replace(INLINE_SPANS, crop_rows="words")
    assert (_crop_box(page, Box(10, 20, 60, 31), line.words, line, 0.0, words_only).y0) == 20


def test_a_doubtful_word_beside_a_formula_grows_it_and_prose_does_not():
    from engine.formulas.inline_ocr import classified_runs

    line = _line("make the I = 1 Mb2 tty the")
    chances = [0.0, 0.1, 1.0, 1.0, 1.0, 0.51, 0.01, 0.06]
    assert [" ".join(w.text for w in run) for run in classified_runs(line, chances, True)] \
        == ["I = 1 Mb2"]
    assert [" ".join(w.text for w in run) for run in classified_runs(
        line, [0.0, 0.1, 1.0, 1.0, 1.0, 0.2, 0.01, 0.06], True)] == ["I = 1"]


def test_a_quantity_symbol_at_a_formulas_end_is_not_trimmed_as_an_operator():
    from engine.formulas.inline_ocr import classified_runs

    line = _line("idea of R = ∞ Buffered")
    runs = classified_runs(line, [0.0, 0.0, 1.0, 1.0, 1.0, 0.0], True)
    assert [" ".join(w.text for w in run) for run in runs] == ["R = ∞"]
    assert [" ".join(w.text for w in run) for run in classified_runs(
        _line("so g = then"), [0.0, 1.0, 1.0, 0.0], True)] == []  # "g" alone once "=" goes


def test_a_span_whose_words_the_block_text_writes_without_spaces_is_kept():
    line = Line("with 〈 u|u 〉 one", Box(0, 0, 100, 12), words=tuple(
        Word(t, Box(10 * i, 0, 10 * i + 8, 12)) for i, t in enumerate(
            ["with", "〈", "u|u", "〉", "one"])))
    block = Block(BlockKind.TEXT, line.box, lines=(line,), text="with 〈u|u〉 one")
    spanned = _with_spans(block, [(line.words[1:4], Box(10, 0, 38, 12), "\\langle u|u\\rangle",
                                   0.9)])
    assert spans_text(spanned) == "with $\\langle u|u\\rangle$ one"


def test_a_formula_the_ocr_cut_between_two_lines_at_a_sign_is_one_span():
    first, second = _line("error [x0 -"), _line("h,x0] handling")
    block = Block(BlockKind.TEXT, Box(0, 0, 40, 24), lines=(first, second),
                  text="error [x0 - h,x0] handling")
    page = PageState(None, 0, None, blocks=(block,))
    import engine.formulas.inline_ocr as inline_ocr

    spans = [[0, first.words[1:], Box(10, 0, 28, 12), "[x_{0}-", 0.9, first],
             [0, second.words[:1], Box(0, 0, 8, 12), "h,x_{0}]", 0.8, second]]
    (joined,) = inline_ocr._across_lines(spans, [first, second])
    assert [w.text for w in joined[1]] == ["[x0", "-", "h,x0]"]
    assert joined[3] == "[x_0-h,x_0]" and joined[2] == Box(0, 0, 28, 12)
    spanned = _with_spans(page.blocks[0], [tuple(joined[1:5])])
    assert spans_text(spanned) == "error $[x_0-h,x_0]$ handling"
    apart = [[0, first.words[1:2], Box(10, 0, 18, 12), "[x_{0}", 0.9, first], spans[1]]
    assert len(inline_ocr._across_lines(apart, [first, second])) == 2  # no sign at the cut


def test_the_models_negations_are_written_with_their_own_symbols():
    from engine.formulas.inline_ocr import _NEGATED, _NEGATIONS

    def canon(latex: str) -> str:
        return _NEGATED.sub(lambda m: _NEGATIONS[m.group(1) or m.group(2)], latex)

    assert canon("k\\not{=}j") == "k\\neq j" and canon("k\\not=j") == "k\\neq j"
    assert canon("x\\not\\in A").startswith("x\\notin")
    assert canon("a\\not\\infty") == "a\\not\\infty"


def test_a_word_in_quotation_marks_is_not_a_formula_alone():
    from engine.formulas.inline_prose import prose_word

    assert prose_word('"rt"') and prose_word("\u201cxt\u201d") and not prose_word("x_t")


def test_chinese_writing_is_never_part_of_a_formula_whatever_the_classifier_says():
    from engine.formulas.inline_ocr import classified_runs

    line = _line("数据的结束可以用一个 x = 1 如果")
    runs = classified_runs(line, [0.9, 1.0, 1.0, 1.0, 0.4], True)
    assert [" ".join(w.text for w in run) for run in runs] == ["x = 1"]
