"""The PDF text layer: pull lines with boxes and fonts, and judge whether the layer can be trusted."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

import numpy as np
import pymupdf

from engine.types import Box, Line

# Share of bad characters (private use, U+FFFD, controls) above which a layer is garbled: a
# font without a usable ToUnicode map yields either of them for most glyphs.
GARBLED_CHAR_SHARE = 0.10
# An existing OCR layer is invisible text (render mode 3) on top of a page image.
INVISIBLE_TEXT_SHARE = 0.5
# A page mostly covered by images with only a caption's worth of text is really a picture.
IMAGE_PAGE_COVERAGE = 0.5
IMAGE_PAGE_MAX_CHARS = 300
MIN_USEFUL_CHARS = 3


@dataclass(frozen=True)
class TextLayerVerdict:
    usable: bool
    reason: str


def assess_text_layer(page: pymupdf.Page) -> TextLayerVerdict:
    """Whether the page's text layer is real text a reader would accept, with the reason."""
    trace = page.get_texttrace()
    chars = [c[0] for span in trace for c in span["chars"]]
    visible = sum(len(span["chars"]) for span in trace if span["type"] != 3 and span["opacity"] > 0)
    total = len(chars)
    if total < MIN_USEFUL_CHARS:
        return TextLayerVerdict(False, "no text layer")
    bad = sum(1 for code in chars if _is_bad_char(code))
    if bad / total > GARBLED_CHAR_SHARE:
        return TextLayerVerdict(False, f"garbled text layer ({bad / total:.0%} unmapped or "
                                       "private-use characters)")
    shaped = unmapped_clusters("".join(chr(c) for c in chars if 0 < c <= 0x10FFFF))
    if shaped:
        return TextLayerVerdict(False, f"garbled text layer ({shaped} text with glyphs mapped to "
                                       "no character or to stray ones)")
    if (total - visible) / total > INVISIBLE_TEXT_SHARE:
        return TextLayerVerdict(False, "invisible text over an image (an existing OCR layer of "
                                       "unknown quality)")
    coverage = image_coverage(page)
    if coverage >= IMAGE_PAGE_COVERAGE and visible < IMAGE_PAGE_MAX_CHARS:
        return TextLayerVerdict(False, f"page is mostly image ({coverage:.0%} of its area) with "
                                       f"only {visible} characters of text")
    return TextLayerVerdict(True, f"text layer with {visible} characters")


# Scripts whose letters a font shapes into clusters of glyphs (Unicode name's first word): a PDF
# maps a cluster's conjunct or reordered glyphs to nothing (U+FFFD) or to unrelated characters
# ("द³ɢ ण" for दक्षिण), so a few such characters inside words garble the text.
SHAPED_SCRIPTS = ("DEVANAGARI", "BENGALI", "GURMUKHI", "GUJARATI", "ORIYA", "TAMIL", "TELUGU",
                  "KANNADA", "MALAYALAM", "SINHALA", "THAI", "LAO", "KHMER", "MYANMAR", "TIBETAN")
# Stray characters inside words, per word of the layer, above which it is garbled: the generated
# Hindi PDF of tools/scripts had 0.3-0.5, the Thai and Tamil ones more; a layer read right none.
STRAY_PER_WORD = 0.02


def unmapped_clusters(text: str) -> str | None:
    """The shaped script (as "Devanagari") whose text in the layer has unmapped glyphs: U+FFFD,
    or characters of no script (digits, symbols, other scripts' letters) inside its words."""
    scripts = [unicodedata.name(c, "").split(" ", 1)[0] for c in text if c.isalpha()]
    if not scripts:
        return None
    main = max(set(scripts), key=scripts.count)
    if main not in SHAPED_SCRIPTS or scripts.count(main) < len(scripts) / 2:
        return None
    words = text.split()
    stray = 0
    for word in words:
        inner = word.strip(".,;:!?()[]\"'\u0964\u0965")
        own = [unicodedata.name(c, "").startswith(main) for c in inner]
        if any(own):
            stray += sum(1 for c, mine in zip(inner, own)
                         if not mine and (c == "\ufffd" or unicodedata.category(c)[0] in "LNS"))
    return main.title() if words and stray / len(words) > STRAY_PER_WORD else None


