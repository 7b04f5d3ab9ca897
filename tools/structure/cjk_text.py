"""Real Chinese prose for generated pages: the Simplified Chinese manual pages of Debian's
`manpages-zh` (GFDL-1.2+, a few pages GPL-2.0+; both allow copying and derived works), read
from the installed package, so nothing is downloaded and nothing is committed.

The roff markup is taken off, paragraphs that are almost all Chinese are kept, and the
one-line descriptions under NAME ("ls - 列目录内容") give heading-length titles."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

from engine.text import has_cjk, joins_unspaced
from tools.structure.text_source import Prose

MAN_DIR = Path("/usr/share/man/zh_CN")
DEBIAN_PACKAGE = "manpages-zh"
# A paragraph is kept when at least this share of its characters is Chinese (letters or
# CJK punctuation) and it holds no more than this many Latin letters: the pages mention
# commands and options, which a Chinese newspaper does not.
MIN_CJK_SHARE = 0.85
MAX_LATIN_LETTERS = 12

_FONT_ESCAPE = re.compile(r"\\f(\(..|\[[^\]]*\]|.)")
_SIZE_ESCAPE = re.compile(r"\\s[+-]?\d")
_NAMED_CHAR = {r"\(em": "—", r"\(en": "–", r"\(bu": "·", r"\(lq": "“", r"\(rq": "”",
               r"\(aq": "'", r"\(co": "©", r"\-": "-", r"\e": "\\", r"\ ": " ", r"\&": "",
               r"\|": "", r"\^": "", r"\c": "", r"\~": " "}
_BREAKS = {"PP", "LP", "P", "TP", "IP", "HP", "RS", "RE", "sp", "br", "SH", "SS", "TH", "nf",
           "fi", "in", "ti", "TQ", "EX", "EE", "ft", "ne", "ad", "na", "hy", "nh", "ds", "de",
           "ig", "if", "ie", "el", "so", "UR", "UE", "ps", "vs", "ce", "TS", "TE"}
_TEXT_MACROS = {"B", "I", "BR", "IR", "RB", "RI", "BI", "IB", "SM", "SB"}
_NAME_LINE = re.compile(r"^\s*\S.*?\s+(?:\\-|-|—)+\s*(?P<title>.+)$")
_CJK_TITLE = re.compile(r"[\u4e00-\u9fff]{4,16}")
_TRAILING_PUNCT = "，。；：、 "


class TextSourceMissing(RuntimeError):
    """The Chinese manual pages are not installed."""


def _plain(text: str) -> str:
    text = _FONT_ESCAPE.sub("", _SIZE_ESCAPE.sub("", text))
    for escape, char in _NAMED_CHAR.items():
        text = text.replace(escape, char)
    return text.replace('"', "").strip()


def _join(parts: list[str]) -> str:
    out = ""
    for part in (p.strip() for p in parts):
        if not part:
            continue
        if out and not (joins_unspaced(out[-1]) or joins_unspaced(part[0])):
            out += " "
        out += part
    return out


def _page_paragraphs(source: str) -> tuple[list[str], list[str]]:
    """(paragraphs, titles) of one roff manual page."""
    paragraphs: list[str] = []
    titles: list[str] = []
    current: list[str] = []
    section = ""
    for raw in source.splitlines():
        if raw.startswith((".\\\"", "'\\\"", '.\\"')):
            continue
        if raw.startswith((".", "'")):
            macro, _, rest = raw[1:].partition(" ")
            if macro in _TEXT_MACROS:
                current.append(_plain(rest))
                continue
            if macro in _BREAKS or macro:
                if current:
                    paragraphs.append(_join(current))
                    current = []
                if macro == "SH":
                    section = _plain(rest).upper()
                continue
        text = _plain(raw)
        if "NAME" in section or section.startswith("名称"):
            match = _NAME_LINE.match(text)
            if match:
                titles.append(match.group("title").strip(_TRAILING_PUNCT))
            continue
        current.append(text)
    if current:
        paragraphs.append(_join(current))
    return paragraphs, titles


def _chinese_enough(text: str) -> bool:
    visible = [ch for ch in text if not ch.isspace()]
    if not visible:
        return False
    chinese = sum(1 for ch in visible if joins_unspaced(ch))
    latin = sum(1 for ch in visible if ch.isascii() and ch.isalpha())
    return chinese / len(visible) >= MIN_CJK_SHARE and latin <= MAX_LATIN_LETTERS


def load_chinese_prose(man_dir: Path = MAN_DIR) -> Prose:
    """Paragraphs of 60-420 characters that are almost all Chinese, and titles of 4-16 Han
    characters, in a stable order."""
    files = sorted(man_dir.glob("man*/*.gz")) if man_dir.is_dir() else []
    if not files:
        raise TextSourceMissing(
            f"no Chinese manual pages under {man_dir}: install the Debian package "
            f"{DEBIAN_PACKAGE} (tools/system_deps.sh does)")
    paragraphs: dict[str, None] = {}
    titles: dict[str, None] = {}
    for path in files:
        try:
            source = gzip.decompress(path.read_bytes()).decode("utf-8")
        except (OSError, UnicodeDecodeError, EOFError):
            continue
        found, names = _page_paragraphs(source)
        for text in found:
            text = " ".join(text.split())
            if 60 <= len(text) <= 420 and _chinese_enough(text) and text[-1] in "。！？；）":
                paragraphs[text] = None
        for name in names:
            if _CJK_TITLE.fullmatch(name) and has_cjk(name):
                titles[name] = None
    return Prose(tuple(paragraphs), tuple(titles))


def without_latin(prose: Prose) -> Prose:
    """The paragraphs with no Latin letter or digit, without the spaces the manual pages put
    around words that were Latin in the original: what vertical pages are set from."""
    kept = (p for p in prose.paragraphs if not any(ch.isascii() and ch.isalnum() for ch in p))
    return Prose(tuple(dict.fromkeys("".join(p.split()) for p in kept)), prose.titles)
