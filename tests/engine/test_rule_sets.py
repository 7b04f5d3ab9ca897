"""Rules as data (STYLE habit 20, ADR 0026): a rule set's value changed through its typed object
reaches every module that uses it, and no tool patches an engine module to try a value."""

from __future__ import annotations

import ast
from dataclasses import FrozenInstanceError, replace
from pathlib import Path

import numpy as np
import pytest

from engine.structure.reading_order import bands
from engine.structure.reading_order_rules import READING_ORDER
from engine.structure.stories import story_end
from engine.types import Block, BlockKind, Box, Line

ROOT = Path(__file__).resolve().parents[2]


def _block(name: str, kind: BlockKind, x0: float, y0: float, x1: float, y1: float,
           line_height: float) -> Block:
    return Block(kind, Box(x0, y0, x1, y1), text=name,
                 lines=(Line(name, Box(x0, y0, x1, y0 + line_height)),))


def _para(name, x0, y0, x1, y1):
    return _block(name, BlockKind.TEXT, x0, y0, x1, y1, 10)


def _head(name, x0, y0, x1):
    # 1.3 times the body: a story's headline, smaller than a band's.
    return _block(name, BlockKind.SECTION_HEADER, x0, y0, x1, y0 + 13, 13)


def test_rule_sets_are_frozen():
    with pytest.raises(FrozenInstanceError):
        READING_ORDER.row_reach_lines = 2.0  # type: ignore[misc]


def test_row_reach_reaches_both_the_page_bands_and_the_story_ends():
    """`row_reach_lines` is used by reading_order.bands and by stories.story_end: a set with it
    widened changes what both find, with nothing patched."""
    wide = replace(READING_ORDER, row_reach_lines=2.0)
    # Two headlines a line and a half apart under a blank stripe: one row only when the row
    # reaches two lines.
    page = [_para("P0", 0, 0, 200, 100), _head("H1", 0, 120, 100), _head("H2", 110, 135, 200),
            _para("A", 0, 155, 100, 300), _para("B", 110, 155, 200, 300)]
    assert len(bands(page)) == 1
    assert len(bands(page, wide)) == 2
    # A story under a lead headline ends at a headline with nothing else starting on its row;
    # reaching two lines, the row takes in a paragraph too and the story runs on.
    story = [_head("Lead", 0, 0, 200), _para("S", 0, 20, 200, 100), _head("H1", 0, 120, 100),
             _para("Q", 110, 135, 200, 300)]
    boxes = np.array([[b.box.x0, b.box.y0, b.box.x1, b.box.y1] for b in story], dtype=float)
    inside = np.ones(len(story), dtype=bool)
    assert story_end(0, story, boxes, inside, 10.0) == 120.0
    assert story_end(0, story, boxes, inside, 10.0, wide) is None


def test_the_order_tool_builds_a_variant_of_the_rules():
    from tools.structure.ab_order import variant

    from engine.structure.vertical_rules import VERTICAL

    from engine.structure.furniture_rules import FURNITURE
    from engine.structure.row_rules import ROWS

    sets = variant(["reading_order.row_reach_lines=1.5", "reading_order.column_lines=4",
                    "vertical.same_size=0.2", "rows.flush_rows=3",
                    "furniture.display_type=1.7"])
    assert sets["rows"] == replace(ROWS, flush_rows=3) and isinstance(sets["rows"].flush_rows,
                                                                       int)
    assert sets["furniture"] == replace(FURNITURE, display_type=1.7)
    rules = sets["reading_order"]
    assert rules.row_reach_lines == 1.5 and rules.column_lines == 4
    assert isinstance(rules.column_lines, int)
    assert sets["vertical"] == replace(VERTICAL, same_size=0.2)
    assert READING_ORDER.row_reach_lines == 1.0 and VERTICAL.same_size == 0.3
    with pytest.raises(SystemExit, match="no 'ROW_REACH_LINES'"):
        variant(["reading_order.ROW_REACH_LINES=2"])
    with pytest.raises(SystemExit, match="no rule set 'stories'"):
        variant(["stories.row_reach_lines=2"])