def _is_bad_char(code: int) -> bool:
    if code in (0xFFFD, 0) or 0xE000 <= code <= 0xF8FF:
        return True
    ch = chr(code) if 0 <= code <= 0x10FFFF else "\ufffd"
    return unicodedata.category(ch) == "Cc" and ch not in "\t\n\r"


def image_coverage(page: pymupdf.Page) -> float:
    """Share of the page area covered by images (overlaps counted once, on a coarse grid)."""
    page_rect = page.rect
    rects = [pymupdf.Rect(info["bbox"]) & page_rect for info in page.get_image_info()]
    rects = [r for r in rects if not r.is_empty]
    if not rects or page_rect.is_empty:
        return 0.0
    grid = 128
    mask = np.zeros((grid, grid), dtype=bool)
    sx, sy = grid / page_rect.width, grid / page_rect.height
    for r in rects:
        x0 = int(round((r.x0 - page_rect.x0) * sx))
        x1 = int(round((r.x1 - page_rect.x0) * sx))
        y0 = int(round((r.y0 - page_rect.y0) * sy))
        y1 = int(round((r.y1 - page_rect.y0) * sy))
        mask[y0:y1, x0:x1] = True
    return float(mask.mean())


# A line whose direction is further than this (the sine of 5 degrees) off both axes is slanted;
# a text layer's straight lines are exact to a millionth.
SLANT = 0.087


# Monospaced fonts whose files do not set the fixed-pitch flag, by name: Courier, TeX's
# typewriter faces (CMTT, LM Mono, TX TT), the common programming fonts.
MONOSPACED_FONT = re.compile(r"mono|courier|consol|menlo|cmtt|txtt", re.IGNORECASE)
# Symbol and Wingdings fonts without a ToUnicode map give their glyphs as U+F000 plus the
# font's code: Word's and LibreOffice's list bullets come out as private-use characters that
# no reader or list rule knows. The bullets of Word's bullet library, by font (Adobe's Symbol
# encoding, Microsoft's Wingdings chart), made the characters they show.
SYMBOL_FONT_BULLETS = (
    (re.compile(r"symbol", re.IGNORECASE), {0xF0B7: "\u2022"}),
    (re.compile(r"wingdings", re.IGNORECASE),
     {0xF0A7: "\u25aa", 0xF06E: "\u25a0", 0xF0D8: "\u27a2", 0xF076: "\u2756",
      0xF0FC: "\u2713"}),
)


def extract_lines(page: pymupdf.Page, scale: float) -> list[Line]:
    """Visible text lines of the page in pixel coordinates of an image rendered at `scale`."""
    flags = pymupdf.TEXT_PRESERVE_LIGATURES | pymupdf.TEXT_PRESERVE_WHITESPACE
    data = page.get_text("dict", flags=flags)
    lines: list[Line] = []
    for block in data["blocks"]:
        if block.get("type") != 0:
            continue
        for raw in block["lines"]:
            spans = [symbol_bullets(s) for s in raw["spans"]
                     if s["text"].strip() and s.get("alpha", 255) > 0]
            if not spans:
                continue
            text = _join_spans(spans)
            if not _visible(text):
                continue
            x0, y0, x1, y1 = raw["bbox"]
            main = max(spans, key=lambda s: len(s["text"].strip()))
            bold = bool(main["flags"] & pymupdf.TEXT_FONT_BOLD) or "bold" in main["font"].lower()
            monospaced = (bool(main["flags"] & pymupdf.TEXT_FONT_MONOSPACED)
                          or MONOSPACED_FONT.search(main["font"]) is not None)
            dx, dy = raw.get("dir", (1.0, 0.0))
            if monospaced and dx > 0 and abs(dy) < SLANT:
                # A listing's indentation written as spaces: the line starts at its first
                # character, as it does when the indentation is a position.
                x0 = max(x0, _first_ink(spans[0]))
            # TeX sets double quotes as two single ones; a reader sees one double quote.
            text = text.replace("\u2018\u2018", "\u201c").replace("\u2019\u2019", "\u201d")
            text = compose_spacing_accents(nominal_forms(text))
            lines.append(Line(text=" ".join(text.split()), box=Box(x0, y0, x1, y1).scaled(scale),
                              score=1.0, font_size=float(main["size"]) * scale, bold=bold,
                              vertical=abs(dy) > abs(dx),
                              slanted=min(abs(dx), abs(dy)) > SLANT, monospaced=monospaced))
    return lines


