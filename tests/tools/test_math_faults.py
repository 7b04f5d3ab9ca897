"""The display-math fault checker every evaluation run uses (tools/eval/math_faults.py): each
fault found on small typed results and on their document JSON, none on clean ones."""

from __future__ import annotations

import pytest

from engine.content.formulas import Formula
from engine.output.document_json import document_json
from engine.types import Block, BlockKind, Box, DocumentResult, PageResult, Span, TextSource
from tools.eval.math_faults import (
    DUPLICATE,
    LABEL_IN_LATEX,
    NUMBER_ALONE,
    FaultTally,
    math_faults,
    starts_with_label,
)


def _formula(latex: str, y: float) -> Block:
    return Block(BlockKind.FORMULA, Box(100, y, 500, y + 40), formula=Formula(latex))


def _text(text: str, y: float, kind: BlockKind = BlockKind.TEXT) -> Block:
    return Block(kind, Box(100, y, 500, y + 20), text=text)


def _document(*pages: tuple[Block, ...]) -> DocumentResult:
    return DocumentResult("paper.pdf", "pdf", len(pages), tuple(
        PageResult(number, 1000, 1400, 144.0, TextSource.OCR, "", blocks)
        for number, blocks in enumerate(pages, start=1)))


CLEAN = _document(
    (_text("The energy is", 10), _formula(r"E = mc^2 \tag{1}", 40),
     _text("and, numbered apart, the same relation again", 90),
     _formula(r"E = m c ^ { 2 }\tag{4}", 120),
     _text("Equation (3) shows it; see [4] and the list:", 170),
     _formula(r"(a)_n = a(a+1)\cdots(a+n-1)", 200), _formula(r"1.5x + 2) ", 250),
     _formula(r"(1) + (2) = 3", 300),
     _formula(r"\begin{aligned} x &= 1 \tag{5}\\ (a)_n &= 2 \end{aligned}", 320),
     Block(BlockKind.TEXT, Box(100, 350, 500, 370), text="where x = 1 holds",
           spans=(Span("where "), Span("x = 1", latex="x = 1"), Span(" holds"))),
     _text("(3)", 1380, BlockKind.FOOTER)),
    (_formula(r"E = mc^2", 40),),  # the same reading on another page is no fault
)


def _kinds(document) -> list[tuple[str, int, int]]:
    return [(f.kind, f.page, f.block) for f in math_faults(document)]


@pytest.mark.parametrize("as_json", [False, True], ids=["typed", "json"])
def test_a_clean_document_has_no_fault(as_json):
    assert _kinds(document_json(CLEAN) if as_json else CLEAN) == []


@pytest.mark.parametrize("as_json", [False, True], ids=["typed", "json"])
def test_each_kind_of_fault_is_found_with_its_page_and_block(as_json):
    faulty = _document(
        (_text("Intro", 10),),
        (_formula(r"\frac{a}{b} = c \tag{13}", 40),  # read twice: with and without its tag
         _formula(r"\frac a b=c", 90),
         _text("(15)", 140), _text("[4]", 170), _text("(2.1)", 200, BlockKind.LIST_ITEM),
         _formula(r"\mathrm{(A.1)}", 230),
         _formula(r"150. \quad s(t) = 2t^3 - 3t^2", 280),
         _formula(r"(a)\ x = 1", 330), _formula(r"2) y = x^2", 380),
         Block(BlockKind.TEXT, Box(100, 430, 500, 450), text="1. y = 2",
               spans=(Span("1. y = 2", latex="1. y = 2"),)),
         # An exercise list read as one array, each row opening with its number.
         _formula(r"\begin{array}{l}150.s(t)=2t^3\\151.s(t)=t^3-9t\end{array}", 480)))
    faults = math_faults(document_json(faulty) if as_json else faulty)
    assert [(f.kind, f.page, f.block) for f in faults] == [
        (DUPLICATE, 2, 1), (NUMBER_ALONE, 2, 2), (NUMBER_ALONE, 2, 3), (NUMBER_ALONE, 2, 4),
        (NUMBER_ALONE, 2, 5), (LABEL_IN_LATEX, 2, 6), (LABEL_IN_LATEX, 2, 7),
        (LABEL_IN_LATEX, 2, 8), (LABEL_IN_LATEX, 2, 9), (LABEL_IN_LATEX, 2, 10)]
    assert faults[-1].detail == "rows 1, 2"


@pytest.mark.parametrize("latex, label", [
    (r"150. \quad s(t) = 2t^3", True), (r"(iii) \; x = 0", True), (r"\text{12)} f(x)", True),
    ("1.", True), (r"(a)_n", False), ("1.5 x", False), ("(x) = 0", False), ("f(1) = 2", False),
    (r"12 x", False)])
def test_item_labels_are_told_from_formulas_that_begin_alike(latex, label):
    assert starts_with_label(latex) is label


def test_a_tally_keeps_each_documents_faults_and_says_the_total(capsys):
    tally = FaultTally()
    assert tally.check("clean", CLEAN) == []
    faults = tally.check("doubled", _document((_formula("x=1", 10), _formula("x = 1", 60))))
    assert faults == [{"kind": DUPLICATE, "page": 1, "block": 1, "shown": "x = 1",
                       "detail": "as block 0"}]
    assert tally.summary() == {"documents": 2, "pages": 3, "faults": 1, DUPLICATE: 1,
                               NUMBER_ALONE: 0, LABEL_IN_LATEX: 0}
    assert tally.closing_line() == ("math faults: 1 on 3 pages of 2 documents "
                                    "(duplicate_display 1)")
    assert "math fault: doubled page 1 block 1: duplicate_display" in capsys.readouterr().out


def test_a_row_of_a_formula_read_again_is_a_duplicate():
    both = _formula(r"\begin{aligned} T &= g L, \\ \partial T &= 0 \end{aligned}\tag{3}", 10)
    again = _formula(r"\partial T = 0 \tag{4}", 60)
    assert [(f.kind, f.block, f.detail) for f in math_faults(_document((both, again)))] == [
        (DUPLICATE, 1, "a row of block 0")]
    assert [(f.kind, f.block, f.detail) for f in math_faults(_document((again, both)))] == [
        (DUPLICATE, 1, "row 2 as block 0")]
    assert math_faults(_document((both, _formula("x = 0", 60)))) == []
