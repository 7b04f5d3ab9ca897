"""Chinese page layouts with known reading order (text from tools/structure/cjk_text.py, drawn
by tools/structure/cjk_sheet.py), horizontal and vertical.

Families: `zh_newspaper` (masthead; a headline across all but one or two of four or five
columns over its story; beside it a column of two stories stacked one under the other; a rule
and a story across the page under a headline as wide as its words), `zh_textbook` (a numbered
section, the main column, a boxed example, exercises in two columns, sometimes a tinted note
beside the main column, read last) and `zh_vertical` (vertical writing: columns top to bottom
read right to left; a vertical title at the right, then one or two tiers of text, the upper
tier read before the lower one, the lower tier under a rule with its own vertical headline).
Body paragraphs begin two characters in, as Chinese print does."""

from __future__ import annotations

import random

import pymupdf

from tools.structure.cjk_sheet import CjkSheet
from tools.structure.layouts import A4, columns, draw_sheet
from tools.structure.text_source import Prose

CJK_FAMILIES = ("zh_newspaper", "zh_textbook", "zh_vertical")


def flow(sheet: CjkSheet, cols: list[pymupdf.Rect], items: list[tuple[str, str]], size: float,
         gap: float = 2.0) -> tuple[list[tuple[str, str]], float]:
    """Headings ("h") and paragraphs ("p") poured into horizontal columns in order; a paragraph
    split across columns is one paragraph of truth. Returns what did not fit and the y below
    the last item placed."""
    column, y = 0, cols[0].y0
    items = list(items)
    while items and column < len(cols):
        kind, text = items[0]
        rect = pymupdf.Rect(cols[column].x0, y, cols[column].x1, cols[column].y1)
        if kind == "h":
            if rect.height < size * 6:  # no heading alone at a column's foot
                column += 1
                y = cols[min(column, len(cols) - 1)].y0
                continue
            y = sheet.heading(rect, text, 3, size * 1.2)
            items.pop(0)
            continue
        indent = 0.0 if kind == "cont" else 2 * size
        rest, bottom = sheet.lines(rect, text, size, indent=indent)
        if bottom > rect.y0:
            sheet.paragraph(text[:len(text) - len(rest)], continues=kind == "cont")
        if rest:
            items[0] = ("cont", rest)
            column += 1
            y = cols[column].y0 if column < len(cols) else y
        else:
            items.pop(0)
            y = bottom + gap
    return items, y


def flow_down(sheet: CjkSheet, rect: pymupdf.Rect, items: list[tuple[str, str]], size: float
              ) -> float:
    """Paragraphs poured into vertical columns from the right edge of `rect` leftwards, each
    paragraph starting in a new column two characters down; returns the x left of the text."""
    x1 = rect.x1
    for _, text in items:
        column = pymupdf.Rect(rect.x0, rect.y0, x1, rect.y1)
        rest, left = sheet.columns_down(column, text, size, indent=2)
        if left < x1:
            sheet.paragraph(text[:len(text) - len(rest)], continues=False)
        x1 = left
        if rest:
            break
    return x1