def symbol_bullets(span: dict) -> dict:
    """A span of a Symbol or Wingdings font with its private-use bullets made the bullets."""
    for font, bullets in SYMBOL_FONT_BULLETS:
        if font.search(span["font"]) and any(ord(c) in bullets for c in span["text"]):
            return {**span, "text": span["text"].translate(bullets)}
    return span


def _first_ink(span: dict) -> float:
    """Where a span's first character that is not a space begins (monospaced: whole cells)."""
    text = span["text"]
    lead = len(text) - len(text.lstrip(" "))
    sx0, _, sx1, _ = span["bbox"]
    return sx0 + lead * (sx1 - sx0) / len(text)


# TeX builds accented letters from a spacing accent glyph followed by the letter ("J\u00b4an");
# readers and search need the composed letter ("J\u00e1n").
_SPACING_ACCENTS = {"\u00b4": "\u0301", "\u02c6": "\u0302", "\u02dc": "\u0303", "\u00a8": "\u0308",
                    "\u02c7": "\u030c", "\u02d8": "\u0306", "\u02da": "\u030a", "\u02d9": "\u0307"}
_ACCENT_THEN_LETTER = re.compile("([" + "".join(_SPACING_ACCENTS) + "]) ?([A-Za-z\u0131])")


def _visible(text: str) -> bool:
    """Whether a line shows anything: a line of zero-width spaces and joiners (format
    characters, which web pages printed to PDF leave between blocks) is no paragraph."""
    return any(not c.isspace() and unicodedata.category(c) != "Cf" for c in text)


# Unicode's compatibility tags of contextual glyph forms: Arabic presentation forms (U+FB50-
# U+FDFF, U+FE70-U+FEFF) that a PDF maps its shaped glyphs to, lam-alef ligatures included.
_SHAPED_FORMS = ("<initial>", "<medial>", "<final>", "<isolated>")


def nominal_forms(text: str) -> str:
    """Presentation forms (a shaped glyph's contextual form) made the letters they show, by
    NFKC on those characters alone, so search and copy find the word as typed; other
    compatibility characters are left as the PDF has them."""
    if all(ord(c) < 0xFB50 for c in text):
        return text
    return "".join(unicodedata.normalize("NFKC", c)
                   if unicodedata.decomposition(c).startswith(_SHAPED_FORMS) else c
                   for c in text)


def compose_spacing_accents(text: str) -> str:
    def compose(match: re.Match[str]) -> str:
        letter = "i" if match.group(2) == "\u0131" else match.group(2)
        return unicodedata.normalize("NFC", letter + _SPACING_ACCENTS[match.group(1)])
    return _ACCENT_THEN_LETTER.sub(compose, text)


def _join_spans(spans: list[dict]) -> str:
    """Spans of one line, with a space where the gap between them is wider than a thin space."""
    parts: list[str] = []
    prev_x1: float | None = None
    for span in spans:
        text = span["text"]
        if prev_x1 is not None and parts and not parts[-1].endswith(" ") and not text.startswith(" "):
            gap = span["bbox"][0] - prev_x1
            if gap > 0.15 * span["size"]:
                parts.append(" ")
        parts.append(text)
        prev_x1 = span["bbox"][2]
    return "".join(parts)
