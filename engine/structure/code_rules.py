"""The rules that tell a code listing, as data: thresholds on the geometry of monospaced type
and on what code looks like (engine/structure/code.py applies them). Chosen on the generated
screenshots of tools/uishots, seed 1; checked on seeds 2 and 3 (README, Screenshots)."""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class CodeRules:
    min_lines: int = 2
    """A listing has at least this many lines (one line says too little about its type)."""
    min_words: int = 4
    """OCR lines: words with boxes needed to measure the pitch."""
    measure_chars: int = 6
    """Lines this long or longer measure the pitch."""
    pitch_search: float = 0.08
    """The pitch is searched within this share either side of what the lines' spans say."""
    bearing: float = 0.2
    """Ink of a word of n monospaced characters spans about n - bearing cells."""
    width_tolerance: float = 0.6
    """A word fits the pitch when its ink is within this many cells of its characters' width."""
    grid_tolerance: float = 0.3
    """A word starts on the grid when its cell start is within this share of a cell of it."""
    fit_share: float = 0.8
    """Share of the words that must fit the pitch and sit on the grid."""
    word_gap: float = 0.6
    """Ink this many cells apart or closer is one word: the gap between two letters is a few
    tenths of a cell, a space a whole one and more."""
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
