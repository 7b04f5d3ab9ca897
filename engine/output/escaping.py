"""The document's own text made safe inside Markdown: no HTML, link or character reference of
its own survives."""

from __future__ import annotations

import re

# What a Markdown renderer would take for markup inside a line of the document's own text:
# the start of an HTML tag, comment or autolink (CommonMark: "<" then a letter, "/", "!" or
# "?"), a character reference, and the "](", "]:" and "][" of links and their definitions.
_HTML_START = re.compile(r"<(?=[A-Za-z/!?])")
_CHARACTER_REFERENCE = re.compile(r"&(?=#?[0-9A-Za-z]+;)")
_LINK_CLOSE = re.compile(r"\](?=[(:\[])")


def escape_inline(text: str) -> str:
    """The document's text as text: no HTML, link or reference of its own survives (a
    `<script>` in a scanned page, a `javascript:` link in a PDF's text layer)."""
    text = _CHARACTER_REFERENCE.sub("&amp;", text)
    text = _HTML_START.sub("&lt;", text)
    return _LINK_CLOSE.sub(r"\\]", text)
