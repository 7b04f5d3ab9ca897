"""Randomised layouts: pages whose structure is drawn afresh for every seed, so that a reading
order rule cannot fit one template.

`broadsheet`: a newspaper page cut into articles by a random guillotine partition of its column
grid (rows of articles side by side, column groups of stacked articles, in any nesting), each
article a headline over its columns, sometimes a deck, sometimes a picture with its caption
across some of its columns, its body flowing column by column; rules between articles on half
the pages. Read article by article in the partition's order: of a cut across, the upper part
first; of a cut between columns, the left part first. Partitions that could be read in two
orders are drawn again (see `_partition`).

`broadsheet_full`: the same on a newspaper's real sheet, 12.5 x 22.75 inches (900 x 1638 pt,
the broadsheet format of many US dailies) with 6-8 columns of 7.5-9 pt type: at the layout
model's fixed input size a line of it is about half as high as on the A4 page.

`journal`: a page of a two-column paper, the first page (title, authors, abstract across) or a
later one starting in the middle of a paragraph, with floats where typesetters put them: across
the page at its top, middle or foot, or inside one column at its top, middle or foot, each a
drawing with its caption. A float is read where it cuts the text: after what is
above it in its column (or above it across the page), before what is below it."""

from __future__ import annotations

import random
from dataclasses import dataclass

import pymupdf

from tools.structure.layouts import (A4, SANS, SANS_BOLD, SERIF, SERIF_BOLD, Sheet, body,
                                     columns)
from tools.structure.text_source import Prose

MOSAIC_FAMILIES = ("broadsheet", "journal", "broadsheet_full")
BROADSHEET_PT = (900.0, 1638.0)
"""12.5 x 22.75 inches."""


@dataclass(frozen=True)
class Area:
    """A piece of the column grid: columns [first, last) from y0 to y1."""

    first: int
    last: int
    y0: float
    y1: float


@dataclass(frozen=True)
class Grid:
    left: float
    width: float
    """One column's width."""
    gutter: float

    def x0(self, column: int) -> float:
        return self.left + column * (self.width + self.gutter)

    def x1(self, column: int) -> float:
        return self.x0(column) + self.width


# The smallest article: so many points high, and at least one column wide.
MIN_ARTICLE_PT = 130.0
# Cuts of neighbouring parts this close (points) line up: the page could be read either way.
ALIGNED_PT = 36.0


class Ambiguous(Exception):
    """A partition that a person could read in two orders (see `partition`)."""


@dataclass(frozen=True)
class Cuts:
    """A partition's articles, and its cuts that run through the whole of its area."""

    areas: list[Area]
    across: frozenset[float]
    """The y of each blank stripe across the whole area."""
    down: frozenset[int]
    """Each column gutter running the whole height of the area."""


def partition(area: Area, rng: random.Random) -> list[Area]:
    """Articles covering `area`, in reading order: a random guillotine partition in which one
    reading order holds (drawn again until it does)."""
    for _ in range(50):
        try:
            return _partition(area, rng, 0).areas
        except Ambiguous:
            continue
    return [area]


def _partition(area: Area, rng: random.Random, depth: int) -> Cuts:
    """Of a cut across, the upper part is read first; of a cut between columns, the left part.
    Where a region has both kinds of cut through it (stacked articles beside stacked articles
    whose cuts line up, rows of articles whose gutters line up) rows and columns are equally
    good readings, so such a partition is refused: the truth must be the only reading."""
    span, height = area.last - area.first, area.y1 - area.y0
    can_stack = height >= 2 * MIN_ARTICLE_PT
    can_split = span >= 2
    if depth >= 3 or not (can_stack or can_split) or (depth > 0 and rng.random() < 0.25):
        return Cuts([area], frozenset(), frozenset())
    if can_stack and (not can_split or rng.random() < 0.5):
        cut = area.y0 + rng.uniform(MIN_ARTICLE_PT, height - MIN_ARTICLE_PT)
        upper = _partition(Area(area.first, area.last, area.y0, cut), rng, depth + 1)
        lower = _partition(Area(area.first, area.last, cut, area.y1), rng, depth + 1)
        down = upper.down & lower.down
        if down:
            raise Ambiguous
        return Cuts(upper.areas + lower.areas, upper.across | lower.across | {cut}, down)
    cut = rng.randint(area.first + 1, area.last - 1)
    left = _partition(Area(area.first, cut, area.y0, area.y1), rng, depth + 1)
    right = _partition(Area(cut, area.last, area.y0, area.y1), rng, depth + 1)
    across = frozenset(y for y in left.across
                       if any(abs(y - other) < ALIGNED_PT for other in right.across))
    if across:
        raise Ambiguous
    return Cuts(left.areas + right.areas, across, left.down | right.down | {cut})


