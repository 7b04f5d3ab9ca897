"""Code listings: monospaced lines that read as code become one CODE block, their line breaks,
blank lines and indentation kept as shown.

The evidence differs by source. A text layer names the font (engine/input/text_layer.py sets
`Line.monospaced`). An OCR page has only geometry: in monospaced type every character advances
the same width (the pitch), so each word's ink is as wide as its characters and every word
starts on a grid of whole character widths; the grid column of a line's first word is its
indentation in spaces (the recogniser drops leading spaces). The content then tells code from
monospaced prose (a typewritten letter): brackets, operators and keywords on many lines, few
plain words. The thresholds are data (CODE_RULES, LANGUAGE_RULES), chosen on the generated
screenshots of tools/uishots (seed 1) and checked on seed 2."""

from __future__ import annotations

import math
import re
import statistics
from dataclasses import dataclass, replace

import numpy as np

from engine.types import Block, BlockKind, Line


@dataclass(frozen=True)
class CodeRules:
    min_lines: int = 2
    """A listing has at least this many lines (one line says too little about its type)."""
    min_words: int = 4
    """OCR lines: words with boxes needed to measure the pitch."""
    measure_chars: int = 3
    """Words this long or longer measure the pitch (a shorter word's ink says little)."""
    pitch_search: float = 0.08
    """The pitch is searched within this share either side of what the widths say."""
    bearing: float = 0.2
    """Ink of a word of n monospaced characters spans about n - bearing cells."""
    width_tolerance: float = 0.6
    """A word fits the pitch when its ink is within this many cells of its characters' width."""
    grid_tolerance: float = 0.3
    """A word starts on the grid when its cell start is within this share of a cell of it."""
    fit_share: float = 0.8
    """Share of the words that must fit the pitch and sit on the grid."""
    judge_words: int = 8
    """A block with fewer words is judged by the listing's grid around it, not on its own."""
    small_fit_share: float = 0.5
    """Share of such a block's words that must be as wide as their characters."""
    monospaced_share: float = 0.9
    """Text-layer lines: share of the lines set in a monospaced font."""
    token_share: float = 0.3
    """Share of the lines holding a code token (CODE_TOKEN) or starting with a keyword."""
    plain_word_share: float = 0.65
    """At most this share of the words are plain words (letters, a trailing comma or stop)."""
    letter_share: float = 0.4
    """At least this share of the characters (spaces aside) are letters: a column of figures in
    even-width digits, brackets round its losses, is no code (the set's listings: 0.61-0.83)."""
    blank_rows: int = 2
    """Blocks further apart than this many empty rows are separate listings."""
    outdent_heights: float = 4.0
    """Blocks of one listing lie above one another or at most this many line heights apart
    sideways (a line outdented below an indented one)."""
    height_ratio: float = 1.3
    """Lines of one listing differ in height by at most this ratio."""


CODE_RULES = CodeRules()

CODE_TOKEN = re.compile(r"[{}\[\]();=<>#$]|->|==|!=|&&|\|\||\+\+|::|//")
KEYWORD_START = re.compile(
    r"^\s*(def|class|import|from|return|if|elif|else|for|while|try|except|with|raise|yield|"
    r"function|const|let|var|async|await|export|public|private|static|int|void|char|struct|"
    r"fn|pub|use|package|func|echo|cd|sudo|git|pip|npm|make)\b")
PLAIN_WORD = re.compile(r"^[A-Za-z]+[,.]?$")

LANGUAGE_RULES: dict[str, tuple[str, ...]] = {
    "python": (r"^\s*def \w+\(.*\):\s*$", r"^\s*(import \w|from [\w.]+ import )",
               r"^\s*class \w+.*:\s*$", r"^\s*(elif|except)\b.*:\s*$", r"\bself\.",
               r"^\s*(for|while|if|with) .*:\s*$", r"\bNone\b|\bTrue\b|\bFalse\b"),
    "javascript": (r"^\s*(async )?function\b", r"^\s*(const|let|var) \w+ =", r"=>",
                   r"\bconsole\.log\(", r"===|!==", r"\bawait\b", r"\brequire\("),
    "c": (r"^\s*#include\s*[<\"]", r"^\s*#define\b", r"\bint main\(", r"\bprintf\(",
          r"\b(size_t|struct \w+ \*|unsigned|malloc|sizeof)\b", r"->\w"),
}
"""Language -> patterns of its lines. A hint is given when one language matches at least
HINT_MIN_HITS lines and at least HINT_MARGIN times as many as any other; shell sessions and
anything unclear get none."""
HINT_MIN_HITS = 2
HINT_MARGIN = 2.0
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
    widths = [w.box.width / (len(w.text) - rules.bearing) for w in words
              if len(w.text) >= rules.measure_chars]
    if not widths:
        return None
    pitch = _tuned_pitch(words, statistics.median(widths), rules)
    starts = [w.box.center_x - pitch * len(w.text) / 2 for w in words]
    origin = _phase_origin(starts, pitch)
    fits = sum(abs(w.box.width - pitch * (len(w.text) - rules.bearing)) <= rules.width_tolerance
               * pitch and abs(_offset(s, origin, pitch)) <= rules.grid_tolerance
               for w, s in zip(words, starts))
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
    ordered = sorted(lines, key=lambda ln: ln.box.center_y)
    leading = _leading(ordered)
    first = ordered[0].box.center_y
    rows: dict[int, list[tuple[int, str]]] = {}
    for line in ordered:
        row = round((line.box.center_y - first) / leading) if leading else 0
        rows.setdefault(row, []).extend(_pieces(line, grid))
    texts = [_row_text(rows.get(row, [])) for row in range(max(rows) + 1)]
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
    return [(_column(word, grid), word.text) for word in line.words]


def _row_text(pieces: list[tuple[int, str]]) -> str:
    out = ""
    for column, text in sorted(pieces):
        # A space is a whole cell: words the recogniser split with none between are one.
        out += " " * max(column - len(out), 0) + text
    return out


# A glyph's ink starts up to this share of a cell into it ("(", "." and "|" sit mid-cell).
INK_BEARING = 0.7


def _column(word, grid: Grid, rules: CodeRules = CODE_RULES) -> int:
    """The grid column a word starts in: from its centre when its ink is as wide as its
    characters, else (a character dropped or doubled by the recogniser) from its left edge."""
    cells = len(word.text) - rules.bearing
    if abs(word.box.width - grid.pitch * cells) <= rules.width_tolerance * grid.pitch:
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
    fitting = sum(abs(w.box.width - grid.pitch * (len(w.text) - rules.bearing))
                  <= rules.width_tolerance * grid.pitch for w in words)
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
