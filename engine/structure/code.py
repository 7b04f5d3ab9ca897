"""Code listings: monospaced lines that read as code become one CODE block, their line breaks,
blank lines and indentation kept as shown.

The evidence differs by source. A text layer names the font (engine/input/text_layer.py sets
`Line.monospaced`). An OCR page has only geometry: in monospaced type every character advances
the same width (the pitch), so each word's ink is as wide as its characters and every word
starts on a grid of whole character widths; the grid column of a line's first word is its
indentation in spaces (the recogniser drops leading spaces). The content then tells code from
monospaced prose (a typewritten letter): brackets, operators and keywords on many lines, few
plain words. The thresholds are data (engine/structure/code_rules.py)."""

from __future__ import annotations

import math
import re
import statistics
from dataclasses import dataclass, replace

import numpy as np

from engine.structure.code_rules import (CODE_RULES, CODE_TOKEN, HINT_MARGIN, HINT_MIN_HITS,
                                         KEYWORD_START, LANGUAGE_RULES, PLAIN_WORD, CodeRules)
from engine.types import Block, BlockKind, Line


_LANGUAGE_PATTERNS = {lang: tuple(re.compile(p) for p in pats)
                      for lang, pats in LANGUAGE_RULES.items()}

CODE_LIKE = {BlockKind.TEXT, BlockKind.HEADER, BlockKind.FOOTER, BlockKind.SECTION_HEADER,
             BlockKind.TITLE, BlockKind.LIST_ITEM, BlockKind.CODE}
"""Blocks a listing's lines may have been put in: the layout model boxes a listing's first
line at the top of a screenshot as a page header, a short line in larger type as a title."""


@dataclass(frozen=True)
class Grid:
    """The character cells of a listing in page pixels."""

    pitch: float
    origin: float
    """The left edge of column 0."""


def _ascii(lines: list[Line]) -> bool:
    return all(ln.text.isascii() and not ln.vertical and not ln.slanted for ln in lines)


def measure_grid(lines: list[Line], rules: CodeRules = CODE_RULES) -> Grid | None:
    """The listing's grid when its lines are monospaced, else None. OCR lines: by their words'
    widths and starts; text-layer lines: by their font."""
    if len(lines) < rules.min_lines or not _ascii(lines):
        return None
    if all(not ln.words for ln in lines):
        return _font_grid(lines, rules)
    words = [w for ln in lines for w in ln.words]
    if len(words) < rules.min_words or any(not ln.words for ln in lines):
        return None
    # A line's ink, first word to last, spans its characters less the side bearings of two
    # glyphs, which differ by font (a thin Courier leaves half a cell); over a line's length
    # that is a few per cent, which the search below takes up.
    spans = [(ln.words[-1].box.x1 - ln.words[0].box.x0) / (len(ln.text.strip()) - rules.bearing)
             for ln in lines if len(ln.text.strip()) >= rules.measure_chars]
    if not spans:
        return None
    pitch = _tuned_pitch(words, statistics.median(spans), rules)
    starts = [w.box.center_x - pitch * len(w.text) / 2 for w in words]
    origin = _phase_origin(starts, pitch)
    fits = sum(_fits(w, Grid(pitch, origin), rules) and abs(_offset(s, origin, pitch))
               <= rules.grid_tolerance for w, s in zip(words, starts))
    if fits < rules.fit_share * len(words):
        return None
    return Grid(pitch, origin)


def _tuned_pitch(words: list, guess: float, rules: CodeRules) -> float:
    """The pitch near `guess` that puts the words' cell starts most nearly on one grid (the
    widths of a few words measure it to a few per cent; a line of 60 characters needs better
    than one)."""
    centres = np.array([w.box.center_x for w in words])
    lengths = np.array([len(w.text) for w in words], dtype=float)
    pitches = guess * np.linspace(1 - rules.pitch_search, 1 + rules.pitch_search, 121)
    starts = centres[None, :] - pitches[:, None] * lengths[None, :] / 2
    phases = np.exp(2j * np.pi * starts / pitches[:, None])
    return float(pitches[int(np.argmax(np.abs(phases.mean(axis=1))))])