def broadsheet(sheet: Sheet, prose: Prose, rng: random.Random,
               columns_drawn: tuple[int, ...] = (4, 5, 5, 6)) -> None:
    width, height = sheet.page.rect.width, sheet.page.rect.height
    left, right, top, foot = 28.0, width - 28.0, 28.0, height - 30.0
    count = rng.choice(columns_drawn)
    gutter = rng.uniform(8, 13)
    grid = Grid(left, (right - left - gutter * (count - 1)) / count, gutter)
    size = rng.uniform(7.5, 9.0)
    ruled = rng.random() < 0.5
    y = top
    if rng.random() < 0.7:
        name = f"The {rng.choice(('Morning', 'Evening', 'Daily', 'Weekly', 'County'))} " \
               f"{rng.choice(('Herald', 'Courier', 'Observer', 'Gazette', 'Ledger', 'Post'))}"
        y = sheet.heading(pymupdf.Rect(left, top, right, top + 50), name, 1,
                          rng.uniform(24, 34), font=SERIF_BOLD, align=1)
        sheet.rule(y - 4, left, right)
        y += 6
    for area in partition(Area(0, count, y, foot), rng):
        if ruled and area.y0 > y + 1:
            sheet.rule(area.y0 - 2, grid.x0(area.first), grid.x1(area.last - 1))
        if ruled and area.first > 0:
            x = grid.x0(area.first) - gutter / 2
            sheet.page.draw_line((x, area.y0 + 2), (x, area.y1 - 4), color=(0.3, 0.3, 0.3),
                                 width=0.5)
        article(sheet, prose, rng, grid, area, size)


def broadsheet_full(sheet: Sheet, prose: Prose, rng: random.Random) -> None:
    """A broadsheet page on a BROADSHEET_PT sheet: more, narrower columns than on A4."""
    broadsheet(sheet, prose, rng, columns_drawn=(6, 7, 7, 8))


def fits(text: str, font: pymupdf.Font, size: float, width: float) -> bool:
    """Every word of `text` fits on a line `width` wide: a word broken across lines by the
    drawing (there is no hyphenation) would not be the truth's word."""
    return all(font.text_length(word, fontsize=size) < 0.95 * width for word in text.split())


