"""Inline formulas in born-digital pages: found from the text layer's glyphs, written `$...$`.

The pages are drawn at test time with PyMuPDF's base-14 fonts: text in Times, variables in
Times-Italic, symbols from the Symbol font (a math font to the rules), scripts smaller and off
the baseline, as TeX sets them."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pymupdf
import pytest

from engine.formulas.inline import spans_text, with_inline_math
from engine.formulas.glyphs import Glyph, math_runs, page_math_runs
from engine.options import ConvertOptions
from engine.types import Block, BlockKind, Box, Span

SIZE = 11.0


FONTS = {name: pymupdf.Font(name) for name in ("tiro", "tiit", "symbol")}


class Writer:
    """Writes one line of mixed text and math on a PDF page, left to right."""

    def __init__(self, page: pymupdf.Page, x: float, y: float) -> None:
        self.page, self.x, self.y = page, x, y

    def put(self, text: str, font: str = "tiro", size: float = SIZE,
            rise: float = 0.0) -> "Writer":
        writer = pymupdf.TextWriter(self.page.rect)
        writer.append((self.x, self.y - rise), text, font=FONTS[font], fontsize=size)
        writer.write_text(self.page)
        self.x += FONTS[font].text_length(text, fontsize=size)
        return self


def _math_page(path: Path) -> Path:
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    line = Writer(page, 72, 100)
    line.put("We know that ").put("x", "tiit").put("i", "tiit", 8, -2.5)
    line.put(" ").put("\u2208", "symbol").put(" ").put("R", "tiit").put(" for every ")
    line.put("i", "tiit").put(" and that the sum holds.")
    line = Writer(page, 72, 116)
    line.put("Hence ").put("\u03bb", "symbol").put("g", "tiit", 8, -2.5).put(" = ", "tiro")
    line.put("y", "tiit").put("2", "tiro", 8, 4).put(" + 1, as the reader expects.")
    line = Writer(page, 72, 132)
    line.put("A footnote mark on a word").put("3", "tiro", 8, 4).put(" stays text, and so does")
    line.put(" this sentence of plain words.")
    doc.save(path)
    return path


def _text(words: str, x: float = 0.0) -> list[Glyph]:
    """Body text around a formula, so that the line's type size is the text's."""
    return [Glyph(c, Box(x + 5 * i, 0, x + 5 * i + 5, 10), 11, 100, "Times-Roman", False)
            for i, c in enumerate(words)]


def test_glyph_geometry_makes_scripts():
    glyphs = _text("so ") + [Glyph("x", Box(15, 0, 20, 10), 11, 100, "Times-Italic", True),
              Glyph("i", Box(5, 3, 8, 12), 8, 102.5, "Times-Italic", True),
              Glyph("2", Box(8, -3, 11, 6), 8, 96, "Times-Roman", False)] + _text(" grows", 30)
    runs = math_runs(glyphs)
    assert [r.latex for r in runs] == ["x_{i}^{2}"]


def test_a_script_of_a_script_nests():
    # lambda_{g'}: the prime smaller than the subscript and raised from its baseline
    glyphs = [Glyph(c, Box(5 * i, 0, 5 * i + 5, 10), 12, 100, "Palladio", False)
              for i, c in enumerate("then ")]
    glyphs += [Glyph("\u03bb", Box(30, 0, 36, 10), 12, 100, "PazoMath-Italic", True),
               Glyph("g", Box(36, 3, 40, 12), 9, 102.6, "URWPalladioL-Ital", True),
               Glyph("\u2032", Box(40, 0, 42, 5), 7.3, 100.0, "CMSY10", False)]
    assert [run.latex for run in math_runs(glyphs)] == ["\\lambda _{g^{\\prime}}"]


def test_inline_formulas_on_a_generated_page(tmp_path):
    raw = pymupdf.open(_math_page(tmp_path / "math.pdf"))[0].get_text(
        "rawdict", flags=pymupdf.TEXT_PRESERVE_LIGATURES | pymupdf.TEXT_PRESERVE_WHITESPACE)
    latex = [run.latex for run in page_math_runs(raw)]
    assert latex == ["x_{i}\\in R", "i", "\\lambda _{g}=y^{2}+1"]


def test_a_block_gets_formula_spans_found_in_its_text():
    from engine.formulas.glyphs import MathRun
    run = MathRun([Glyph("x", Box(10, 10, 15, 20), 11, 20, "Times-Italic", True),
                   Glyph("2", Box(15, 6, 18, 14), 8, 16, "Times-Roman", False)], "x^{2}")
    block = Block(BlockKind.TEXT, Box(0, 0, 100, 30), text="so x2 grows")
    spanned = with_inline_math(block, [block], [run], 1.0)
    assert spanned.spans == (Span("so "), Span("x2", latex="x^2", box=Box(10, 6, 18, 20)),
                             Span(" grows"))
    assert spans_text(spanned) == "so $x^2$ grows"
    assert spanned.text == "so x2 grows"  # search and the searchable PDF keep the characters


@pytest.mark.model
def test_a_converted_page_writes_inline_math_and_a_plain_page_is_as_before(tmp_path, engine):
    source = _math_page(tmp_path / "math.pdf")
    on = engine.convert(str(source), ConvertOptions(output_dir=str(tmp_path / "on")))
    off = engine.convert(str(source), ConvertOptions(output_dir=str(tmp_path / "off"),
                                                              inline_math=False))
    markdown = (tmp_path / "on" / "math.md").read_text()
    assert "$x_i\\in R$" in markdown and "$\\lambda_g=y^2+1$" in markdown
    assert "word3 stays text" in markdown  # a footnote mark is not math
    assert "$" not in (tmp_path / "off" / "math.md").read_text()
    content = json.loads((tmp_path / "on" / "math_content_list.json").read_text())
    assert any("$x_i\\in R$" in entry.get("text", "") for entry in content)
    data = json.loads((tmp_path / "on" / "math.json").read_text())
    spans = [s for b in data["pages"][0]["blocks"] for s in b["spans"] if s["latex"]]
    assert {s["latex"] for s in spans} >= {"x_i\\in R", "\\lambda_g=y^2+1"}
    assert on.pages[0].blocks and off.pages[0].blocks

    # A page in fonts with no math font is read exactly as before, whatever the switch says.
    plain = tmp_path / "plain.pdf"
    doc = pymupdf.open()
    Writer(doc.new_page(), 72, 100).put("Plain words in Times, x and y in italic: ").put(
        "x", "tiit").put(" and ").put("y", "tiit").put(".")
    doc.save(plain)
    engine.convert(str(plain), ConvertOptions(output_dir=str(tmp_path / "p_on")))
    engine.convert(str(plain), ConvertOptions(output_dir=str(tmp_path / "p_off"),
                                                       inline_math=False))
    assert (tmp_path / "p_on" / "plain.md").read_bytes() == (
        tmp_path / "p_off" / "plain.md").read_bytes()


def test_a_symbol_font_bullet_or_a_lone_arrow_is_no_formula():
    bullet = [Glyph("\u00b7", Box(0, 0, 4, 10), 11, 100, "Symbol", False)] + _text(" milk", 10)
    arrow = _text("in ") + [Glyph("\u2192", Box(20, 0, 30, 10), 11, 100, "CMSY10", False)] + \
        _text(" out", 30)
    assert math_runs(bullet) == [] and math_runs(arrow) == []
    signed = _text("by ") + [Glyph("\u00b1", Box(20, 0, 26, 10), 11, 100, "CMSY10", False),
                             Glyph("1", Box(26, 0, 31, 10), 11, 100, "CMR10", False),
                             Glyph("0", Box(31, 0, 36, 10), 11, 100, "CMR10", False)]
    assert [run.latex for run in math_runs(signed)] == ["\\pm 10"]


@pytest.mark.model
def test_word_gets_inline_equations_and_money_stays_text(tmp_path, engine):
    import zipfile

    from engine.formats import OutputFormat

    source = _math_page(tmp_path / "math.pdf")
    doc = pymupdf.open(source)
    Writer(doc[0], 72, 160).put("It cost $5 and then $6 more, which is money, not math.")
    doc.save(tmp_path / "money.pdf")
    engine.convert(str(tmp_path / "money.pdf"),
                   ConvertOptions(output_dir=str(tmp_path / "out"), exports=(OutputFormat.DOCX,)))
    markdown = (tmp_path / "out" / "money.md").read_text()
    assert "\\$5 and then \\$6" in markdown
    xml = zipfile.ZipFile(tmp_path / "out" / "money.docx").read("word/document.xml").decode()
    inline = xml.replace("<m:oMathPara>", "\0").split("\0")[0].count("<m:oMath>")
    assert inline >= 2  # x_i in R, lambda_g = y^2 + 1: equations inside their paragraphs
    assert "$5 and then $6 more" in "".join(re.findall(r"<w:t[^>]*>([^<]*)</w:t>", xml))


def test_a_one_letter_formula_is_found_as_a_word_not_inside_one():
    from engine.formulas.glyphs import MathRun
    run = MathRun([Glyph("t", Box(40, 10, 44, 20), 11, 20, "CMMI10", True)], "t")
    block = Block(BlockKind.TEXT, Box(0, 0, 100, 30), text="after t seconds")
    assert spans_text(with_inline_math(block, [block], [run], 1.0)) == "after $t$ seconds"
    # where the text layer lost the spaces around it, it is found all the same
    glued = Block(BlockKind.TEXT, Box(0, 0, 100, 30), text="sotgrows")
    assert spans_text(with_inline_math(glued, [glued], [run], 1.0)) == "so$t$grows"


def _line(text: str, x0: float, baseline: float, size: float, font: str) -> dict:
    """One line of PyMuPDF's rawdict: glyphs 5 points wide from x0."""
    chars = [{"c": c, "bbox": (x0 + 5 * i, baseline - size, x0 + 5 * i + 5, baseline),
              "origin": (x0 + 5 * i, baseline)} for i, c in enumerate(text)]
    return {"bbox": (x0, baseline - size, x0 + 5 * len(text), baseline + 0.25 * size),
            "dir": (1, 0), "spans": [{"font": font, "size": size, "flags": 0, "chars": chars}]}


