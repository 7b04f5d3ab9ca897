"""Markdown to comparable plain text: syntax removal, whitespace and unicode normalisation."""

from __future__ import annotations

import html
import re
import unicodedata

from engine.formulas.latex_tokens import detokenize, normalized

_HTML_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_CODE_FENCE_LINE = re.compile(r"^\s*(```|~~~).*$", re.MULTILINE)
_IMAGE = re.compile(r"!\[[^\]]*\]\([^)]*\)")
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_HEADING_MARK = re.compile(r"^\s{0,3}#{1,6}(?=\s|$)", re.MULTILINE)
_BLOCKQUOTE_MARK = re.compile(r"^\s*(?:>\s?)+", re.MULTILINE)
_LIST_MARK = re.compile(r"^\s*(?:[-*+]|\d{1,9}[.)])\s+", re.MULTILINE)
_TABLE_SEPARATOR_ROW = re.compile(r"^\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$", re.MULTILINE)
_HORIZONTAL_RULE = re.compile(r"^\s*(?:[-*_]\s*){3,}$", re.MULTILINE)
# Tags that separate words when removed (cells, rows, paragraphs, breaks) versus inline ones.
_BLOCK_TAG = re.compile(
    r"</?(?:table|thead|tbody|tfoot|tr|td|th|br|p|div|li|ul|ol|h[1-6]|hr|caption)\b[^>]*>",
    re.IGNORECASE,
)
_ANY_TAG = re.compile(r"</?[a-zA-Z][^<>]*>")
_STRONG = re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1")
_EMPHASIS_STAR = re.compile(r"(?<![\w*\\])\*(?=[^\s*])(.+?)(?<=[^\s*\\])\*(?![\w*])")
_EMPHASIS_UNDERSCORE = re.compile(r"(?<![\w\\])_(?=[^\s_])(.+?)(?<=[^\s_\\])_(?!\w)")
_STRIKE = re.compile(r"~~(?=\S)(.+?)(?<=\S)~~")
_INLINE_CODE = re.compile(r"`+")
_ESCAPED_PUNCTUATION = re.compile(r"\\([!\"#$%&'()*+,\-./:;<=>?@\[\]^_`{|}~])")
_WHITESPACE = re.compile(r"\s+")


def normalise_whitespace(text: str) -> str:
    """Collapse every run of whitespace to one space and strip the ends."""
    return _WHITESPACE.sub(" ", text).strip()


def strip_emphasis(text: str) -> str:
    """Remove bold, italic and strike-through markers, keeping the words they wrap."""
    text = _STRONG.sub(r"\2", text)
    text = _EMPHASIS_STAR.sub(r"\1", text)
    text = _EMPHASIS_UNDERSCORE.sub(r"\1", text)
    return _STRIKE.sub(r"\1", text)


def _strip_markdown_lines(markdown: str) -> str:
    """Remove Markdown syntax but keep line breaks, so callers can still split lines."""
    text = unicodedata.normalize("NFKC", markdown.replace("\r\n", "\n").replace("\r", "\n"))
    text = _HTML_COMMENT.sub(" ", text)
    text = _CODE_FENCE_LINE.sub("", text)
    text = _IMAGE.sub(" ", text)
    text = _LINK.sub(r"\1", text)
    text = _TABLE_SEPARATOR_ROW.sub("", text)
    text = _HORIZONTAL_RULE.sub("", text)
    text = _HEADING_MARK.sub("", text)
    text = _BLOCKQUOTE_MARK.sub("", text)
    text = _LIST_MARK.sub("", text)
    text = _BLOCK_TAG.sub("\n", text)
    text = _ANY_TAG.sub("", text)
    text = strip_emphasis(text)
    text = _INLINE_CODE.sub("", text)
    # Table pipes go after emphasis so a cell's `**x**` is still paired; escaped pipes are
    # cell text, so protect them first.
    text = text.replace("\\|", "\x00")
    text = text.replace("|", " ").replace("\x00", "|")
    text = _ESCAPED_PUNCTUATION.sub(r"\1", text)
    return html.unescape(text)