def _font_grid(lines: list[Line], rules: CodeRules) -> Grid | None:
    if sum(ln.monospaced for ln in lines) < rules.monospaced_share * len(lines):
        return None
    pitches = [ln.box.width / len(ln.text) for ln in lines if len(ln.text) >= rules.measure_chars]
    if not pitches:
        return None
    return Grid(statistics.median(pitches), min(ln.box.x0 for ln in lines))


def _offset(start: float, origin: float, pitch: float) -> float:
    """How far `start` lies from the nearest grid column, in cells (-0.5 .. 0.5)."""
    cells = (start - origin) / pitch
    return cells - round(cells)


def _phase_origin(starts: list[float], pitch: float) -> float:
    """The grid's column 0: the leftmost start moved to the phase most starts share."""
    left = min(starts)
    phases = sorted(_offset(s, left, pitch) for s in starts)
    return left + pitch * statistics.median(phases)


def reads_as_code(lines: list[Line], rules: CodeRules = CODE_RULES) -> bool:
    """Whether the lines' content is code rather than monospaced prose."""
    texts = [ln.text for ln in lines]
    tokens = sum(bool(CODE_TOKEN.search(t) or KEYWORD_START.match(t)) for t in texts)
    words = [w for t in texts for w in t.split()]
    plain = sum(bool(PLAIN_WORD.match(w)) for w in words)
    chars = [ch for t in texts for ch in t if not ch.isspace()]
    letters = sum(ch.isalpha() for ch in chars)
    return (tokens >= rules.token_share * len(texts) and plain <= rules.plain_word_share
            * len(words) and letters >= rules.letter_share * len(chars))


def code_text(lines: list[Line], grid: Grid) -> str:
    """The listing as shown: one text line per row, empty rows kept, each word at its column
    (pieces of one row, as a text layer may give them, put side by side)."""
    return join_rows([text for text, _ in code_rows(lines, grid)])


def code_rows(lines: list[Line], grid: Grid) -> list[tuple[str, tuple[Line, ...]]]:
    """Each row of the listing, top to bottom: its text from the grid's column 0 and the lines
    it was made of (none for an empty row)."""
    ordered = sorted(lines, key=lambda ln: ln.box.center_y)
    leading = _leading(ordered)
    first = ordered[0].box.center_y
    rows: dict[int, list[tuple[int, str]]] = {}
    held: dict[int, list[Line]] = {}
    for line in ordered:
        row = round((line.box.center_y - first) / leading) if leading else 0
        rows.setdefault(row, []).extend(_pieces(line, grid))
        held.setdefault(row, []).append(line)
    return [(_row_text(rows.get(row, [])), tuple(held.get(row, ())))
            for row in range(max(rows) + 1)]


def join_rows(texts: list[str]) -> str:
    """Rows as one listing, the indentation they share taken off."""
    indent = min(len(t) - len(t.lstrip(" ")) for t in texts if t.strip())
    return "\n".join(t[indent:].rstrip() for t in texts)


def _leading(ordered: list[Line]) -> float:
    """The distance between rows: the typical step from a line to the next, blank rows and
    pieces of one row aside."""
    height = statistics.median(ln.box.height for ln in ordered)
    steps = sorted(b.box.center_y - a.box.center_y for a, b in zip(ordered, ordered[1:]))
    steps = [s for s in steps if s > 0.5 * height]
    if not steps:
        return 0.0
    return statistics.median([s for s in steps if s <= 1.4 * steps[0]])


def _pieces(line: Line, grid: Grid) -> list[tuple[int, str]]:
    """(column, text) of a line's words, or of the whole line where it has no word boxes."""
    if not line.words:
        return [(round((line.box.x0 - grid.origin) / grid.pitch), line.text.strip())]
    pieces = [(_column(line.words[0], grid), line.words[0].text)]
    for before, word in zip(line.words, line.words[1:]):
        # Each word placed from the one before, not from the margin: a pitch off by a per cent
        # is half a cell fifty cells in.
        pieces.append((pieces[-1][0] + len(pieces[-1][1]) + _spaces(before, word, grid),
                       word.text))
    return pieces


