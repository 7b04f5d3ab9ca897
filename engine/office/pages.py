"""An Office document's pages as page results: each part a block in reading order, on a
notional page (boxes stacked down it, nothing measured), each picture cropped as a figure and,
when it holds text (a scan pasted into a document, a screenshot on a slide), its text read by
the page recipe (`read_picture`, given by engine/recipe.py) and set after it."""

from __future__ import annotations

import math
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable, Iterator

import numpy as np

from engine.content.crops import Crop
from engine.content.formulas import Formula
from engine.errors import Cancelled, PaperlensError
from engine.office.container import read_member
from engine.office.model import PICTURE, OfficeDocument, OfficePage, Part
from engine.page import PageOutcome
from engine.types import Block, BlockKind, Box, PageResult, Span, Status, TextSource

PictureReader = Callable[[Path, str], PageOutcome]
"""(the picture as an image file, the prefix of its crops' names) -> the page recipe's outcome,
with the picture as read in `image`."""

LINE_PT = 14.0
"""The notional page: one line of text is this tall, and holds CHARS_PER_LINE characters."""
CHARS_PER_LINE = 90


@dataclass(frozen=True)
class PictureRules:
    """When the text read off a picture inside a document is kept after it."""

    min_text_characters: int = 8
    """Letters and digits the reading must hold: a photograph's stray "1 l" is not text; a
    one-word label is (the pasted scans of tools/officeset hold 150-200)."""
    min_side_px: int = 48
    """A picture narrower or lower than this (an icon, a bullet, a rule) keeps no reading."""


PICTURE_RULES = PictureRules()


def office_pages(path: Path, office: OfficeDocument, numbers: list[int], stem: str,
                 read_picture: PictureReader) -> Iterator[PageOutcome]:
    """The chosen pages of an Office document read from `path`, in order."""
    for number in numbers:
        yield _page(path, office.kind, office.pages[number - 1], number, f"{stem}-p{number}",
                    read_picture)


def _page(path: Path, kind: str, page: OfficePage, number: int, prefix: str,
          read_picture: PictureReader) -> PageOutcome:
    blocks: list[Block] = []
    crops: list[tuple[str, np.ndarray]] = []
    warnings: list[str] = list(page.unread)
    partial = bool(page.unread)
    y = 0.0
    width = page.width_pt
    for index, part in enumerate(page.parts, start=1):
        if part.kind == PICTURE:
            read = _picture(path, part, f"{prefix}-picture{index}", read_picture, warnings)
            if read is None:
                partial = True  # the picture is left out, with its warning
                continue
            partial = partial or read.result.status is not Status.OK
            picture = read.image
            height = min(width * picture.shape[0] / max(picture.shape[1], 1), 2 * width)
            box = Box(0.0, y, width, y + height)
            crop = f"images/{prefix}-figure{index}.png"
            crops.append((crop, picture))
            blocks.append(Block(BlockKind.FIGURE, box, crop=Crop(crop)))
            blocks.extend(_placed(b, box) for b in _text_blocks(read))
            crops.extend(read.crops)
            name = Path(part.picture).name
            warnings.extend(f"picture {name}: {w}" for w in read.result.warnings)
            y += height + LINE_PT
            continue
        height = LINE_PT * max(1, math.ceil(len(part.text or part.latex) / CHARS_PER_LINE))
        if part.table is not None:
            height = LINE_PT * (part.table.rows + 1)
        blocks.append(_block(part, Box(0.0, y, width, y + height)))
        y += height + LINE_PT / 2
    result = PageResult(page_number=number, width=round(width), height=round(max(
        page.height_pt, y)), dpi=72.0, text_source=TextSource.NATIVE,
        text_source_reason=f"read from the {kind.upper()} document's own markup",
        blocks=tuple(blocks), warnings=tuple(warnings),
        status=Status.PARTIAL if partial else Status.OK)
    return PageOutcome(result, tuple(crops))


def _block(part: Part, box: Box) -> Block:
    kind = BlockKind(part.kind)
    spans = tuple(Span(text=t if not latex else latex, latex=latex) for t, latex in part.spans)
    level = part.level if kind in (BlockKind.TITLE, BlockKind.SECTION_HEADER) else 0
    # An equation's own LaTeX, as its author wrote it: no reading to doubt.
    formula = Formula(part.latex, 1.0) if part.latex else None
    return Block(kind, box, text=part.text or part.latex, level=level, table=part.table,
                 formula=formula, spans=spans)


def _picture(source: Path, part: Part, prefix: str, read_picture: PictureReader,
              warnings: list[str]) -> PageOutcome | None:
    """The picture read through the page recipe (identified by its bytes there, like every
    input); None, with a warning, for one that is no image Paperlens decodes (a vector drawing:
    EMF, WMF, SVG) or that the recipe failed on."""
    name = Path(part.picture).name
    try:
        data = read_member(source, part.picture)
    except KeyError:
        warnings.append(f"picture {name} is named but missing from the file; left out")
        return None
    with tempfile.TemporaryDirectory(prefix="paperlens-picture-") as folder:
        path = Path(folder) / name
        path.write_bytes(data)
        try:
            outcome = read_picture(path, prefix)
        except Cancelled:
            raise
        except PaperlensError as exc:  # a vector drawing (EMF, WMF, SVG), a damaged picture
            warnings.append(f"picture {name} left out: {exc.message}")
            return None
    if outcome.image is None:
        warnings.append(f"picture {name} could not be read")
        return None
    return outcome


def _text_blocks(outcome: PageOutcome) -> list[Block]:
    """The picture's blocks when its reading found text in it, else none (a photograph)."""
    result = outcome.result
    rules = PICTURE_RULES
    if result.status is Status.FAILED or min(result.width, result.height) < rules.min_side_px:
        return []
    blocks = [b for b in result.blocks if b.kind is not BlockKind.FIGURE or b.crop is not None]
    read = sum(ch.isalnum() for b in blocks for ch in (b.text or ""))
    return blocks if read >= rules.min_text_characters else []


def _placed(block: Block, box: Box) -> Block:
    """A block read off a picture, on the picture's place on the notional page."""
    return replace(block, box=box)