def strip_markdown(markdown: str) -> str:
    """Plain text of a Markdown document, whitespace collapsed to single spaces.

    Removes heading marks, emphasis, list and quote markers, table pipes and separator rows,
    HTML tags and comments, image syntax (with its alt text), link syntax (keeping the link
    text) and code fence lines. Unicode is NFKC-normalised, so full-width punctuation and
    ligatures compare equal to their plain forms.
    """
    return normalise_whitespace(_strip_markdown_lines(markdown))


def stripped_lines(markdown: str) -> list[str]:
    """The non-empty lines of `markdown`, each stripped of syntax and whitespace-normalised."""
    lines = (normalise_whitespace(line) for line in _strip_markdown_lines(markdown).split("\n"))
    return [line for line in lines if line]


_HEADING_LINE = re.compile(r"^\s{0,3}(#{1,6})\s+(.+?)\s*#*\s*$", re.MULTILINE)
_HTML_HEADING = re.compile(r"<h([1-6])[^>]*>(.*?)</h[1-6]>", re.IGNORECASE | re.DOTALL)


def headings(markdown: str) -> list[tuple[int, str]]:
    """(level, plain text) of every ATX (`## ...`) or HTML (`<h2>`) heading, in document
    order; `#` and `<h1>` are level 1."""
    found = [(m.start(), len(m.group(1)), m.group(2)) for m in _HEADING_LINE.finditer(markdown)]
    found += [(m.start(), int(m.group(1)), m.group(2)) for m in _HTML_HEADING.finditer(markdown)]
    return [(level, text) for _, level, raw in sorted(found) if (text := strip_markdown(raw))]


def heading_texts(markdown: str) -> list[str]:
    """Plain text of every ATX (`# ...`) or HTML (`<h2>`) heading, in document order."""
    return [text for _, text in headings(markdown)]


_DISPLAY_MATH_PATTERNS = (
    re.compile(r"\$\$(.+?)\$\$", re.DOTALL),
    re.compile(r"\\\[(.+?)\\\]", re.DOTALL),
    re.compile(
        r"\\begin\{(equation\*?|align\*?|gather\*?|displaymath)\}(.+?)\\end\{\1\}", re.DOTALL
    ),
)
_INLINE_MATH_PATTERNS = (
    re.compile(r"\\\((.+?)\\\)", re.DOTALL),
    re.compile(r"(?<![\\$])\$(?!\$)(.+?)(?<![\\$])\$(?!\$)", re.DOTALL),
)


def math_spans(markdown: str) -> list[str]:
    """LaTeX inside math delimiters ($$..$$, \\[..\\], equation environments, \\(..\\), $..$).

    Display math is taken out before inline math is looked for, so `$$x$$` never also reads
    as two inline spans.
    """
    spans: list[str] = []
    remaining = markdown
    for pattern in (*_DISPLAY_MATH_PATTERNS, *_INLINE_MATH_PATTERNS):
        for match in pattern.finditer(remaining):
            spans.append(match.group(match.lastindex or 1).strip())
        remaining = pattern.sub(" ", remaining)
    return [span for span in spans if span]


def canonical_math(markdown: str) -> str:
    """`markdown` with the LaTeX of every math span spelled as the engine's token canon
    (engine.formulas.latex_tokens), so that text scores compare what a formula says, not how it
    is spelled (``e^{i\\pi}`` and ``e ^ { i \\pi }`` alike)."""
    def spelled(match: re.Match) -> str:
        group = match.lastindex or 1
        start, end = match.start(group) - match.start(0), match.end(group) - match.start(0)
        whole, inner = match.group(0), match.group(group)
        lead, trail = inner[:len(inner) - len(inner.lstrip())], inner[len(inner.rstrip()):]
        return whole[:start] + lead + detokenize(normalized(inner)) + trail + whole[end:]

    for pattern in (*_DISPLAY_MATH_PATTERNS[:2], *_INLINE_MATH_PATTERNS):
        markdown = pattern.sub(spelled, markdown)
    return markdown


def first_display_math(markdown: str) -> str | None:
    """The first `$$...$$` (or `\\[...\\]`) block's LaTeX, or None when there is none."""
    for pattern in _DISPLAY_MATH_PATTERNS[:2]:
        match = pattern.search(markdown)
        if match:
            return match.group(1).strip()
    return None