def _spaces(before, word, grid: Grid, rules: CodeRules = CODE_RULES) -> int:
    """Spaces between two words: none where their ink is no further apart than two letters'
    (the recogniser split one word); else counted between their centres (glyphs' side
    bearings differ by font and by glyph, "||" is narrow ink in two cells), or across the gap
    where a word lost a character."""
    gap = word.box.x0 - before.box.x1
    if gap < rules.word_gap * grid.pitch:
        return 0
    if _short(before, grid, rules) or _short(word, grid, rules):
        return max(1, round(gap / grid.pitch - rules.bearing))
    between = ((word.box.center_x - before.box.center_x) / grid.pitch
               - (len(before.text) + len(word.text)) / 2)
    return max(1, round(between))


def _short(word, grid: Grid, rules: CodeRules = CODE_RULES) -> bool:
    """Whether a word's ink is wider than its characters: the recogniser dropped one (a doubled
    "__" read as one), so its centre is not theirs."""
    return (word.box.width - grid.pitch * (len(word.text) - rules.bearing)
            > rules.width_tolerance * grid.pitch)


def _fits(word, grid: Grid, rules: CodeRules = CODE_RULES) -> bool:
    """Whether a word's ink is as wide as its characters."""
    return (abs(word.box.width - grid.pitch * (len(word.text) - rules.bearing))
            <= rules.width_tolerance * grid.pitch)


def _row_text(pieces: list[tuple[int, str]]) -> str:
    out = ""
    for column, text in sorted(pieces):
        out += " " * max(column - len(out), 0) + text
    return out


BEARING = CODE_RULES.bearing
"""Ink of n monospaced characters spans about n - BEARING cells."""

# A glyph's ink starts up to this share of a cell into it ("(", "." and "|" sit mid-cell).
INK_BEARING = 0.7


def _column(word, grid: Grid, rules: CodeRules = CODE_RULES) -> int:
    """The grid column a word starts in: from its centre when its ink is as wide as its
    characters, else (a character dropped or doubled by the recogniser) from its left edge."""
    if _fits(word, grid, rules):
        return round((word.box.center_x - grid.pitch * len(word.text) / 2 - grid.origin)
                     / grid.pitch)
    return math.floor((word.box.x0 - grid.origin) / grid.pitch + 1 - INK_BEARING)


def language_hint(code: str) -> str:
    """python, javascript or c when the listing's lines say so clearly, else ""."""
    lines = code.split("\n")
    hits = {lang: sum(any(p.search(ln) for p in patterns) for ln in lines)
            for lang, patterns in _LANGUAGE_PATTERNS.items()}
    ranked = sorted(hits.items(), key=lambda kv: kv[1], reverse=True)
    (best, top), (_, second) = ranked[0], ranked[1]
    return best if top >= HINT_MIN_HITS and top >= HINT_MARGIN * second else ""


def _monospaced(block: Block, rules: CodeRules) -> bool | None:
    """Whether a block's own lines are monospaced; None when it has too few words to say."""
    lines = list(block.lines)
    if not _ascii(lines):
        return False
    if all(not ln.words for ln in lines):
        return all(ln.monospaced for ln in lines)
    if sum(len(ln.words) for ln in lines) < rules.judge_words:
        return None
    return measure_grid(lines, replace(rules, min_lines=1)) is not None


def _set_listing(block: Block) -> bool:
    """A table of a text layer's lines all set in a monospaced font: a listing the layout model
    took for a table (its tokens set one by one in columns). OCR tables stay tables: their
    figures are often set in even-width digits."""
    return block.kind is BlockKind.TABLE and all(
        not ln.words and ln.monospaced for ln in block.lines)


