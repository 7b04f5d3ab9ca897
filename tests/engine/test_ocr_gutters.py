"""engine.ocr.gutters and the gutters stage: an OCR line lying across two columns is cut at the
gutter between them and its parts are read again; lines inside one region are left alone."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from engine.ocr.gutters import column_parts, gutter_x, plan_cuts
from engine.ocr.reading_rules import PAGE_READING
from engine.ocr.recognition import Recognized
from engine.ocr.script_reading import ScriptReadings
from engine.ocr.stage import split_at_gutters
from engine.options import ConvertOptions
from engine.page import PageState
from engine.types import BlockKind, Box, Line, Region, TextSource

TEXT = BlockKind.TEXT


def region(x0, y0, x1, y1, kind=TEXT) -> Region:
    return Region(kind=kind, box=Box(x0, y0, x1, y1), score=0.9)


def page_with_ink(spans: list[tuple[int, int]], width: int = 400, row: tuple[int, int] = (40, 60)
                  ) -> np.ndarray:
    """A white page with strokes (every third pixel column dark) standing for words on one text
    row."""
    image = np.full((100, width, 3), 255, np.uint8)
    for x0, x1 in spans:
        image[row[0]:row[1], x0:x1:3] = 20
    return image


COLUMNS = [region(10, 0, 190, 100), region(210, 0, 390, 100)]


def test_a_line_across_two_columns_lies_over_both():
    line = Line("left words right words", Box(20, 35, 380, 65))
    assert [r.box.x0 for r in column_parts(line, COLUMNS)] == [10, 210]


def test_a_line_joined_across_five_columns_lies_over_all_five():
    """The first lines of five columns side by side under a headline, read as one line: no
    column holds a fifth of it, each holds most of its own width."""
    columns = [region(10 + 200 * i, 0, 190 + 200 * i, 100) for i in range(5)]
    line = Line("one two three four five", Box(20, 35, 980, 65))
    assert [r.box.x0 for r in column_parts(line, columns)] == [10, 210, 410, 610, 810]


def test_a_line_inside_one_column_or_a_spanning_heading_is_not_cut():
    assert len(column_parts(Line("left", Box(20, 40, 180, 60)), COLUMNS)) == 1
    # Grazing the next column by less than a fifth of the line: a region drawn a little wide.
    assert len(column_parts(Line("left", Box(20, 40, 230, 60)), COLUMNS)) == 1
    heading = [region(10, 30, 390, 70, BlockKind.SECTION_HEADER)]
    assert len(column_parts(Line("A headline", Box(20, 35, 380, 65)), heading)) == 1
    # Regions stacked or nested over the same columns are not a gutter.
    stacked = [region(10, 0, 390, 100), region(20, 30, 380, 70)]
    assert len(column_parts(Line("one line", Box(20, 35, 380, 65)), stacked)) == 1


def test_figures_and_tables_are_not_columns():
    regions = [region(10, 0, 190, 100), region(210, 0, 390, 100, BlockKind.TABLE)]
    assert len(column_parts(Line("x y", Box(20, 35, 380, 65)), regions)) == 1


def test_the_cut_falls_in_the_blank_between_the_columns_words():
    image = page_with_ink([(20, 185), (215, 380)])
    line = Line("left right", Box(20, 35, 380, 65))
    x = gutter_x(image[40:60, 20:380].min(axis=2).astype(np.float32) < 128, line,
                 COLUMNS[0].box, COLUMNS[1].box)
    assert 185 <= x <= 215


def test_plan_cuts_gives_one_part_per_column():
    image = page_with_ink([(20, 185), (215, 380)])
    lines = [Line("left right", Box(20, 35, 380, 65)), Line("alone", Box(20, 70, 180, 90))]
    [cut] = plan_cuts(image, lines, COLUMNS)
    assert cut.line is lines[0]
    left, right = cut.parts
    # Each part ends at its ink: the words on the page run 20-185 and 215-380.
    assert left.x0 == 20 and 377 <= right.x1 <= 380
    assert 183 <= left.x1 <= 185 and 215 <= right.x0 <= 217


class Reader:
    """The recogniser's seat in the model set: reads the crops, left to right, as the texts the
    test gives."""

    def __init__(self, answers: list[str]) -> None:
        self.answers = answers
        self.crops: list[np.ndarray] = []
        self.recognizer = self
        self.rules = PAGE_READING

    def recognize(self, crops):
        self.crops.extend(crops)
        return [Recognized(text, 0.95) for text, _ in zip(self.answers, crops)] + \
            [Recognized("", 0.0)] * max(0, len(crops) - len(self.answers))

    def read_lines(self, crops, languages=()):
        return ScriptReadings(self.recognize(crops))


def test_the_stage_replaces_a_bridging_line_by_its_parts_in_place():
    image = page_with_ink([(20, 185), (215, 380)])
    lines = (Line("before", Box(20, 10, 180, 30)), Line("left words right", Box(20, 35, 380, 65)),
             Line("after", Box(20, 70, 180, 90)))
    page = PageState(document=None, page_number=1, options=ConvertOptions(), image=image,
                     lines=lines, regions=tuple(COLUMNS), text_source=TextSource.OCR)
    reader = Reader(["left words", "right"])
    models = SimpleNamespace(page_reader=lambda: reader)
    out = split_at_gutters(page, models)
    assert [ln.text for ln in out.lines] == ["before", "left words", "right", "after"]
    assert len(reader.crops) == 2


def test_text_layer_pages_and_pages_without_layout_are_left_alone():
    image = page_with_ink([(20, 185), (215, 380)])
    lines = (Line("left right", Box(20, 35, 380, 65)),)
    models = SimpleNamespace(page_reader=lambda: (_ for _ in ()).throw(AssertionError("read")))
    for page in (PageState(document=None, page_number=1, options=ConvertOptions(), image=image,
                           lines=lines, regions=tuple(COLUMNS), text_source=TextSource.TEXT_LAYER),
                 PageState(document=None, page_number=1, options=ConvertOptions(), image=image,
                           lines=lines, regions=None, text_source=TextSource.OCR)):
        assert split_at_gutters(page, models) is page


def test_a_part_that_reads_as_nothing_is_dropped_and_an_unreadable_line_kept():
    image = page_with_ink([(20, 185), (215, 380)])
    line = Line("left right", Box(20, 35, 380, 65))
    page = PageState(document=None, page_number=1, options=ConvertOptions(), image=image,
                     lines=(line,), regions=tuple(COLUMNS), text_source=TextSource.OCR)
    one = split_at_gutters(page, SimpleNamespace(page_reader=lambda: Reader(["left", ""])))
    assert [ln.text for ln in one.lines] == ["left"]
    none = split_at_gutters(page, SimpleNamespace(page_reader=lambda: Reader([])))
    assert none.lines == (line,)


def test_the_parts_are_read_from_their_own_pixels_without_the_rows_around():
    """A crop margin would take in the ink of the lines above and below: on a tightly leaded
    scan the recogniser then reads letters less."""
    image = page_with_ink([(20, 185), (215, 380)])
    line = Line("left right", Box(20, 35, 380, 65))
    page = PageState(document=None, page_number=1, options=ConvertOptions(), image=image,
                     lines=(line,), regions=tuple(COLUMNS), text_source=TextSource.OCR)
    reader = Reader(["left", "right"])
    split_at_gutters(page, SimpleNamespace(page_reader=lambda: reader))
    assert [crop.shape[0] for crop in reader.crops] == [30, 30]
