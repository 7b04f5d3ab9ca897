"""Drawing Chinese pages with PyMuPDF: Noto CJK fonts (Debian `fonts-noto-cjk`), line breaking
by character with the usual rule that no line starts with closing punctuation, horizontal and
vertical (top to bottom, columns right to left) text, and the truth in reading order.

Vertical text is real vertical writing in the PDF: the font's /Encoding is Identity-V, so a
PDF reader sees one run per column written downwards, as vertical CJK producers write it.
Fonts are subset per page with fontTools, so a page is kilobytes, not the 24 MB face."""

from __future__ import annotations

import functools
import io
import random
from dataclasses import dataclass, field
from pathlib import Path

import pymupdf
from fontTools import subset
from fontTools.ttLib import TTCollection, TTFont

FONT_DIR = Path("/usr/share/fonts/opentype/noto")
FACES = {"serif": "NotoSerifCJK-Regular.ttc", "sans_bold": "NotoSansCJK-Bold.ttc"}
SIMPLIFIED = "Noto Serif CJK SC", "Noto Sans CJK SC"
NO_LINE_START = set("，。、；：？！）》」』”’％…—,.;:?!)")
LEADING = 1.55
"""Baseline to baseline, in font sizes: Chinese body text is set loosely."""


class FontMissing(RuntimeError):
    """The Noto CJK fonts are not installed."""


@functools.lru_cache(maxsize=None)
def face_bytes(name: str) -> bytes:
    """The Simplified Chinese face of a Noto CJK collection, as an OpenType font."""
    path = FONT_DIR / FACES[name]
    if not path.is_file():
        raise FontMissing(f"{path} is missing: install the Debian package fonts-noto-cjk "
                          "(tools/system_deps.sh does)")
    collection = TTCollection(str(path), lazy=True)
    for font in collection.fonts:
        if font["name"].getDebugName(1) in SIMPLIFIED:
            out = io.BytesIO()
            font.save(out)
            return out.getvalue()
    raise FontMissing(f"{path} holds no Simplified Chinese face")


@functools.lru_cache(maxsize=None)
def measuring_font(name: str) -> pymupdf.Font:
    return pymupdf.Font(fontbuffer=face_bytes(name))


def subset_font(name: str, text: str, tag: str) -> bytes:
    """The face cut down to the characters of `text`; `tag` renames it, so the horizontal and
    vertical fonts of a page never collapse into one PDF font."""
    font = TTFont(io.BytesIO(face_bytes(name)))
    options = subset.Options()
    options.layout_features = []
    options.name_IDs = ["*"]
    options.notdef_outline = True
    cutter = subset.Subsetter(options)
    cutter.populate(text=text)
    cutter.subset(font)
    _number_cids_by_glyph(font)
    for record in font["name"].names:
        if record.nameID in (1, 4, 6):
            record.string = f"{record.toUnicode()} {tag}".replace(" ", "-" if
                                                                   record.nameID == 6 else " ")
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()


def _number_cids_by_glyph(font: TTFont) -> None:
    """A CID-keyed CFF face renamed so that each glyph's CID is its glyph id again: PyMuPDF
    writes glyph ids as CIDs and a PDF reader finds the glyph by CID, which subsetting had
    left at the full face's numbers."""
    order = font.getGlyphOrder()
    names = [".notdef"] + [f"cid{i:05d}" for i in range(1, len(order))]
    rename = dict(zip(order, names))
    for tag in ("GSUB", "GPOS", "GDEF", "BASE"):
        if tag in font:
            del font[tag]
    if "VORG" in font:
        origins = font["VORG"]
        origins.VOriginRecords = {rename[k]: v for k, v in origins.VOriginRecords.items()}
    top = font["CFF "].cff.topDictIndex[0]
    top.CharStrings.charStrings = {rename[k]: v for k, v in top.CharStrings.charStrings.items()}
    top.charset = names
    for tag in ("hmtx", "vmtx"):
        if tag in font:
            font[tag].metrics = {rename[k]: v for k, v in font[tag].metrics.items()}
    for table in font["cmap"].tables:
        table.cmap = {code: rename[name] for code, name in table.cmap.items()}
    font.setGlyphOrder(names)


def break_lines(text: str, face: str, size: float, width: float) -> list[str]:
    """`text` cut into lines no wider than `width`; closing punctuation hangs at a line's end
    rather than starting the next one."""
    font = measuring_font(face)
    lines: list[str] = []
    line, used = "", 0.0
    for char in text:
        advance = font.text_length(char, fontsize=size)
        if line and used + advance > width:
            if char not in NO_LINE_START:
                lines.append(line)
                line, used = "", 0.0
                if char == " ":
                    continue
            elif used > width and len(line) > 2:
                # One mark may hang past the edge; before a second one the last character
                # goes over to the next line with the marks.
                lines.append(line[:-2])
                line = line[-2:]
                used = font.text_length(line, fontsize=size)
        line += char
        used += advance
    if line.strip():
        lines.append(line)
    return lines


@dataclass(frozen=True)
class Run:
    """One line of text: horizontal from its baseline start, or vertical from its column's
    top centre."""

    face: str
    size: float
    x: float
    y: float
    text: str
    vertical: bool = False