def test_a_stacked_fraction_is_a_frac_and_a_sums_limits_its_scripts():
    # "so w = 2pi/T grows": the numerator raised on the line, its denominator lowered under it
    # in a line of its own, as TeX's text-style fractions reach the text layer.
    main = _line("so ", 50, 100, 11, "Times-Roman")
    main["spans"] += _line("w", 65, 100, 11, "CMMI10")["spans"]
    main["spans"] += _line(" = ", 70, 100, 11, "CMR10")["spans"]
    main["spans"] += _line("2p", 85, 96, 8, "CMMI8")["spans"]
    main["spans"] += _line(" grows", 100, 100, 11, "CMR10")["spans"]
    main["bbox"] = (50, 89, 130, 103)
    denominator = _line("T", 87, 104, 8, "CMMI8")
    raw = {"blocks": [{"type": 0, "lines": [main]}, {"type": 0, "lines": [denominator]}]}
    assert [run.latex for run in page_math_runs(raw)] == ["w=\\frac{2p}{T}"]

    # After a sum the same stacked pair is its limits.
    total = [Glyph("\u2211", Box(30, 0, 38, 10), 11, 100, "CMEX10", False),
             Glyph("n", Box(38, 4, 42, 12), 8, 104, "CMMI8", True),
             Glyph("k", Box(38, -4, 42, 4), 8, 96, "CMMI8", True)]
    assert [run.latex for run in math_runs(_text("so ") + total + _text(" is", 50))] == [
        "\\sum _{n}^{k}"]


