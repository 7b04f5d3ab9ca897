"""Typed content (engine/content): a formula's reading and a crop travel from region to block as
one value each, the JSON writes them under the names it always had, and the stages that keep
crops return new regions and the page's new pictures without touching what they were given."""

from __future__ import annotations

import numpy as np

from engine.content.crops import Crop
from engine.content.formulas import Formula
from engine.formulas.stage import recognize_formulas
from engine.options import ConvertOptions
from engine.page import PageState, keep_crop
from engine.structure.page_blocks import assemble_page
from engine.structure.stage import crop_figures
from engine.types import Block, BlockKind, Box, DocumentResult, Line, PageResult, Region, TextSource


def _page(regions: tuple[Region, ...]) -> PageState:
    image = np.zeros((200, 300, 3), np.uint8)
    image[:, :, 0] = np.arange(300, dtype=np.uint8)[None, :] % 251  # each column its own red
    return PageState(document=None, page_number=1, options=ConvertOptions(), image=image,
                     image_prefix="doc-p1", regions=regions)


def test_a_formula_tag_is_read_from_its_latex():
    formula = Formula("x^2=1 \\tag{3a}", 0.9)
    assert (formula.tag, formula.untagged) == ("3a", "x^2=1 ")
    assert (Formula("x").tag, Formula("x").untagged) == ("", "x")


def test_a_region_s_reading_and_crop_reach_its_block_as_one_value_each():
    reading, crop = Formula("x = 1", 0.55, "length"), Crop("images/doc-p1-formula1.png")
    region = Region(BlockKind.FORMULA, Box(0, 0, 100, 30), formula=reading, crop=crop)
    [block] = assemble_page([Line("x = 1", Box(5, 5, 60, 25))], [region])
    assert block.formula == Formula("x=1", 0.55, "length")  # the LaTeX printed compactly
    assert block.crop is crop


def test_the_json_writes_formula_and_crop_under_their_old_names_in_their_old_places():
    blocks = (Block(BlockKind.FORMULA, Box(0, 0, 5, 5), formula=Formula("x", 0.123456, "length"),
                    crop=Crop("images/f.png"), language=""),
              Block(BlockKind.TEXT, Box(0, 6, 5, 7), text="t"))
    page = PageResult(1, 10, 10, 72.0, TextSource.OCR, "scan", blocks=blocks)
    written = DocumentResult("a.png", "png", 1, (page,)).to_json()["pages"][0]["blocks"]
    assert list(written[0]) == ["kind", "box", "lines", "text", "score", "level", "html", "latex",
                                "latex_confidence", "latex_guard", "image_path", "language",
                                "spans", "table_pages", "continues_from_page"]
    assert [(b["latex"], b["latex_confidence"], b["latex_guard"], b["image_path"])
            for b in written] == [("x", 0.1235, "length", "images/f.png"), ("", None, "", "")]


def test_keeping_figures_names_each_crop_by_its_place_and_adds_its_pixels():
    regions = (Region(BlockKind.TEXT, Box(0, 0, 300, 20)),
               Region(BlockKind.FIGURE, Box(100, 40, 140, 80)),
               Region(BlockKind.FIGURE, Box(10, 100, 30, 120)))
    page = _page(regions)
    kept = crop_figures(page, models=None)
    assert page.regions is regions and page.crops == ()  # what the stage was given is as it was
    assert [r.crop for r in kept.regions] == [None, Crop("images/doc-p1-figure2.png"),
                                              Crop("images/doc-p1-figure3.png")]
    assert [path for path, _ in kept.crops] == ["images/doc-p1-figure2.png",
                                                "images/doc-p1-figure3.png"]
    assert np.array_equal(kept.crops[0][1], page.crop(regions[1].box))
    assert crop_figures(_page(regions[:1]), models=None).crops == ()


def test_with_crops_adds_only_the_regions_naming_a_crop():
    page = _page(())
    cropped = keep_crop(page, Region(BlockKind.TABLE, Box(50, 50, 90, 90)), 4)
    plain = Region(BlockKind.TABLE, Box(0, 0, 10, 10))
    assert cropped.crop == Crop("images/doc-p1-table5.png")
    more = page.with_crops([plain, cropped])
    assert [path for path, _ in more.crops] == ["images/doc-p1-table5.png"]
    assert page.with_crops([plain]) is page


class _NoModels:
    def formula_recognizer(self):
        return None


def test_formulas_without_a_model_keep_their_crops_in_their_places():
    regions = (Region(BlockKind.FORMULA, Box(10, 10, 90, 40)),
               Region(BlockKind.TEXT, Box(0, 50, 300, 70)),
               Region(BlockKind.FORMULA, Box(10, 80, 90, 110),
                      formula=Formula("y", 0.99)))  # read already: left as it is
    page = _page(regions)
    read = recognize_formulas(page, _NoModels())
    assert read.regions[1:] == regions[1:] and page.regions is regions
    assert read.regions[0].crop == Crop("images/doc-p1-formula1.png")
    assert [path for path, _ in read.crops] == ["images/doc-p1-formula1.png"]
    assert [e.kind for e in read.errors] == ["ModelUnavailable"]
