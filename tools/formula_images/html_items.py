"""HTML for the browser's shots: a formula typeset by KaTeX, and the text a user screenshots
(paragraphs, lines, phrases, headings, code, small tables, lists, prose with a little inline
math) in the fonts a desktop has, at several sizes and zooms."""

from __future__ import annotations

import html
import random

from tools.formula.browser import Shot
from tools.formula.katex import ZOOMS, katex_shot
from tools.formula_images.looks import Look
from tools.formula_images.sources import FormulaPool, TextSource

SERIF = ("DejaVu Serif", "Liberation Serif", "Nimbus Roman", "P052", "C059", "Latin Modern Roman",
         "URW Bookman", "Charter")
SANS = ("DejaVu Sans", "Liberation Sans", "Nimbus Sans", "URW Gothic", "Latin Modern Sans")
MONO = ("DejaVu Sans Mono", "Liberation Mono", "Noto Mono", "Nimbus Mono PS")
TEXT_KINDS = ("paragraph", "line", "phrase", "heading", "code", "table", "list", "inline_math")


def _rgb(colour: tuple[int, int, int]) -> str:
    return "rgb({},{},{})".format(*colour)


def _colours(look: Look) -> tuple[str, str]:
    """(page background, CSS colour and background of the shot)."""
    if look.background == "transparent":
        return "transparent", f"color:{_rgb(look.ink)};background:transparent;"
    return _rgb(look.paper), f"color:{_rgb(look.ink)};background:{_rgb(look.paper)};"


def formula_shot(shot_id: str, out: str, latex: str, look: Look, rng: random.Random) -> Shot:
    """A formula typeset by KaTeX (tools/formula/katex.py) in the look's colours."""
    page, colours = _colours(look)
    return katex_shot(shot_id, out, latex, page, colours, rng)


def _phrase(text: TextSource, rng: random.Random) -> str:
    words = text.words(rng, rng.randint(1, 4))
    form = rng.randrange(6)
    if form == 0:
        return f"Figure {rng.randint(1, 12)}: {words}"
    if form == 1:
        return f"Table {rng.randint(1, 9)}."
    if form == 2:
        return f"Step {rng.randint(1, 9)}"
    return words[:1].upper() + words[1:]


def _heading(text: TextSource, rng: random.Random) -> str:
    title = text.titles[rng.randrange(len(text.titles))]
    form = rng.randrange(3)
    if form == 0:
        return f"{rng.randint(1, 9)}.{rng.randint(1, 9)} {title}"
    if form == 1:
        return f"Chapter {rng.randint(1, 20)}"
    return title


def text_markup(kind: str, text: TextSource, formulas: FormulaPool,
                rng: random.Random) -> tuple[str, list[dict], str, str]:
    """(markup, inline math, extra CSS, the text it shows) for one kind of TEXT_KINDS."""
    esc = html.escape
    if kind == "paragraph":
        paragraphs = [text.sentence(rng) if i else rng.choice(text.paragraphs)
                      for i in range(rng.randint(1, 2))]
        width = rng.randint(280, 900)
        return ("".join(f"<p style='margin:0 0 0.6em 0'>{esc(p)}</p>" for p in paragraphs), [],
                f"width:{width}px;line-height:{rng.choice([1.3, 1.5, 1.7])};",
                "\n".join(paragraphs))
    if kind == "line":
        line = text.sentence(rng)
        return esc(line), [], "white-space:nowrap;", line
    if kind == "phrase":
        phrase = _phrase(text, rng)
        return esc(phrase), [], "white-space:nowrap;", phrase
    if kind == "heading":
        heading = _heading(text, rng)
        level = rng.randint(1, 3)
        return (f"<h{level} style='margin:0'>{esc(heading)}</h{level}>", [],
                "white-space:nowrap;", heading)
    if kind == "code":
        lines = text.code_snippet(rng, rng.choice([1, 2, 3, 5, 8, 12]))
        code = "\n".join(lines)
        return (f"<pre style='margin:0;font-family:\"{rng.choice(MONO)}\"'>{esc(code)}</pre>", [],
                "", code)
    if kind == "table":
        cols, rows = rng.randint(2, 4), rng.randint(2, 5)
        header = [text.words(rng, 1).capitalize() or "Name" for _ in range(cols)]
        body = [[text.words(rng, 1) if c == 0 else f"{rng.uniform(0, 999):.{rng.randint(0, 2)}f}"
                 for c in range(cols)] for _ in range(rows)]
        cell = "border:1px solid currentColor;padding:2px 8px;"
        markup = ("<table style='border-collapse:collapse'>"
                  + "<tr>" + "".join(f"<th style='{cell}'>{esc(h)}</th>" for h in header) + "</tr>"
                  + "".join("<tr>" + "".join(f"<td style='{cell}'>{esc(v)}</td>" for v in row)
                            + "</tr>" for row in body) + "</table>")
        return markup, [], "", "\n".join(" ".join(r) for r in [header, *body])
    if kind == "list":
        tag = rng.choice(["ul", "ol"])
        items = [text.words(rng, rng.randint(2, 9)) for _ in range(rng.randint(2, 5))]
        markup = (f"<{tag} style='margin:0;padding-left:1.5em'>"
                  + "".join(f"<li>{esc(i)}</li>" for i in items) + f"</{tag}>")
        return markup, [], f"width:{rng.randint(260, 700)}px;", "\n".join(items)
    if kind == "inline_math":
        words = rng.choice(text.paragraphs).split()
        count = rng.randint(1, 3)
        places = sorted(rng.sample(range(1, len(words)), min(count, len(words) - 1)))
        math = [{"latex": formulas.short_piece(), "display": False} for _ in places]
        parts, shown, last = [], [], 0
        for n, place in enumerate(places):
            parts.append(esc(" ".join(words[last:place])) + f" @@MATH{n}@@ ")
            shown.append(" ".join(words[last:place]) + f" ${math[n]['latex']}$ ")
            last = place
        parts.append(esc(" ".join(words[last:])))
        shown.append(" ".join(words[last:]))
        width = rng.randint(300, 900)
        return "".join(parts), math, f"width:{width}px;line-height:1.5;", "".join(shown)
    raise ValueError(f"unknown text kind {kind!r}")


def text_shot(shot_id: str, out: str, kind: str, look: Look, text: TextSource,
              formulas: FormulaPool, rng: random.Random) -> tuple[Shot, str]:
    """A text snippet of `kind` in a desktop font at 11-28 px and one of ZOOMS; also the text."""
    markup, math, extra, shown = text_markup(kind, text, formulas, rng)
    family = rng.choice(MONO if kind == "code" else rng.choice([SERIF, SANS]))
    page, colours = _colours(look)
    style = (f"display:inline-block;padding:8px;font-family:'{family}';"
             f"font-size:{rng.randint(11, 28)}px;{colours}{extra}")
    return Shot(shot_id, out, markup, style, page, rng.choice(ZOOMS), math=math), shown
