"""Scanned math pages whose formula words are known, for the inline-span classifier
(engine/formulas/inline_spans.py): tools/mathset/generate.py's pages with every formula set in
an ink one step off black, so the PDF says which glyphs are math while the scan looks as any
other; each page scanned as tools/structure/scans.py scans it, read by the engine up to the
inline-math stage, and each OCR word of a prose block labelled math when math glyphs, carried
onto the scan by its resolution and turn, cover most of it.

The pages come from seeds apart from the evaluation's (tools/mathset: 2 reported, 1 and 3
tuning), so no evaluation truth is trained on."""

from __future__ import annotations

import pickle
import random
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np
import pymupdf

from engine.types import Box, Word
from tools.mathset.generate import FAMILIES, _materials, _typeset, page
from tools.structure.scans import scan

MATH_INK = "\\usepackage{xcolor}\\definecolor{mathink}{RGB}{1,0,0}\\everymath{\\color{mathink}}\n"
MATH_COLOR = 0x010000
"""The colour the PDF gives a glyph drawn in MATH_INK."""
COVERED = 0.5
"""A word is math when math glyphs cover more than this share of its width."""


@dataclass(frozen=True)
class LabelledPage:
    """One scanned page read up to the inline stage: its image, prose blocks, and for each OCR
    word (in block, line, word order) whether it is math."""

    name: str
    image: np.ndarray
    blocks: tuple
    labels: tuple[tuple[tuple[bool, ...], ...], ...]
    """labels[block][line][word] for the page's prose blocks (inline_ocr.PROSE_KINDS)."""


def _scan_geometry(seed_text: str) -> tuple[int, float]:
    """The resolution and turn tools/structure/scans.scan draws from the same seed."""
    rng = random.Random(seed_text)
    dpi = rng.choice((150, 200, 240, 300))
    return dpi, rng.uniform(-1.2, 1.2)


def math_boxes(pdf: Path, seed_text: str, shape: tuple[int, int]) -> list[Box]:
    """The math glyphs' boxes on the scan: PDF points to the scan's pixels, turned as it was."""
    dpi, angle = _scan_geometry(seed_text)
    height, width = shape
    turn = cv2.getRotationMatrix2D((width / 2, height / 2), angle, 1.0)
    boxes = []
    with pymupdf.open(pdf) as document:
        raw = document[0].get_text("rawdict")
    for block in raw["blocks"]:
        for line in block.get("lines", []):
            for span in line["spans"]:
                if span["color"] != MATH_COLOR:
                    continue
                for char in span["chars"]:
                    if char["c"].isspace():
                        continue
                    x0, y0, x1, y1 = (v * dpi / 72 for v in char["bbox"])
                    corners = np.array([[x0, y0, 1], [x1, y0, 1], [x0, y1, 1], [x1, y1, 1]])
                    moved = corners @ turn.T
                    boxes.append(Box(moved[:, 0].min(), moved[:, 1].min(), moved[:, 0].max(),
                                     moved[:, 1].max()))
    return boxes


def is_math_word(word: Word, boxes: list[Box]) -> bool:
    """Math glyphs overlapping the word's band cover most of its width."""
    covered = np.zeros(max(1, int(word.box.x1 - word.box.x0) + 1), bool)
    for box in boxes:
        overlap = min(box.y1, word.box.y1) - max(box.y0, word.box.y0)
        if overlap <= 0.3 * min(box.y1 - box.y0, word.box.y1 - word.box.y0):
            continue
        a = int(max(box.x0, word.box.x0) - word.box.x0)
        b = int(min(box.x1, word.box.x1) - word.box.x0)
        if b > a:
            covered[a:b + 1] = True
    return covered.mean() > COVERED


def read_to_inline_stage(engine, image: Path):
    """The engine's page state as the inline-math stage receives it (no open document): the
    page run through the engine's own PAGE_STAGES up to that stage, with the engine's models
    (a stage's error is raised)."""
    from engine.input.document import open_document
    from engine.options import ConvertOptions
    from engine.page import PageState
    from engine.recipe import PAGE_STAGES

    names = [name for name, _ in PAGE_STAGES]
    options = ConvertOptions(write_json=False, write_content_list=False, inline_math=True)
    with open_document(Path(image)) as document:
        state = PageState(document=document, page_number=1, options=options)
        for _, stage in PAGE_STAGES[:names.index("inline_math")]:
            state = stage(state, engine.models)
    return replace(state, document=None)


def training_pages(out: Path, seed: int, count: int, engine) -> list[LabelledPage]:
    """`count` pages per family and column count from `seed`, scanned, read and labelled;
    each kept as <name>.pickle in `out` and taken from there when it is there already."""
    from engine.formulas.inline_ocr import PROSE_KINDS

    formulas, rng, prose = _materials(out, seed)
    made = []
    for family in FAMILIES:
        for columns in (1, 2):
            for index in range(count):
                name = f"spans-{family}-{columns}col-{seed}-{index:02d}"
                built = page(name, rng, prose, formulas, family, columns)
                kept = out / f"{name}.pickle"
                if kept.is_file():
                    made.append(pickle.loads(kept.read_bytes()))
                    continue
                tex = built.tex.replace("\\begin{document}", MATH_INK + "\\begin{document}")
                pdf = _typeset(replace(built, tex=tex), out)
                if pdf is None:
                    print(f"{name}: TeX failed; left out")
                    continue
                seed_text = f"{seed}-{name}"
                image = out / f"{name}-scan.jpg"
                image.write_bytes(scan(pdf.read_bytes(), random.Random(seed_text)))
                state = read_to_inline_stage(engine, image)
                if state is None or state.image is None:
                    print(f"{name}: not read as an OCR page; left out")
                    continue
                boxes = math_boxes(pdf, seed_text, state.image.shape[:2])
                blocks = tuple(b for b in state.blocks if b.kind in PROSE_KINDS)
                labels = tuple(tuple(tuple(is_math_word(w, boxes) for w in line.words)
                                     for line in block.lines) for block in blocks)
                labelled = LabelledPage(name, state.image, blocks, labels)
                kept.write_bytes(pickle.dumps(labelled))
                made.append(labelled)
                print(name, sum(map(sum, (l for b in labels for l in b))), "math words")
    return made
