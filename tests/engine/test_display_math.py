"""Display formulas once, numbered, without item numbers (engine/formulas/display.py)."""

from __future__ import annotations

from engine.content.formulas import Formula
from engine.formulas.display import labels_as_text, numbers_as_tags, one_reading, rows_once
from engine.output.markdown import render_block
from engine.types import Block, BlockKind, Box


def _formula(latex: str, y: float, x0: float = 100, x1: float = 400, height: float = 30) -> Block:
    return Block(BlockKind.FORMULA, Box(x0, y, x1, y + height), (), "", formula=Formula(latex))


def _latex(block: Block) -> str:
    return block.formula.latex if block.formula else ""


def _text(text: str, y: float, x0: float = 100, x1: float = 500, height: float = 14) -> Block:
    return Block(BlockKind.TEXT, Box(x0, y, x1, y + height), (), text)


def test_a_formula_read_twice_is_kept_once_with_its_number():
    blocks = [_text("We find", 0), _formula("E=mc^2\\tag{13}", 40),
              _formula("E = m c ^ { 2 }", 72), _text("which is famous.", 110)]
    kept = one_reading(blocks)
    assert [_latex(b) for b in kept if b.kind is BlockKind.FORMULA] == ["E=mc^2\\tag{13}"]
    # the same equation far away on the page is a second equation, not a double reading
    far = [_formula("E=mc^2", 40), _text("Much later, again:", 300), _formula("E=mc^2", 600)]
    assert len(one_reading(far)) == 3


def test_a_lone_equation_number_becomes_the_tag_of_the_formula_beside_it():
    blocks = [_formula("a^2+b^2=c^2", 100), _text("(15)", 108, x0=520, x1=550),
              _text("where a and b are the legs.", 150)]
    tagged = numbers_as_tags(blocks)
    assert [b.kind for b in tagged] == [BlockKind.FORMULA, BlockKind.TEXT]
    assert _latex(tagged[0]) == "a^2+b^2=c^2\\tag{15}"
    assert "\\tag{15}" in render_block(tagged[0])
    for number, tag in (("(2.13)", "2.13"), ("( A.1 )", "A.1"), ("(4a)", "4a")):
        assert _latex(numbers_as_tags([_formula("x=1", 0), _text(number, 5, 520, 550)])[0]) \
            == f"x=1\\tag{{{tag}}}"
    # a number far from every formula, or a formula already numbered, leaves the text alone
    assert len(numbers_as_tags([_formula("x=1", 0), _text("(3)", 400, 520, 550)])) == 2
    assert len(numbers_as_tags([_formula("x=1\\tag{2}", 0), _text("(3)", 5, 520, 550)])) == 2


def test_an_item_number_is_text_before_its_formula():
    blocks = labels_as_text([_formula("1 5 0 . \\quad s ( t ) = 2 t ^ { 3 } - 3 t ^ { 2 }", 0)])
    assert [(b.kind, b.text or _latex(b)) for b in blocks] == [
        (BlockKind.TEXT, "150."), (BlockKind.FORMULA, "s(t)=2t^3-3t^2")]
    labelled = labels_as_text([_formula("( a ) \\quad x + y = 1 \\tag{4}", 0)])
    assert [(b.text or _latex(b)) for b in labelled] == ["(a)", "x+y=1\\tag{4}"]
    # a decimal number, or brackets that are part of the formula, stay
    for latex in ("3.5x=7", "(a)=b", "(a+b)^2", "(n)!=n(n-1)!"):
        assert len(labels_as_text([_formula(latex, 0)])) == 1


def test_an_exercise_list_read_as_one_array_is_a_label_and_a_formula_per_row():
    array = _formula("\\begin{array}{l}150.s(t)=2t^3-3t^2-12t+8\\\\151.s(t)=t^3-9t^2+24t"
                     "\\\\152.s(t)=\\sqrt{t}+4t\\end{array}", 0, height=60)
    blocks = labels_as_text([array])
    assert [(b.kind, b.text or _latex(b)) for b in blocks] == [
        (BlockKind.TEXT, "150."), (BlockKind.FORMULA, "s(t)=2t^3-3t^2-12t+8"),
        (BlockKind.TEXT, "151."), (BlockKind.FORMULA, "s(t)=t^3-9t^2+24t"),
        (BlockKind.TEXT, "152."), (BlockKind.FORMULA, "s(t)=\\sqrt{t}+4t")]
    assert [b.box.y0 for b in blocks[::2]] == [0, 20, 40]
    # a row without its own number stays with the item above it, in the environment; the
    # formula's tag goes to its last item
    aligned = _formula("\\begin{aligned}(a)\\quad x&=1\\\\&=2\\\\(b)\\quad y&=3\\end{aligned}"
                       "\\tag{7}", 0, height=60)
    assert [b.text or _latex(b) for b in labels_as_text([aligned])] == [
        "(a)", "\\begin{aligned}x&=1\\\\&=2\\end{aligned}",
        "(b)", "\\begin{aligned}y&=3\\end{aligned}\\tag{7}"]
    # rows that are a system of equations, not numbered items, stay one formula
    system = _formula("\\begin{cases}x+y=1\\\\2.x-y=0\\end{cases}", 0)
    assert labels_as_text([system]) == [system]


def test_a_row_read_again_leaves_the_formula_of_several_rows():
    """An align of two numbered rows read as one array numbered (3), and its last row once more
    numbered (4): each row once, with its own number."""
    both = _formula("\\begin{array}{l}T_{\\mu\\nu}=g_{\\mu\\nu}\\mathcal{L},\\\\"
                    "\\partial^\\mu T_{\\mu\\nu}=0.\\end{array}\\tag{3}", 0, height=60)
    again = _formula("\\partial^\\mu T_{\\mu\\nu} = 0 . \\tag{4}", 64)
    assert [_latex(b) for b in rows_once([both, again])] == [
        "T_{\\mu\\nu}=g_{\\mu\\nu}\\mathcal{L},\\tag{3}", _latex(again)]
    # far apart, or a row of its own that the formula does not hold, nothing changes
    assert rows_once([both, _formula(_latex(again), 600)]) == [both, _formula(_latex(again), 600)]
    assert rows_once([both, _formula("x=1", 64)]) == [both, _formula("x=1", 64)]


def test_labelled_rows_need_no_space_after_the_label():
    rows = _formula("\\begin{array}{c}(a)\\int_0^1 x\\,dx=\\frac{1}{2}\\\\(b)\\sum_n a_n=1"
                    "\\end{array}", 0, height=60)
    assert [b.text or _latex(b) for b in labels_as_text([rows])] == [
        "(a)", "\\int_0^1 x\\,dx=\\frac{1}{2}", "(b)", "\\sum_n a_n=1"]
