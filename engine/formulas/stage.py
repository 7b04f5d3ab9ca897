"""The formula page stages: an image input that is one formula, loose math lines the layout
model left as text (merged with the layout's formula regions they share ink with), and the LaTeX
of every formula region with its equation number."""

from __future__ import annotations

import re
from dataclasses import replace

from engine.formulas.equation_numbers import NumberedFormula, number_text, numbered_formula, tagged
from engine.formulas.loose_lines import MIN_SHARED_INK, display_lines, math_groups, shared_ink
from engine.formulas.reading import UNAVAILABLE_WARNING, FormulaReading, looks_like_math
from engine.imaging import ink_bounds
from engine.page import PageState, keep_crop, regions_of
from engine.text import has_cjk
from engine.types import BlockKind, Box, Line, PageError, Region


def recognize_formula_image(page: PageState, models) -> PageState:
    """An image input that is one formula (a crop, a screenshot: what pix2tex is given) becomes
    one formula region around its ink.

    Layout models trained on pages label such images at random (formula, heading, figure or
    nothing), so this looks at what the formula model makes of the ink instead. It is taken as a
    formula when the layout found at most one region, no table or formula among them, and the
    reading is confident (not `low_confidence`) and holds math, not just styled text: the model
    also reads text lines, sometimes confidently. `ConvertOptions.formula_image` takes any image
    input as one formula."""
    forced = page.options.formula_image
    if page.document.kind.is_paged or (not forced and not _may_be_formula_image(page.regions,
                                                                                 page.lines)):
        return page
    bounds = ink_bounds(page.image)
    recognizer = models.formula_recognizer()
    if bounds is None or recognizer is None:
        return page
    box = Box(*map(float, bounds))
    reading = recognizer.read([page.crop(box)])[0]
    looks_like_formula = (reading is not None and not reading.low_confidence
                          and looks_like_math(reading.latex))
    if reading is None or not (forced or looks_like_formula):
        return page
    regions = [Region(BlockKind.FORMULA, box, reading.confidence)]
    page = keep_reading(page, regions, 0, reading)
    return replace(page, regions=tuple(regions))


FORMULA_IMAGE_MAX_LINES = 8
FORMULA_IMAGE_MAX_WORDS = 5
_WORD = re.compile(r"[^\W\d_]{4,}")


def _may_be_formula_image(regions: tuple[Region, ...] | None, lines: tuple[Line, ...]) -> bool:
    """Layout ran and found at most one region, and no table or formula; and the OCR text is not
    prose (a scanned page of text is one layout region too, and reading its whole ink as a
    formula costs a third of a second for nothing). Chinese, Japanese or Korean text is never
    a formula."""
    if regions is None or len(regions) > 1 or any(
            r.kind in (BlockKind.TABLE, BlockKind.FORMULA) for r in regions):
        return False
    if any(has_cjk(line.text) for line in lines):
        return False
    words = sum(len(_WORD.findall(line.text)) for line in lines)
    return len(lines) <= FORMULA_IMAGE_MAX_LINES and words <= FORMULA_IMAGE_MAX_WORDS


def find_math_lines(page: PageState, models) -> PageState:
    """Display formulas the layout model left as loose lines become formula regions, when the
    formula model reads them confidently as math (engine/formulas/loose_lines.py). A group whose
    ink falls into separate lines (two equations one above the other) is one region per line.
    A group sharing ink with a layout formula region not read yet is merged into it (one region,
    the union box, read once by `recognize_formulas`): one block per formula."""
    if page.regions is None or not page.lines:
        return page
    regions = list(page.regions)
    groups = []
    for group in math_groups(list(page.lines), [r.box for r in regions]):
        same = [i for i, r in enumerate(regions) if r.kind is BlockKind.FORMULA and not r.latex
                and shared_ink(page.image, group, r.box) >= MIN_SHARED_INK]
        if not same:
            groups.append(group)
            continue
        for i in same:
            group = group.union(regions[i].box)
        regions[same[0]] = replace(regions[same[0]], box=group)
        regions = [r for i, r in enumerate(regions) if i not in same[1:]]
    boxes = [line for group in groups
             for line in display_lines(group, page.crop(group), page.crop_bounds(group)[:2])]
    recognizer = models.formula_recognizer() if boxes else None
    if recognizer is None:
        return replace(page, regions=tuple(regions))
    numbered = [_numbered(page, regions, box) for box in boxes]
    readings = recognizer.read([page.crop(n.read_box if n else box)
                                for box, n in zip(boxes, numbered)])
    for box, number, reading in zip(boxes, numbered, readings):
        if reading is None or reading.low_confidence or not looks_like_math(reading.latex):
            continue
        regions.append(Region(BlockKind.FORMULA, number.box if number else box, reading.confidence))
        page = keep_reading(page, regions, len(regions) - 1, _with_number(reading, number))
    return replace(page, regions=tuple(_without_number_regions(page, regions)))