def _engine_names(tree: ast.Module) -> set[str]:
    """Names a file binds to an engine module or to what one defines (`import engine.x as y`,
    `from engine.x import y`: a module, a class, a rule set)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "engine":
                    names.add(alias.asname or "engine")
        elif isinstance(node, ast.ImportFrom) and node.module and (
                node.module.split(".")[0] == "engine"):
            names.update(alias.asname or alias.name for alias in node.names)
    return names


def patches(source: str, where: str) -> list[str]:
    """Where a file's source patches the engine: `setattr`/`delattr` anywhere, `monkeypatch`,
    or an assignment to an attribute of an engine module or of a class or object it defines."""
    tree = ast.parse(source)
    engine_names = _engine_names(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and (
                node.func.id in ("setattr", "delattr")):
            found.append(f"{where}:{node.lineno}: {node.func.id}")
        elif isinstance(node, ast.Name) and node.id == "monkeypatch":
            found.append(f"{where}:{node.lineno}: monkeypatch")
        elif isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                for part in target.elts if isinstance(target, (ast.Tuple, ast.List)) else [
                        target]:
                    held = _dotted(part.value) if isinstance(part, ast.Attribute) else ""
                    if held.split(".")[0] in engine_names or held.startswith("engine."):
                        found.append(f"{where}:{node.lineno}: {_dotted(part)} =")
    return found


def test_no_tool_patches_the_engine():
    """Tools try other values by building rule sets, and time the engine by its step clock
    (engine/runtime/steps.py), never by setting attributes of engine modules or classes (a
    name another module imported keeps its old value: the swept figure would not be what the
    code did)."""
    found: list[str] = []
    for path in sorted((ROOT / "tools").rglob("*.py")):
        found += patches(path.read_text(encoding="utf-8"), path.relative_to(ROOT).as_posix())
    assert not found, "the engine patched in tools/:\n" + "\n".join(found)


def test_the_patch_check_finds_every_way_to_patch():
    source = ("import engine.structure.reading_order as order\n"
              "from engine.ocr import tesseract\n"
              "from engine.ocr.detection import TextDetector\n"
              "import engine.layout.detector\n"
              "order.ROW_REACH_LINES = 2\n"
              "tesseract.MARGIN_SHARE += 0.1\n"
              "TextDetector.detect_with_map = lambda self, image: ([], None)\n"
              "engine.layout.detector.LayoutDetector.detect = None\n"
              "setattr(reader, 'scripts', None)\n"
              "def sweep(monkeypatch):\n"
              "    monkeypatch.setenv('LANG', 'C')\n"
              "options = {}\n"
              "options.value = 1\n")
    assert [line.split(": ")[1] for line in patches(source, "t.py")] == [
        "order.ROW_REACH_LINES =", "tesseract.MARGIN_SHARE =",
        "TextDetector.detect_with_map =", "engine.layout.detector.LayoutDetector.detect =",
        "setattr", "monkeypatch"]


def _dotted(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{_dotted(node.value)}.{node.attr}"
    return ""


def test_what_is_a_mark_reaches_both_the_gutter_cuts_and_the_dot_leaders():
    """`InkRules.mark` is used by engine/ocr/gutters.py (a cut part narrowed to its ink) and
    engine/ocr/leaders.py (a leader's dots): a set in which no ink is a mark changes both."""
    from engine.imaging import INK
    from engine.ocr.gutters import plan_cuts
    from engine.ocr.leaders import join_at_leaders
    from engine.types import Region

    nothing = replace(INK, mark=1.0)
    # Words of two columns on one row, a gutter between them (10-190 and 210-390).
    page = np.full((100, 400, 3), 255, np.uint8)
    for x0, x1 in ((20, 185), (215, 380)):
        page[40:60, x0:x1:3] = 20
    columns = [Region(BlockKind.TEXT, Box(10, 0, 190, 100)),
               Region(BlockKind.TEXT, Box(210, 0, 390, 100))]
    line = Line("left words right", Box(20, 35, 380, 65))
    (narrowed,) = plan_cuts(page, [line], columns)
    (whole,) = plan_cuts(page, [line], columns, nothing)
    assert narrowed.parts[0].x1 < 190 and narrowed.parts[1].x0 > 210
    assert whole.parts[0].x1 == whole.parts[1].x0  # not narrowed to any ink
    # An entry, its page number and the dots of a leader between them on the baseline.
    row = np.full((300, 500, 3), 255, np.uint8)
    for x0, x1 in ((20, 120), (400, 430)):
        row[104:126, x0:x1:3] = 10
    for x in range(130, 395, 12):
        row[121:124, x:x + 3] = 10
    entry, number = Line("Index", Box(20, 100, 120, 130)), Line("8", Box(400, 100, 430, 130))
    assert len(join_at_leaders(row, [entry, number])) == 1
    assert join_at_leaders(row, [entry, number], nothing) == [entry, number]


def test_a_run_of_line_numbers_reaches_the_gutter_and_the_table_it_cut():
    """`LineNumberRules.min_run` is used by engine/structure/line_numbers.py (a gutter) and by
    the line_numbers stage (engine/structure/stage.py: a table region holding that many numbers
    is cut back to its other lines): four numbers are a run of both once the run is four."""
    from engine.options import ConvertOptions
    from engine.page import PageState
    from engine.structure.line_numbers import LINE_NUMBERS
    from engine.structure.stage import drop_line_number_gutter
    from engine.types import Region, TextSource

    lines = []
    for k in range(4):
        y = 100 + 40 * k
        lines += [Line(str(k + 1), Box(50, y, 60, y + 20)),
                  Line(f"Q. And where were you on day {k}?", Box(100, y, 900, y + 20))]
    table = Region(BlockKind.TABLE, Box(40, 90, 910, 270))
    page = PageState(document=None, page_number=1, options=ConvertOptions(),
                     image=np.full((400, 1000, 3), 255, np.uint8), lines=tuple(lines),
                     regions=(table,), text_source=TextSource.OCR)
    assert drop_line_number_gutter(page, None) is page
    shorter = drop_line_number_gutter(page, None, replace(LINE_NUMBERS, min_run=4))
    assert len(shorter.lines) == 4
    (cut,) = shorter.regions
    assert cut.box.x0 == 100  # the table region cut back to the text beside the numbers


def test_what_makes_a_column_reaches_the_paragraphs_and_the_page():
    """`VerticalRules.tall_ratio` is used through engine/structure/vertical.py by
    engine/structure/paragraphs.py (columns become vertical paragraphs) and
    engine/structure/assembly.py (the page read as vertical writing): OCR boxes 1.4 times taller
    than wide are columns of both once the ratio is 1.3."""
    from engine.structure.page_blocks import blocks_after, steps_before
    from engine.structure.paragraphs import build_blocks
    from engine.structure.vertical_rules import VERTICAL

    low = replace(VERTICAL, tall_ratio=1.3)
    lines = [Line("竖排文字测试", Box(200 - 60 * i, 0, 250 - 60 * i, 70)) for i in range(3)]
    steps = steps_before("reading_order")
    assert not blocks_after(lines, None, None, steps).vertical
    assert blocks_after(lines, None, None, steps, vertical=low).vertical
    assert not any(ln.vertical for b in build_blocks(lines) for ln in b.lines)
    assert all(ln.vertical for b in build_blocks(lines, None, low) for ln in b.lines)


def test_the_formula_image_replay_tries_a_variant_of_the_rule():
    """tools/formula_images replays recorded items under a FormulaImageRules variant built from
    `--set` text: a formula image with six words of OCR text is taken once `max_words` is 6."""
    from engine.formulas.image_rules import FORMULA_IMAGE
    from tools.formula_images.measure import rule_decision
    from tools.rule_variants import with_changes

    words = "alpha beta gamma delta epsilon theta"
    row = {"seen": {"regions": [{"kind": "formula", "box": [0, 0, 90, 30], "score": 0.9,
                                 "label": "formula"}],
                    "lines": [{"text": words, "box": [0, 0, 90, 30], "score": 0.9}],
                    "reading": {"latex": "x ^ { 2 } + y = 1", "confidence": 0.95, "tokens": 9,
                                "truncated": False, "guard": ""}}}
    assert not rule_decision(row)
    wider = with_changes(FORMULA_IMAGE, ["max_words=6"])
    assert wider.max_words == 6 and isinstance(wider.max_words, int)
    assert rule_decision(row, wider)
    with pytest.raises(SystemExit, match="FormulaImageRules has no 'MAX_WORDS'"):
        with_changes(FORMULA_IMAGE, ["MAX_WORDS=6"])