def test_a_denominator_the_text_gives_apart_is_taken_into_the_formula():
    from engine.formulas.glyphs import MathRun
    glyphs = [Glyph("w", Box(10, 10, 15, 20), 11, 20, "CMMI10", True),
              Glyph("=", Box(17, 10, 22, 20), 11, 20, "CMR10", False),
              Glyph("2", Box(24, 6, 28, 14), 8, 16, "CMR8", False),
              Glyph("T", Box(24, 16, 28, 24), 8, 24, "CMMI8", True, line=1)]
    run = MathRun(glyphs, "w=\\frac{2}{T}")
    block = Block(BlockKind.TEXT, Box(0, 0, 100, 30), text="so w = 2 grows. T")
    spanned = with_inline_math(block, [block], [run], 1.0)
    assert spans_text(spanned) == "so $w=\\frac{2}{T}$ grows."
    assert spanned.text == "so w = 2 T grows."


def test_factorials_vectors_and_a_bracket_after_the_formula():
    letter = [Glyph("n", Box(30, 0, 35, 10), 11, 100, "CMMI10", True),
              Glyph("!", Box(35, 0, 38, 10), 11, 100, "CMR10", False)]
    assert [r.latex for r in math_runs(_text("so ") + letter + _text(" is", 40))] == ["n!"]
    arrow = [Glyph("\u20d7", Box(30, -2, 35, 3), 11, 100, "CMMI10", False),
             Glyph("e", Box(30, 0, 35, 10), 11, 100, "CMMI10", True)]
    assert [r.latex for r in math_runs(_text("so ") + arrow + _text(" is", 40))] == [
        "\\vec{e}"]
    call = [Glyph(c, Box(30 + 5 * i, 0, 35 + 5 * i, 10), 11, 100,
                  "CMMI10" if c.isalpha() else "CMR10", c.isalpha()) for i, c in enumerate("g(x)")]
    after = [Glyph(c, Box(55 + 5 * i, 0, 60 + 5 * i, 10), 11, 100, "Times-Roman", False)
             for i, c in enumerate(" (done")]
    assert [r.latex for r in math_runs(_text("so ") + call + after)] == ["g(x)"]


def test_blackboard_calligraphic_negated_and_ellipsis_glyphs():
    def math(text: str, font: str, x: float) -> list[Glyph]:
        return [Glyph(c, Box(x + 5 * i, 0, x + 5 * i + 5, 10), 11, 100, font, font == "CMMI10")
                for i, c in enumerate(text)]

    glyphs = (_text("so ") + math("i", "CMMI10", 20) + math("\u2208", "CMSY10", 25)
              + math("R", "MSBM10", 30) + _text(" and ", 35) + math("A", "CMSY10", 60)
              + _text(" and ", 65) + math("a", "CMMI10", 90) + math("\u0338=", "CMSY10", 95)
              + math("b", "CMMI10", 105) + _text(" or ", 110) + math("j", "CMMI10", 130)
              + math("=1,", "CMR10", 135) + math("...", "CMMI10", 150) + _text(" and ", 165)
              + math("f", "CMMI10", 190) + math(":=", "CMR10", 195) + math("g", "CMMI10", 205)
              + _text(" end", 210))
    assert [run.latex for run in math_runs(glyphs)] == [
        "i\\in \\mathbb{R}", "\\mathcal{A}", "a\\neq b", "j=1,\\ldots", "f:=g"]