def body(prose: Prose, rng: random.Random, paragraphs: int, sections: int = 0
         ) -> list[tuple[str, str]]:
    items: list[tuple[str, str]] = []
    per = max(1, paragraphs // max(sections, 1))
    for i in range(paragraphs):
        if sections and i % per == 0:
            items.append(("h", prose.title(rng)))
        items.append(("p", prose.sample(rng, 1)[0]))
    return items


def masthead(rng: random.Random) -> str:
    return rng.choice(("晨光", "东方", "海滨", "山城", "新华街", "江南")) + \
        rng.choice(("日报", "晚报", "时报", "都市报", "周报"))


def zh_newspaper(sheet: CjkSheet, prose: Prose, rng: random.Random) -> None:
    left, right, top, foot = 28.0, A4[0] - 28.0, 28.0, A4[1] - 34.0
    y = sheet.heading(pymupdf.Rect(left, top, right, top + 60), masthead(rng), 1, 32,
                      centre=True)
    sheet.rule((left, y), (right, y))
    count = rng.choice((4, 5))
    size = rng.uniform(8.5, 9.5)
    cols = columns(left, right, y + 8, foot, count, rng.uniform(9, 14))
    lead = count - rng.choice((1, 2)) if count == 5 else count - 1
    split = y + rng.uniform(0.5, 0.62) * (foot - y)
    head_y = sheet.heading(pymupdf.Rect(cols[0].x0, cols[0].y0, cols[lead - 1].x1, split),
                           prose.title(rng), 2, rng.uniform(18, 24))
    flow(sheet, [pymupdf.Rect(c.x0, head_y, c.x1, split) for c in cols[:lead]],
         body(prose, rng, 8), size)
    side = pymupdf.Rect(cols[lead].x0, cols[lead].y0, cols[-1].x1, split)
    side_cols = [pymupdf.Rect(c.x0, 0, c.x1, 0) for c in cols[lead:]]
    middle = side.y0 + rng.uniform(0.4, 0.55) * side.height
    for y0, y1 in ((side.y0, middle), (middle + 10, split)):
        if y0 > side.y0:
            sheet.rule((side.x0, y0 - 6), (side.x1, y0 - 6))
        sub = sheet.heading(pymupdf.Rect(side.x0, y0, side.x1, y1), prose.title(rng), 2,
                            rng.uniform(12, 14))
        flow(sheet, [pymupdf.Rect(c.x0, sub, c.x1, y1) for c in side_cols],
             body(prose, rng, 3), size)
    sheet.rule((left, split + 5), (right, split + 5))
    lower = sheet.heading(pymupdf.Rect(left, split + 12, right, split + 60), prose.title(rng),
                          2, rng.uniform(17, 21))
    flow(sheet, [pymupdf.Rect(c.x0, lower, c.x1, foot) for c in cols], body(prose, rng, 10),
         size)


EXERCISES = (
    "求函数 f(x) = x^{a} - {b}x + {c} 的导数。",
    "解方程 {a}x + {b} = {ac}。",
    "证明前 {a0} 个奇数之和是一个完全平方数。",
    "计算 {a}x 从 {b} 到 {bc} 的定积分。",
    "说明为什么 {a} 个元素的集合共有 {pairs} 个二元子集。",
    "一个长方形的长是 {a} 厘米，宽是 {b} 厘米，求它的面积。",
)


def _exercise(rng: random.Random) -> str:
    a, b, c = rng.randint(2, 9), rng.randint(1, 9), rng.randint(1, 9)
    return rng.choice(EXERCISES).format(a=a, b=b, c=c, ac=a * c, a0=a * 10, bc=b + c,
                                        pairs=a * (a - 1) // 2)


def zh_textbook(sheet: CjkSheet, prose: Prose, rng: random.Random) -> None:
    with_note = rng.random() < 0.5
    left, right, top, foot = 56.0, A4[0] - 48.0, 60.0, A4[1] - 56.0
    main_right = 400.0 if with_note else right
    size = rng.uniform(10, 11)
    number = rng.randint(1, 12)
    y = sheet.heading(pymupdf.Rect(left, top, main_right, top + 50),
                      f"{number}.{rng.randint(1, 9)} {prose.title(rng)}", 2, 15)
    _, y = flow(sheet, [pymupdf.Rect(left, y, main_right, y + rng.uniform(230, 320))],
                body(prose, rng, 4), size)
    y += 10
    box = pymupdf.Rect(left, y, main_right, y + rng.uniform(90, 130))
    sheet.page.draw_rect(box, color=(0.3, 0.3, 0.5), fill=(0.93, 0.94, 0.98), width=0.8)
    inner = pymupdf.Rect(box.x0 + 8, box.y0 + 6, box.x1 - 8, box.y1 - 4)
    head = sheet.heading(inner, f"例 {number}.{rng.randint(1, 9)}", 4, 10.5)
    text = prose.sample(rng, 1)[0]
    rest, _ = sheet.lines(pymupdf.Rect(inner.x0, head, inner.x1, inner.y1), text, size - 0.5,
                          indent=2 * (size - 0.5))
    sheet.paragraph(text[:len(text) - len(rest)], continues=False)
    y = box.y1 + 16
    y = sheet.heading(pymupdf.Rect(left, y, main_right, y + 30), "练习", 3, 12)
    first = rng.randint(1, 20)
    items = [f"{first + i}. {_exercise(rng)}" for i in range(rng.choice((6, 8, 10)))]
    half = (len(items) + 1) // 2
    for column, chunk in zip(columns(left, main_right, y, foot, 2, 16),
                             (items[:half], items[half:])):
        cy = column.y0
        for item in chunk:
            spare, cy = sheet.lines(pymupdf.Rect(column.x0, cy, column.x1, column.y1), item,
                                    size - 0.5)
            if spare:
                break
            sheet.truth.append(item)
            cy += 5
    if with_note:
        note = prose.sample(rng, 1)[0]
        note_top = rng.uniform(top + 120, 420)
        side = pymupdf.Rect(416, note_top, right, note_top + 230)
        sheet.page.draw_rect(side, color=(0.5, 0.4, 0.2), fill=(0.98, 0.95, 0.88), width=0.6)
        head = sheet.heading(pymupdf.Rect(side.x0 + 6, side.y0 + 6, side.x1 - 6, side.y1),
                             "提示", 4, 10)
        spare, _ = sheet.lines(pymupdf.Rect(side.x0 + 6, head, side.x1 - 6, side.y1 - 4), note,
                               8.5)
        sheet.paragraph(note[:len(note) - len(spare)], continues=False)


def zh_vertical(sheet: CjkSheet, prose: Prose, rng: random.Random) -> None:
    left, right, top, foot = 50.0, A4[0] - 50.0, 56.0, A4[1] - 56.0
    size = rng.uniform(10.5, 12.5)
    tiers = rng.choice((1, 2))
    split = top + rng.uniform(0.45, 0.55) * (foot - top) if tiers == 2 else foot
    x = sheet.heading(pymupdf.Rect(left, top, right, split), prose.title(rng), 1,
                      rng.uniform(20, 26), vertical=True)
    if tiers == 1:
        flow_down(sheet, pymupdf.Rect(left, top, x, foot), body(prose, rng, 12), size)
        return
    flow_down(sheet, pymupdf.Rect(left, top, x, split), body(prose, rng, 8), size)
    # A closing mark may hang one character below its tier; the rule and the blank between
    # the tiers lie beyond it.
    sheet.rule((left, split + 1.25 * size), (right, split + 1.25 * size))
    lower = pymupdf.Rect(left, split + 2.5 * size, right, foot)
    x = sheet.heading(lower, prose.title(rng), 2, rng.uniform(15, 18), vertical=True)
    flow_down(sheet, pymupdf.Rect(left, lower.y0, x, foot), body(prose, rng, 8), size)


DRAW = {"zh_newspaper": zh_newspaper, "zh_textbook": zh_textbook, "zh_vertical": zh_vertical}


def draw_cjk_page(family: str, prose: Prose, seed: int) -> tuple[bytes, str]:
    """A one-page PDF of the family and its Markdown truth, the same for the same seed."""
    return draw_sheet(CjkSheet, DRAW[family], prose, seed)