@dataclass
class CjkSheet:
    page: pymupdf.Page
    truth: list[str] = field(default_factory=list)
    pieces: list[list[Run]] = field(default_factory=list)
    """Runs grouped as drawn (a paragraph's piece, a heading); `finish` writes them in this
    order or shuffled."""

    def lines(self, rect: pymupdf.Rect, text: str, size: float, face: str = "serif",
              indent: float = 0.0, centre: bool = False) -> tuple[str, float]:
        """Horizontal lines of `text` in `rect` (the first indented by `indent` points) as far
        as they fit; returns (what did not fit, the y below the last line, rect.y0 if none)."""
        if rect.height < size * LEADING or rect.width < size * 3:
            return text, rect.y0
        first = break_lines(text, face, size, rect.width - indent)
        lines = first[:1] + break_lines("".join(first[1:]), face, size, rect.width)
        room = int((rect.height - size) // (size * LEADING)) + 1
        placed, rest = lines[:room], "".join(lines[room:])
        runs = []
        for i, line in enumerate(placed):
            x = rect.x0 + (indent if i == 0 else 0.0)
            if centre:
                x = rect.x0 + (rect.width - measuring_font(face).text_length(line, size)) / 2
            runs.append(Run(face, size, x, rect.y0 + size * 0.88 + i * size * LEADING, line))
        self.pieces.append(runs)
        return rest, rect.y0 + len(placed) * size * LEADING

    def columns_down(self, rect: pymupdf.Rect, text: str, size: float, face: str = "serif",
                     indent: int = 0) -> tuple[str, float]:
        """Vertical columns of `text` filling `rect` from its right edge leftwards (the first
        column starting `indent` characters down); returns (what did not fit, the x left of
        the last column, rect.x1 if none)."""
        per_column = int(rect.height // size)
        pitch = size * LEADING
        if per_column < 3 or rect.width < size:
            return text, rect.x1
        count = int((rect.width - size) // pitch) + 1
        runs, at, column = [], 0, 0
        while at < len(text) and column < count:
            room = per_column - (indent if column == 0 else 0)
            end = at + room
            if end < len(text) and text[end] in NO_LINE_START:
                # One closing mark hangs at the foot of the column; before a second one a
                # character goes over to the next column with them.
                two = end + 1 < len(text) and text[end + 1] in NO_LINE_START
                end += -1 if two else 1
            top = rect.y0 + (indent * size if column == 0 else 0.0)
            runs.append(Run(face, size, rect.x1 - size / 2 - column * pitch, top, text[at:end],
                            vertical=True))
            at, column = end, column + 1
        self.pieces.append(runs)
        return text[at:], rect.x1 - column * pitch

    def heading(self, rect: pymupdf.Rect, text: str, level: int, size: float,
                centre: bool = False, vertical: bool = False) -> float:
        """A heading drawn whole (else ValueError); returns the y below it (x left of it when
        vertical), with some air."""
        if vertical:
            rest, edge = self.columns_down(rect, text, size, "sans_bold")
            end = edge - size * 0.6
        else:
            rest, edge = self.lines(rect, text, size, "sans_bold", centre=centre)
            end = edge + size * 0.4
        if rest:
            raise ValueError("heading does not fit")
        self.truth.append(f"{'#' * level} {text}")
        return end

    def paragraph(self, text: str, continues: bool) -> None:
        if continues and self.truth:
            self.truth[-1] += text
        else:
            self.truth.append(text)

    def rule(self, start: tuple[float, float], end: tuple[float, float]) -> None:
        self.page.draw_line(start, end, color=(0, 0, 0), width=0.8)

    def finish(self, rng: random.Random, shuffled: bool) -> None:
        """Fonts subset to what the page uses, then the runs written: in reading order, or in
        another order (as many producers do), so the PDF's own order is not the truth."""
        order = list(self.pieces)
        if shuffled:
            rng.shuffle(order)
        runs = [run for piece in order for run in piece]
        fonts: dict[tuple[str, bool], pymupdf.Font | str] = {}
        for face in sorted({r.face for r in runs}):
            across = "".join(r.text for r in runs if r.face == face and not r.vertical)
            down = "".join(r.text for r in runs if r.face == face and r.vertical)
            if across:
                fonts[face, False] = pymupdf.Font(fontbuffer=subset_font(face, across, "H"))
            if down:
                name = f"V{face[:3]}"
                xref = self.page.insert_font(fontname=name,
                                             fontbuffer=subset_font(face, down, "V"))
                # The same glyphs, written downwards: a reader places each after the one above.
                self.page.parent.xref_set_key(xref, "Encoding", "/Identity-V")
                fonts[face, True] = name
        writer = pymupdf.TextWriter(self.page.rect)
        for run in runs:
            if not run.vertical:
                writer.append((run.x, run.y), run.text, font=fonts[run.face, False],
                              fontsize=run.size)
        writer.write_text(self.page)
        for run in runs:
            if run.vertical:
                # The vertical origin is the top centre, 0.88 em above the first glyph's box.
                self.page.insert_text((run.x, run.y - 0.88 * run.size), run.text,
                                      fontname=fonts[run.face, True], fontsize=run.size)
