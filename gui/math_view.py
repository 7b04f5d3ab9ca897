"""Formulas typeset in the window: the `$...$` and `$$...$$` of a Markdown drawn as pictures.

ziamath turns the LaTeX into MathML (latex2mathml) and lays it out as SVG paths in its bundled
STIX Two Math font; QtSvg draws the SVG into an image that the rendered view holds as a
resource named `paperlens-math:N` (ADR 0013). A formula ziamath cannot draw is shown as its crop
from the page when the result has one, else as its TeX source in a code span: never an error.
"""

from __future__ import annotations

import logging
import re
import threading
from dataclasses import dataclass
from typing import Callable

from PySide6.QtCore import QByteArray, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QImage, QPainter

log = logging.getLogger(__name__)

MATH_SCHEME = "paperlens-math"
# ziamath's text size relative to the view's: its STIX glyphs look small beside a sans serif.
MATH_SCALE = 1.12
# A command latex2mathml passed through unread (`<mi>\foo</mi>`): ziamath would draw its
# name as letters, which would pass for typeset math.
_UNREAD_COMMAND = re.compile(r"<m[io][^>]*>\\[A-Za-z]")
_PROTECTED = re.compile(
    r"(?P<fence>^[ ]{0,3}(?P<mark>`{3,}|~{3,})[^\n]*\n.*?^[ ]{0,3}(?P=mark)[`~]*[ \t]*$"
    r"|^[ ]{0,3}(?:`{3,}|~{3,}).*\Z)"  # an unclosed fence runs to the end
    r"|(?P<comment><!--.*?-->)"
    r"|(?P<code>(?P<ticks>`+)(?!`).*?(?<!`)(?P=ticks)(?!`))",
    re.MULTILINE | re.DOTALL)

_lock = threading.Lock()  # ziamath keeps its fonts and settings in module globals


@dataclass(frozen=True)
class Formula:
    """markdown[start:end] is `$latex$` (inline) or `$$latex$$` (display)."""

    latex: str
    display: bool
    start: int
    end: int


class FormulaRejected(Exception):
    """The renderer cannot draw this LaTeX (a syntax it does not know, unbalanced groups)."""


def find_formulas(markdown: str) -> list[Formula]:
    """The formulas of a Markdown text in order. Code (fenced and in backticks) and HTML
    comments hold none; `\\$` is a dollar sign; an inline formula opens with `$` before a
    non-space and closes with `$` after a non-space and not before a digit ("$5 and $6" is
    money), within one paragraph."""
    protected = {m.start(): m.end() for m in _PROTECTED.finditer(markdown)}
    found: list[Formula] = []
    i, n = 0, len(markdown)
    while i < n:
        if i in protected:
            i = max(protected[i], i + 1)
            continue
        c = markdown[i]
        if c == "\\":
            i += 2
            continue
        if c != "$":
            i += 1
            continue
        display = markdown.startswith("$$", i)
        close = _closing(markdown, i + (2 if display else 1), display)
        if close is None:
            i += 2 if display else 1
            continue
        width = 2 if display else 1
        latex = markdown[i + width:close].strip()
        if latex:
            found.append(Formula(latex, display, i, close + width))
        i = close + width
    return found


def _closing(text: str, j: int, display: bool) -> int | None:
    """Where the formula opened before `j` closes, or None when it does not."""
    n = len(text)
    if not display and (j >= n or text[j].isspace()):
        return None
    while j < n:
        c = text[j]
        if c == "\\":
            j += 2
            continue
        if text.startswith("\n\n", j) or text.startswith("\n\r\n", j):
            return None  # a formula does not cross a blank line
        if c == "$":
            if display:
                return j if text.startswith("$$", j) else None
            if not text[j - 1].isspace() and not (j + 1 < n and text[j + 1].isdigit()):
                return j
        j += 1
    return None


def formula_svg(latex: str, pixel_size: float, display: bool, color: str | None = None) -> str:
    """The formula as SVG (1 unit = 1 pixel at `pixel_size`); FormulaRejected when ziamath
    cannot read it."""
    with _lock:
        import ziamath  # 0.5 s to import: loaded with the first formula, not with the window

        ziamath.config.svg2 = False  # QtSvg draws SVG 1.1: glyphs as paths, no <symbol> reuse
        try:
            math = ziamath.Latex(latex, size=pixel_size, inline=not display, color=color)
            if _UNREAD_COMMAND.search(math.mathmlstr()):
                raise FormulaRejected("a command the renderer does not know")
            return math.svg()
        except FormulaRejected:
            raise
        except Exception as error:  # latex2mathml and ziamath raise many kinds on bad input
            raise FormulaRejected(f"{type(error).__name__}: {error}") from error


