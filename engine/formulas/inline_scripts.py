"""Scripts the OCR read flat, found in a line's ink: "Yi" printed as Y with a lowered, smaller
i is Y_i, "108" with a raised, smaller 8 is 10^8.

The recogniser writes a subscript or a power on the line as any other character, and a word
such as "Yi", "bj" or "mp" reads as prose. Its ink says otherwise: the line's letters sit on
one baseline and reach one x-height (`line_ink`), and a script is a glyph smaller than them,
sunk below that baseline or lifted above it beside a glyph that is not (`script_of`). The
thresholds are `ScriptRules`, in units of the line's x-height."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from engine.formulas.glyphs import RULES
from engine.types import Box, Line, Word

_TRAILING = ".,;:"


@dataclass(frozen=True)
class ScriptRules:
    """Where a glyph must lie to be a script, in x-heights of its line (a lowercase letter
    without ascender is 1). Set by hand from the shapes TeX gives scripts (a subscript is about
    0.7 high and lowered by about 0.35, a power raised to about half its height) and checked
    on the math set's tuning scans (`python -m tools.mathset.choose_spans --scripts`;
    docs/adr/0024-inline-math-on-scans-by-a-trained-span-classifier.md)."""

    sub_below: float = 0.15
    """A subscript reaches at least this far below the baseline (descenders reach ~0.45 but
    their tops reach the x-height too)."""
    sub_top: float = 0.75
    """A subscript's top is lower than this over the baseline (a letter's is at 1.0)."""
    sub_rise: float = 0.25
    """... and higher than this over it (a comma's top hardly leaves the baseline)."""
    sup_above: float = 0.4
    """A power's bottom is at least this far over the baseline (0.3 took a 5 whose foot the
    scan lost for a power, "45" as 4^5 on a scanned exercise list; 0.4 on the tuning seeds
    3, 1, 4 at count 3: the same or more formulas found, none lost)."""
    min_height: float = 0.4
    """A script glyph is at least this high (a quotation mark, a hyphen are less)."""
    base_above: float = 0.2
    """The glyph before a script reaches at least this much higher (subscript) or lower
    (power) than the script."""
    max_base: int = 3
    """At most this many digits before a script ("10"); a letter's base is one letter."""
    max_script: int = 2
    """At most this many characters in it ("i", "ij", "10")."""
    ink_level: float = 0.5
    """A pixel is ink when it is darker than paper by this share of the way to the darkest
    ink (0.35 and 0.25 tried on seed 3's scans: fewer scripts found, not more)."""


SCRIPTS = ScriptRules()


@dataclass(frozen=True)
class LineInk:
    """The glyphs of one OCR line and the line's baseline and x-height in page pixels."""

    glyphs: tuple[Box, ...]
    """One box per glyph of ink in page pixels (dots and accents joined to the stroke under
    them)."""
    slope: float
    offset: float
    """The baseline's y at page x is slope * x + offset (a scan is turned a little)."""
    x_height: float

    def baseline(self, x: float) -> float:
        return self.slope * x + self.offset


@dataclass(frozen=True)
class Script:
    """A word whose characters from `start` on are a subscript ("sub") or a power ("sup")."""

    start: int
    kind: str


def _joined(boxes: list[list[float]], gap: float) -> list[Box]:
    """Pieces of ink that share most of their width and stand less than `gap` apart (the dot
    of an i, the bars of =, an accent) made one glyph."""
    boxes = sorted(boxes)
    out: list[list[float]] = []
    for box in boxes:
        if out:
            last = out[-1]
            shared = min(last[2], box[2]) - max(last[0], box[0])
            apart = max(last[1], box[1]) - min(last[3], box[3])
            if shared > 0.5 * min(last[2] - last[0], box[2] - box[0]) and apart < gap:
                out[-1] = [min(last[0], box[0]), min(last[1], box[1]), max(last[2], box[2]),
                           max(last[3], box[3])]
                continue
        out.append(box)
    return [Box(*b) for b in out]


def line_ink(grey: np.ndarray, line: Line, rules: ScriptRules = SCRIPTS) -> LineInk | None:
    """The line's glyphs in its band (pieces of ink whose middle lies in the line's box), its
    baseline (a straight line through the bottoms of its letter-sized glyphs, refitted without
    those far off it: descenders) and x-height (the lower quarter of the heights of the glyphs
    on that baseline); None for a band too faint or with too few glyphs to tell."""
    height, width = grey.shape
    tall = line.box.y1 - line.box.y0
    pad = 0.15 * tall
    y0, y1 = max(0, int(line.box.y0 - pad)), min(height, int(np.ceil(line.box.y1 + pad)))
    x0, x1 = max(0, int(line.box.x0)), min(width, int(np.ceil(line.box.x1)))
    if y1 - y0 < 8 or x1 - x0 < 8:
        return None
    band = grey[y0:y1, x0:x1]
    paper, dark = float(np.percentile(band, 90)), float(band.min())
    if paper - dark < 40:
        return None
    ink = (band < paper - rules.ink_level * (paper - dark)).astype(np.uint8)
    count, _, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    speck = max(3.0, (0.04 * tall) ** 2)
    boxes = []
    for left, top, w, h, area in stats[1:count]:
        middle = y0 + top + h / 2
        if area < speck or not line.box.y0 <= middle <= line.box.y1:
            continue  # noise, or a piece of the line above or below
        boxes.append([float(x0 + left), float(y0 + top), float(x0 + left + w),
                      float(y0 + top + h)])
    glyphs = _joined(boxes, 0.15 * tall)
    letters = [g for g in glyphs if g.y1 - g.y0 >= 0.15 * tall]
    if len(letters) < 4:
        return None
    centres = np.array([(g.x0 + g.x1) / 2 for g in letters])
    bottoms = np.array([g.y1 for g in letters])
    keep = np.ones(len(letters), bool)
    for _ in range(3):  # the baseline, turned with the scan: descenders fall out of the fit
        slope, offset = np.polyfit(centres[keep], bottoms[keep], 1)
        keep = np.abs(bottoms - (slope * centres + offset)) <= 0.08 * tall
        if keep.sum() < 3:
            return None
    heights = [slope * c + offset - g.y0 for c, g, k in zip(centres, letters, keep) if k]
    x_height = float(np.percentile(heights, 25))
    if x_height < 0.15 * tall:
        return None
    return LineInk(tuple(glyphs), float(slope), float(offset), x_height)


def _core(text: str) -> str:
    return text.rstrip(_TRAILING) or text


def _kind(glyph: Box, base: Box, ink: LineInk, rules: ScriptRules) -> str | None:
    """"sub" or "sup" where the glyph sits as a script beside the base glyph before it."""
    b, x = ink.baseline((glyph.x0 + glyph.x1) / 2), ink.x_height
    if glyph.y1 - glyph.y0 < rules.min_height * x:
        return None
    if (glyph.y1 >= b + rules.sub_below * x and b - rules.sub_top * x <= glyph.y0
            <= b - rules.sub_rise * x and base.y0 <= glyph.y0 - rules.base_above * x):
        return "sub"
    if glyph.y1 <= b - rules.sup_above * x and base.y1 >= glyph.y1 + rules.base_above * x:
        return "sup"
    return None


def _stop(glyph: Box, ink: LineInk, rules: ScriptRules) -> bool:
    """A stop or comma: a glyph too small to be a letter, at the baseline."""
    b, x = ink.baseline((glyph.x0 + glyph.x1) / 2), ink.x_height
    return glyph.y1 - glyph.y0 < rules.min_height * x and glyph.y0 > b - rules.min_height * x


def may_be_scripted(word: Word, rules: ScriptRules = SCRIPTS) -> bool:
    """A word short enough and of letters and digits only, not a small word of English or a
    word in capitals ("IP", "THE": a capital the scan broke looks raised): one whose ink is
    worth looking at for a script."""
    text = _core(word.text)
    return (2 <= len(text) <= rules.max_base + rules.max_script and text.isalnum()
            and text.lower() not in RULES.stopwords and not (text.isalpha() and text.isupper()))


def script_of(word: Word, ink: LineInk | None, rules: ScriptRules = SCRIPTS) -> Script | None:
    """Where the word's characters turn into a script, by the glyphs under its box: the first
    glyph after its first that sits as a subscript or power beside the one before it, and
    every glyph after that one sitting the same way. The characters are matched to glyphs by
    their place across the word's box. None when the word is not a short base with a short
    script of letters and digits ("Yi", "x2", "108", not "word1" or "x,")."""
    if ink is None or not may_be_scripted(word, rules):
        return None
    text = _core(word.text)
    left, right = word.box.x0, word.box.x1
    inside = [g for g in ink.glyphs if left <= (g.x0 + g.x1) / 2 <= right]
    while inside and len(word.text) > len(text) and _stop(inside[-1], ink, rules):
        inside = inside[:-1]  # the stop or comma after the word is not a script
    for i in range(1, len(inside)):
        kind = _kind(inside[i], inside[i - 1], ink, rules)
        if kind is None:
            continue
        if any(_kind(g, inside[i - 1], ink, rules) != kind for g in inside[i + 1:]):
            return None
        share = (inside[i].x0 - left) / max(1.0, right - left)
        start = min(len(text) - 1, max(1, round(share * len(word.text))))
        base = text[:start]
        if (len(text) - start > rules.max_script
                or not (len(base) == 1 and base.isalpha() or base.isdigit()
                        and len(base) <= rules.max_base)):
            return None
        return Script(start, kind)
    return None


def line_scripts(grey: np.ndarray, line: Line) -> dict[int, Script]:
    """The words of the line whose ink shows a script the OCR wrote flat, by word id; the
    line's ink is looked at only where a word could be one (`may_be_scripted`)."""
    if not any(may_be_scripted(w) for w in line.words):
        return {}
    ink = line_ink(grey, line)
    found = {id(w): script_of(w, ink) for w in line.words if may_be_scripted(w)}
    return {key: script for key, script in found.items() if script is not None}


def scripted_latex(text: str, script: Script, spell) -> str:
    """The word's LaTeX with its script set as one: "Yi" -> Y_{i}, "108" -> 10^{8}; `spell`
    writes the plain characters (a comma or stop after the word kept)."""
    core = _core(text)
    mark = "_" if script.kind == "sub" else "^"
    return (spell(core[:script.start]) + mark + "{" + spell(core[script.start:]) + "}"
            + text[len(core):])
