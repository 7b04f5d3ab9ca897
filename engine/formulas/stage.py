"""The formula page stages: an image input that is one formula, loose math lines the layout
model left as text (merged with the layout's formula regions they share ink with), and the LaTeX
of every formula region with its equation number."""

from __future__ import annotations

from dataclasses import replace
from functools import reduce

from engine.content.formulas import Formula
from engine.formulas.equation_numbers import NumberedFormula, number_text, numbered_formula, tagged
from engine.formulas.image_rule import may_be_formula_image, on_light_paper, reads_as_formula
from engine.formulas.image_rules import FORMULA_IMAGE, FormulaImageRules
from engine.formulas.loose_lines import (LOOSE_MATH, LooseMathRules, display_lines, math_groups,
                                         shared_ink)
from engine.formulas.reading import UNAVAILABLE_WARNING, FormulaReading, looks_like_math
from engine.imaging import ink_bounds
from engine.page import PageState, keep_crop
from engine.types import BlockKind, Box, PageError, Region


def recognize_formula_image(page: PageState, models,
                            rules: FormulaImageRules = FORMULA_IMAGE) -> PageState:
    """An image input that is one formula (a crop, a screenshot: what pix2tex is given) becomes
    one formula region around its ink.

    Layout models trained on pages label such images at random (formula, heading, figure or
    nothing, or a formula cut in pieces), so this looks at what the formula model makes of the
    whole ink instead (engine/formulas/image_rule.py): tried when the layout found no table and
    few regions and the OCR text is not prose, taken when the reading holds math and is
    confident enough. Light ink on a dark background is read inverted. The image's layout
    regions give way to the one formula region. `ConvertOptions.formula_image` takes any image
    input as one formula. `rules`: engine/formulas/image_rules.py."""
    forced = page.options.formula_image
    if page.document.kind.is_paged or (not forced and not may_be_formula_image(
            page.regions, page.lines, rules)):
        return page
    recognizer = models.formula_recognizer()
    if recognizer is None:
        return page
    # The OCR turns an image upside down when its line classifier takes a formula's signs for
    # text standing on its head (3 of the formula set's 196 images, each read as garbage turned):
    # the formula is read both ways and the more confident reading decides.
    candidates = [page, page.as_given()] if page.rotation else [page]
    read = [(whole_ink_reading(candidate, recognizer, rules), candidate)
            for candidate in candidates]
    read = [(box, reading, candidate) for (box, reading), candidate in read
            if reading is not None and (forced or reads_as_formula(reading, rules))]
    if not read:
        return page
    box, reading, page = max(read, key=lambda item: item[1].confidence)
    # The OCR lines are the formula's too: its region holds them (a detected line reaches past
    # the ink), so none is left over as a paragraph or read again as a loose math line.
    height, width = page.image.shape[:2]
    for line in page.lines:
        box = box.union(line.box)
    box = Box(max(0.0, box.x0), max(0.0, box.y0), min(float(width), box.x1),
              min(float(height), box.y1))
    region = keep_reading(page, Region(BlockKind.FORMULA, box, reading.confidence), 0, reading)
    return replace(page.with_crops([region]), regions=(region,))


def whole_ink_reading(page: PageState, recognizer, rules: FormulaImageRules = FORMULA_IMAGE
                      ) -> tuple[Box | None, FormulaReading | None]:
    """The box of the page's ink and the formula model's reading of it. Light ink on a dark
    background (a dark theme's screenshot) is found and read inverted; the page keeps its own
    pixels for the image written beside the LaTeX."""
    paper = replace(page, image=on_light_paper(page.image, rules))
    bounds = ink_bounds(paper.image)
    if bounds is None:
        return None, None
    box = Box(*map(float, bounds))
    return box, recognizer.read([paper.crop(box)])[0]