def recognize_formulas(page: PageState, models) -> PageState:
    """LaTeX for every formula region not read yet. Without a formula model the formulas are
    kept as images and the page is partial. An equation number at the right end of a formula's
    line (engine/formulas/equation_numbers.py) is kept out of the crop that is read, joins the
    region, and is written as \\tag{..} after the LaTeX."""
    formulas = [i for i in regions_of(page, BlockKind.FORMULA) if not page.regions[i].latex]
    if not formulas:
        return page
    regions = list(page.regions)
    numbered = {i: n for i in formulas if (n := _numbered(page, regions, regions[i].box))}
    for i, number in numbered.items():
        regions[i] = replace(regions[i], box=number.box)
    recognizer = models.formula_recognizer()
    readings: list[FormulaReading | None] = [None] * len(formulas)
    if recognizer is None:
        page = replace(page, errors=page.errors + (
            PageError("formula", "ModelUnavailable", UNAVAILABLE_WARNING),))
    else:
        readings = recognizer.read([page.crop(numbered[i].read_box if i in numbered
                                              else regions[i].box) for i in formulas])
    for i, reading in zip(formulas, readings):
        page = keep_reading(page, regions, i, _with_number(reading, numbered.get(i)))
    return replace(page, regions=tuple(_without_number_regions(page, regions)))


def _holds_only_numbers(page: PageState, region: Region) -> bool:
    held = [ln for ln in page.lines if ln.box.share_inside(region.box) >= 0.5]
    return bool(held) and all(number_text(ln) for ln in held)


def _numbered(page: PageState, regions: list[Region], box: Box) -> NumberedFormula | None:
    """The formula in `box` with its equation number, when the page has one beside it. Lines
    held by other non-formula regions are not numbers, unless that region holds nothing else
    (the layout model boxed the number alone)."""
    taken = [r.box for r in regions if r.kind is not BlockKind.FORMULA
             and not _holds_only_numbers(page, r)]
    return numbered_formula(box, list(page.lines), taken)


def _without_number_regions(page: PageState, regions: list[Region]) -> list[Region]:
    """`regions` without the non-formula regions that hold only an equation number which a
    formula region now holds: the number is never a paragraph of its own."""
    formulas = [r.box for r in regions if r.kind is BlockKind.FORMULA]

    def numbers_taken(region: Region) -> bool:
        return _holds_only_numbers(page, region) and any(
            region.box.share_inside(box) >= 0.5 for box in formulas)
    return [r for r in regions if r.kind is BlockKind.FORMULA or not numbers_taken(r)]


def _with_number(reading: FormulaReading | None,
                 number: NumberedFormula | None) -> FormulaReading | None:
    if reading is None or number is None:
        return reading
    return replace(reading, latex=tagged(reading.latex, number.number))


def keep_reading(page: PageState, regions: list[Region], index: int,
                 reading: FormulaReading | None) -> PageState:
    """A formula region's LaTeX (replaced in `regions`), and its image too when there is no
    LaTeX or it is doubtful: a formula is never lost, and a doubtful reading can be checked
    against the original."""
    if reading is not None:
        regions[index] = replace(regions[index], latex=reading.latex,
                                 latex_confidence=reading.confidence, latex_guard=reading.guard)
    if reading is None or reading.low_confidence:
        page = keep_crop(page, regions, index)
    return page