def _on_grid(block: Block, grid: Grid, rules: CodeRules) -> bool:
    """A small block (a lone brace, a short first line) belongs to a listing when each of its
    lines starts on the listing's grid and most of its words are as wide as their characters
    (a misread brace or a dropped underscore changes a word's count, not where its line
    starts)."""
    if not all(ln.words for ln in block.lines):
        return all(ln.monospaced for ln in block.lines)
    for line in block.lines:
        first = line.words[0]
        # Its cells counted from its characters, or from its ink where the recogniser read
        # more or fewer characters than it shows.
        shown = max(1, round(first.box.width / grid.pitch + rules.bearing))
        starts = (first.box.x0, first.box.center_x - grid.pitch * len(first.text) / 2,
                  first.box.center_x - grid.pitch * shown / 2)
        if min(abs(_offset(x, grid.origin, grid.pitch)) for x in starts) > rules.grid_tolerance:
            return False
    words = [w for ln in block.lines for w in ln.words]
    if len(words) == 1:
        # A lone glyph read as two ("}" as "ij"): where it starts is all it can say.
        return True
    fitting = sum(_fits(w, grid, rules) for w in words)
    return fitting >= rules.small_fit_share * len(words)


def _height(block: Block) -> float:
    return statistics.median(ln.box.height for ln in block.lines)


def _neighbours(a: Block, b: Block, rules: CodeRules) -> bool:
    ha, hb = _height(a), _height(b)
    if max(ha, hb) > rules.height_ratio * min(ha, hb):
        return False
    # A closing brace at column 0 under an indented block lies left of it, not beside it.
    reach = rules.outdent_heights * max(ha, hb)
    if min(a.box.x1, b.box.x1) + reach <= max(a.box.x0, b.box.x0):
        return False
    gap = max(a.box.y0 - b.box.y1, b.box.y0 - a.box.y1)
    return gap <= (rules.blank_rows + 1) * 1.5 * max(ha, hb)


def code_blocks(blocks: list[Block], rules: CodeRules = CODE_RULES) -> list[Block]:
    """The blocks with each listing made one CODE block: neighbouring blocks of monospaced
    lines (and small blocks on their grid) whose lines, together, read as code."""
    verdicts = {i: _monospaced(b, rules) for i, b in enumerate(blocks)
                if b.lines and (b.kind in CODE_LIKE or _set_listing(b))}
    members = [i for i, v in verdicts.items() if v is not False]
    parent = {i: i for i in members}

    def root(i: int) -> int:
        while parent[i] != i:
            i = parent[i]
        return i

    for n, i in enumerate(members):
        for j in members[n + 1:]:
            if _neighbours(blocks[i], blocks[j], rules):
                parent[root(j)] = root(i)
    clusters: dict[int, list[int]] = {}
    for i in members:
        clusters.setdefault(root(i), []).append(i)
    replaced: dict[int, Block | None] = {}
    for cluster in clusters.values():
        listing = _listing([blocks[i] for i in cluster], [verdicts[i] for i in cluster], rules)
        if listing is not None:
            held = {id(ln) for ln in listing.lines}
            kept = [i for i in cluster if id(blocks[i].lines[0]) in held]
            replaced.update({i: None for i in kept})
            replaced[min(kept)] = listing
    return [replaced.get(i, b) for i, b in enumerate(blocks) if replaced.get(i, b) is not None]


def _listing(members: list[Block], verdicts: list[bool | None], rules: CodeRules
             ) -> Block | None:
    # The grid is measured on the blocks that are monospaced on their own, or, where none is
    # large enough to say, on the small ones together; small blocks off that grid are left out.
    core = [b for b, v in zip(members, verdicts) if v]
    small = [b for b, v in zip(members, verdicts) if v is None]
    grid = measure_grid([ln for b in core or small for ln in b.lines], replace(rules, min_lines=1))
    if grid is None:
        return None
    kept = core + [b for b in small if _on_grid(b, grid, rules)]
    if not kept:
        return None
    lines = [ln for b in kept for ln in b.lines]
    grid = measure_grid(lines, rules)
    if grid is None or not reads_as_code(lines, rules):
        return None
    ordered = tuple(sorted(lines, key=lambda ln: ln.box.center_y))
    box = kept[0].box
    for block in kept[1:]:
        box = box.union(block.box)
    text = code_text(list(ordered), grid)
    return Block(BlockKind.CODE, box, ordered, text, min(ln.score for ln in ordered),
                 language=language_hint(text))