def formula_image(latex: str, display: bool, pixel_size: float, x_height: float,
                  ratio: float = 1.0, color: QColor | None = None) -> QImage:
    """The formula drawn for text of `pixel_size` pixels (x-height `x_height`) on a screen of
    device pixel ratio `ratio`. An inline formula's picture is padded so that, aligned by its
    middle (QTextCharFormat.AlignMiddle), its baseline sits on the line's."""
    from PySide6.QtSvg import QSvgRenderer

    svg = formula_svg(latex, pixel_size * MATH_SCALE, display,
                      color.name() if color is not None else None)
    renderer = QSvgRenderer(QByteArray(svg.encode("utf-8")))
    if not renderer.isValid():
        raise FormulaRejected("the renderer's SVG could not be drawn")
    box = renderer.viewBoxF()
    ascent, descent = -box.top(), box.height() + box.top()
    top_pad = bottom_pad = 0.0
    if not display:
        # With AlignMiddle Qt gives the picture ascent (h + x/2)/2 and descent (h - x/2)/2.
        half_x = x_height / 2
        below = max(descent, ascent - half_x)
        top_pad, bottom_pad = below + half_x - ascent, below - descent
    width, height = box.width(), ascent + descent + top_pad + bottom_pad
    image = QImage(max(1, round(width * ratio)), max(1, round(height * ratio)),
                   QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.scale(ratio, ratio)
    renderer.render(painter, QRectF(QPointF(0, top_pad), box.size()))
    painter.end()
    image.setDevicePixelRatio(ratio)
    return image


@dataclass(frozen=True)
class Typeset:
    """A Markdown with its formulas replaced by pictures: `images` by resource name, and
    `formulas` by resource name (display formulas link to their blocks by LaTeX)."""

    markdown: str
    images: dict[str, QImage]
    formulas: dict[str, Formula]


def _in_html_block(markdown: str, at: int) -> bool:
    """Whether position `at` lies in a paragraph that starts as HTML (a table of the writer):
    Markdown image syntax means nothing there."""
    start = markdown.rfind("\n\n", 0, at)
    return markdown[start + 2 if start >= 0 else 0:].lstrip(" ").startswith("<")


def _code_span(text: str, html: bool) -> str:
    if html:
        return "<code>" + text.replace("&", "&amp;").replace("<", "&lt;") + "</code>"
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    ticks = "`" * (longest + 1)
    return f"{ticks} {text} {ticks}"


def _picture(target: str, display: bool, html: bool) -> str:
    if html:
        return f'<img src="{target}"/>'  # Qt's Markdown reader drops a table with <img ...>
    picture = f"![formula]({target})"
    return "\n\n" + picture + "\n\n" if display else picture


def typeset(markdown: str, draw: Callable[[Formula], QImage],
            crop_for: Callable[[Formula], str | None] = lambda formula: None) -> Typeset:
    """Replace every formula of `markdown` by a picture `draw` makes; one `draw` rejects
    (FormulaRejected) becomes its crop (`crop_for`: a link target; "" when the Markdown shows
    it beside the formula already; None when there is none) or its TeX source as code."""
    parts: list[str] = []
    images: dict[str, QImage] = {}
    formulas: dict[str, Formula] = {}
    drawn: dict[tuple[str, bool], str] = {}
    last = 0
    for formula in find_formulas(markdown):
        parts.append(markdown[last:formula.start])
        last = formula.end
        html = _in_html_block(markdown, formula.start)
        key = (formula.latex, formula.display)
        name = drawn.get(key)
        if name is None:
            try:
                image = draw(formula)
            except FormulaRejected as why:
                log.debug("formula shown untypeset (%s): %s", why, formula.latex)
                crop = crop_for(formula)
                if crop is None:
                    parts.append(_code_span(markdown[formula.start:formula.end], html))
                elif crop:  # "": the Markdown shows the crop beside the formula already
                    parts.append(_picture(crop, formula.display, html))
                continue
            name = f"{MATH_SCHEME}:{len(images)}"
            images[name], drawn[key] = image, name
        formulas[name] = formula
        parts.append(_picture(name, formula.display, html))
    parts.append(markdown[last:])
    return Typeset("".join(parts), images, formulas)