def article(sheet: Sheet, prose: Prose, rng: random.Random, grid: Grid, area: Area,
            size: float) -> None:
    """A headline over the article's columns, a deck, a picture with caption, the body."""
    span = area.last - area.first
    x0, x1 = grid.x0(area.first), grid.x1(area.last - 1)
    y0 = area.y0 + 4
    headline_size = {1: rng.uniform(11, 13), 2: rng.uniform(13, 17)}.get(
        span, rng.uniform(16, 23))
    font = rng.choice((SERIF_BOLD, SANS_BOLD))
    title = prose.title(rng)
    while not fits(title, font, headline_size, x1 - x0):
        title = prose.title(rng)
    try:
        y = sheet.heading(pymupdf.Rect(x0, y0, x1, y0 + headline_size * 3.4), title, 2,
                          headline_size, font=font)
    except ValueError:  # a headline too long for a narrow article: a shorter one
        y = sheet.heading(pymupdf.Rect(x0, y0, x1, y0 + headline_size * 5),
                          " ".join(title.split()[:3]), 2, headline_size, font=font)
    deck = prose.sample(rng, 1)[0].split(". ")[0].rstrip(".") + "."
    if rng.random() < 0.3 and fits(deck, SANS, size * 1.15, x1 - x0):
        rest, below = sheet.words(pymupdf.Rect(x0, y, x1, y + size * 4.5), deck, SANS,
                                  size * 1.15, align=0)
        if below > y:
            sheet.truth.append(deck[:len(deck) - len(rest)].strip())
            y = below + 4
    tops = [y] * span
    if area.y1 - y > 170 and rng.random() < 0.45:
        across = rng.randint(1, span)
        height = rng.uniform(55, min(150, (area.y1 - y) * 0.45))
        picture = pymupdf.Rect(x0, y, grid.x1(area.first + across - 1), y + height)
        sheet.figure(picture, rng)
        caption = prose.sample(rng, 1)[0]
        while not fits(caption, SANS, size * 0.9, picture.width):
            caption = prose.sample(rng, 1)[0]
        rest, below = sheet.words(pymupdf.Rect(picture.x0, picture.y1 + 3, picture.x1,
                                               picture.y1 + size * 5), caption, SANS,
                                  size * 0.9, align=0)
        if below > picture.y1 + 3:
            sheet.truth.append(caption[:len(caption) - len(rest)].strip())
        tops[:across] = [max(below, picture.y1) + 6] * across
    rects = [pymupdf.Rect(grid.x0(area.first + i), tops[i], grid.x1(area.first + i),
                          area.y1 - 6) for i in range(span)]
    items = [item for item in body(prose, rng, 6 * span + 4, sections=span // 3)
             if fits(item[1], SERIF if item[0] == "p" else SANS_BOLD, size * 1.15, grid.width)]
    sheet.flow(rects, items, size, gap=2.5)


# Floats of a journal page: where they stand, and how much of the page they take.
FLOATS = ("page-top", "page-middle", "page-foot", "column-top", "column-middle",
          "column-foot", "none")


def journal(sheet: Sheet, prose: Prose, rng: random.Random) -> None:
    left, right, top, foot = 54.0, A4[0] - 54.0, 58.0, A4[1] - 52.0
    gutter = rng.uniform(12, 20)
    size = rng.uniform(8.8, 10.0)
    y = top
    first_page = rng.random() < 0.4
    if first_page:
        y = sheet.heading(pymupdf.Rect(left, top, right, top + 60), prose.title(rng), 1,
                          rng.uniform(15, 19), align=1)
        authors = rng.choice(("Ada Lovelace and Charles Babbage",
                              "Emmy Noether, Hermann Weyl and Olga Taussky",
                              "Alan Turing"))
        _, y = sheet.words(pymupdf.Rect(left, y, right, y + 20), authors, SANS, 10, align=1)
        sheet.truth.append(authors)
        abstract = prose.sample(rng, 1)[0]
        rest, y = sheet.words(pymupdf.Rect(left + 24, y + 8, right - 24, y + 120),
                              f"Abstract. {abstract}", SERIF, size - 0.5)
        sheet.truth.append(f"Abstract. {abstract}"[:len(abstract) + 10 - len(rest)].strip())
        y += 12
    items = body(prose, rng, 16, rng.randint(2, 4), numbered=True)
    if not first_page:
        items = items[1:] if items[0][0] == "h" else items
        items[0] = ("cont", items[0][1])
        if sheet.truth == []:
            sheet.truth.append("")  # a continued paragraph opens the page's truth
    place = rng.choice(FLOATS)
    cols = columns(left, right, y, foot, 2, gutter)
    if place.startswith("page"):
        _page_float(sheet, prose, rng, place, cols, items, size)
    else:
        _column_float(sheet, prose, rng, place, cols, items, size)
    sheet.folio(rng.randint(2, 400))


def _float(sheet: Sheet, prose: Prose, rng: random.Random, rect: pymupdf.Rect,
           size: float) -> float:
    """A figure and its caption in `rect` (the figure takes its top part); the y below."""
    caption = f"{rng.choice(('Figure', 'Fig.', 'Table'))} {rng.randint(1, 9)}. " \
              f"{prose.sample(rng, 1)[0]}"
    picture = pymupdf.Rect(rect.x0 + rect.width * 0.08, rect.y0, rect.x1 - rect.width * 0.08,
                           rect.y1 - size * 4)
    sheet.figure(picture, rng)
    rest, below = sheet.words(pymupdf.Rect(rect.x0, picture.y1 + 4, rect.x1, rect.y1 + size),
                              caption, SANS, size - 1.2)
    sheet.truth.append(caption[:len(caption) - len(rest)].strip())
    return below + 10


def _resume(items: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Text after a float starts a new paragraph of truth (the float's caption sits between)."""
    return [("p", items[0][1])] + items[1:] if items and items[0][0] == "cont" else items


def _page_float(sheet: Sheet, prose: Prose, rng: random.Random, place: str,
                cols: list[pymupdf.Rect], items: list, size: float) -> None:
    y, foot = cols[0].y0, cols[0].y1
    height = rng.uniform(150, 230)
    x0, x1 = cols[0].x0, cols[1].x1
    if place == "page-top":
        y = _float(sheet, prose, rng, pymupdf.Rect(x0, y, x1, y + height), size)
        sheet.flow([pymupdf.Rect(c.x0, y, c.x1, foot) for c in cols], items, size)
    elif place == "page-foot":
        sheet.flow([pymupdf.Rect(c.x0, y, c.x1, foot - height - 14) for c in cols], items, size)
        _float(sheet, prose, rng, pymupdf.Rect(x0, foot - height, x1, foot), size)
    else:  # across the middle: the columns above it are read, then it, then the columns below
        cut = y + rng.uniform(0.25, 0.5) * (foot - y)
        items, _ = sheet.flow([pymupdf.Rect(c.x0, y, c.x1, cut) for c in cols], items, size)
        below = _float(sheet, prose, rng, pymupdf.Rect(x0, cut + 10, x1, cut + 10 + height),
                       size)
        sheet.flow([pymupdf.Rect(c.x0, below, c.x1, foot) for c in cols], _resume(items), size)


def _column_float(sheet: Sheet, prose: Prose, rng: random.Random, place: str,
                  cols: list[pymupdf.Rect], items: list, size: float) -> None:
    which = rng.randrange(2)
    height = rng.uniform(130, 200)
    for index, col in enumerate(cols):
        if index != which or place == "none":
            items, _ = sheet.flow([col], items, size)
            continue
        if place == "column-top":
            below = _float(sheet, prose, rng, pymupdf.Rect(col.x0, col.y0, col.x1,
                                                           col.y0 + height), size)
            items, _ = sheet.flow([pymupdf.Rect(col.x0, below, col.x1, col.y1)], items, size)
        elif place == "column-foot":
            items, _ = sheet.flow([pymupdf.Rect(col.x0, col.y0, col.x1,
                                                col.y1 - height - 12)], items, size)
            _float(sheet, prose, rng, pymupdf.Rect(col.x0, col.y1 - height, col.x1, col.y1),
                   size)
            items = _resume(items)
        else:
            cut = col.y0 + rng.uniform(0.25, 0.55) * (col.height - height)
            items, _ = sheet.flow([pymupdf.Rect(col.x0, col.y0, col.x1, cut)], items, size)
            below = _float(sheet, prose, rng, pymupdf.Rect(col.x0, cut + 8, col.x1,
                                                           cut + 8 + height), size)
            items, _ = sheet.flow([pymupdf.Rect(col.x0, below, col.x1, col.y1)],
                                  _resume(items), size)