def find_math_lines(page: PageState, models, rules: LooseMathRules = LOOSE_MATH) -> PageState:
    """Display formulas the layout model left as loose lines become formula regions, when the
    formula model reads them confidently as math (engine/formulas/loose_lines.py). A group whose
    ink falls into separate lines (two equations one above the other) is one region per line.
    A group sharing ink with a layout formula region not read yet is merged into it (one region,
    the union box, read once by `recognize_formulas`), one sharing ink with a formula region read
    already is dropped: one block per formula. `rules`: engine/formulas/loose_lines.py."""
    if page.regions is None or not page.lines:
        return page
    regions = list(page.regions)
    groups = []
    for group in math_groups(list(page.lines), [r.box for r in regions], rules):
        if any(r.kind is BlockKind.FORMULA and _latex(r)
               and shared_ink(page.image, group, r.box) >= rules.min_shared_ink for r in regions):
            continue  # read already (an image input read as one formula)
        same = [i for i, r in enumerate(regions) if r.kind is BlockKind.FORMULA and not _latex(r)
                and shared_ink(page.image, group, r.box) >= rules.min_shared_ink]
        if not same:
            groups.append(group)
            continue
        merged = reduce(Box.union, (regions[i].box for i in same), group)
        regions = [replace(r, box=merged) if i == same[0] else r
                   for i, r in enumerate(regions) if i not in same[1:]]
    boxes = [line for group in groups
             for line in display_lines(group, page.crop(group), page.crop_bounds(group)[:2])]
    recognizer = models.formula_recognizer() if boxes else None
    if recognizer is None:
        return replace(page, regions=tuple(regions))
    numbered = [_numbered(page, regions, box) for box in boxes]
    readings = recognizer.read([page.crop(n.read_box if n else box)
                                for box, n in zip(boxes, numbered)])
    math = [(number.box if number else box, _with_number(reading, number))
            for box, number, reading in zip(boxes, numbered, readings)
            if reading is not None and not reading.low_confidence
            and looks_like_math(reading.latex)]
    # Each found formula's place after the page's regions names its crop.
    found = [keep_reading(page, Region(BlockKind.FORMULA, box, reading.confidence),
                          len(regions) + n, reading) for n, (box, reading) in enumerate(math)]
    return replace(page.with_crops(found),
                   regions=tuple(_without_number_regions(page, regions + found)))


def recognize_formulas(page: PageState, models) -> PageState:
    """LaTeX for every formula region not read yet. Without a formula model the formulas are
    kept as images and the page is partial. An equation number at the right end of a formula's
    line (engine/formulas/equation_numbers.py) is kept out of the crop that is read, joins the
    region, and is written as \\tag{..} after the LaTeX."""
    unread = [(i, r) for i, r in enumerate(page.regions or ()) if _unread(r)]
    if not unread:
        return page
    numbered = [_numbered(page, list(page.regions), r.box) for _, r in unread]
    recognizer = models.formula_recognizer()
    readings: list[FormulaReading | None] = [None] * len(unread)
    if recognizer is None:
        page = replace(page, errors=page.errors + (
            PageError("formula", "ModelUnavailable", UNAVAILABLE_WARNING),))
    else:
        readings = recognizer.read([page.crop(n.read_box if n else r.box)
                                    for (_, r), n in zip(unread, numbered)])
    read = [keep_reading(page, replace(r, box=n.box) if n else r, i, _with_number(reading, n))
            for (i, r), n, reading in zip(unread, numbered, readings)]
    in_order = iter(read)
    regions = [next(in_order) if _unread(r) else r for r in page.regions]
    return replace(page.with_crops(read),
                   regions=tuple(_without_number_regions(page, regions)))


def _latex(region: Region) -> str:
    """The LaTeX read for a region ("" when none was)."""
    return region.formula.latex if region.formula is not None else ""


def _unread(region: Region) -> bool:
    return region.kind is BlockKind.FORMULA and not _latex(region)


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


def keep_reading(page: PageState, region: Region, index: int,
                 reading: FormulaReading | None) -> Region:
    """A formula region with its LaTeX, and naming its crop too when there is no LaTeX or it is
    doubtful (`index` names the file; the stage adds the pixels with `PageState.with_crops`): a
    formula is never lost, and a doubtful reading can be checked against the original."""
    if reading is not None:
        region = replace(region, formula=Formula(reading.latex, reading.confidence,
                                                 reading.guard))
    if reading is None or reading.low_confidence:
        return keep_crop(page, region, index)
    return region
