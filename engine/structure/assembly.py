"""Page structure: text lines assigned to layout regions, regions turned into blocks, captions
and footnotes placed; the steps that use them in order are engine/structure/page_blocks.py."""

from __future__ import annotations

import re
from dataclasses import replace

from engine.formulas.latex_print import compact
from engine.structure.assembly_rules import ASSEMBLY, AssemblyRules
from engine.structure.furniture import in_display_type
from engine.structure.furniture_rules import FURNITURE, FurnitureRules
from engine.structure.paragraph_rules import PARAGRAPHS, ParagraphRules
from engine.structure.paragraphs import build_blocks, join_lines, lines_box
from engine.structure.reading_order import body_line_height
from engine.structure.row_rules import ROWS, RowRules
from engine.structure.rows import justified_span, level_with
from engine.structure.vertical_rules import VERTICAL, VerticalRules
from engine.text import has_cjk
from engine.types import Block, BlockKind, Box, Line, Region

TEXT_LIKE = {BlockKind.TEXT, BlockKind.TITLE, BlockKind.SECTION_HEADER, BlockKind.LIST_ITEM,
             BlockKind.CAPTION, BlockKind.FOOTNOTE, BlockKind.REFERENCE, BlockKind.HEADER,
             BlockKind.FOOTER, BlockKind.CODE}
# Region kinds whose own label is more reliable than font-size guesses inside them.
KEEP_REGION_KIND = {BlockKind.TITLE, BlockKind.SECTION_HEADER, BlockKind.CAPTION,
                    BlockKind.FOOTNOTE, BlockKind.REFERENCE, BlockKind.HEADER, BlockKind.FOOTER,
                    BlockKind.CODE, BlockKind.LIST_ITEM}
_SECTION_NUMBER = re.compile(r"^\s*(\d+(?:\.\d+)*)\.?\s+\S")


def display_header(region: Region, body_height: float,
                   furniture: FurnitureRules = FURNITURE) -> Region:
    """A page-header region in display type (`furniture.display_type`) becomes a section
    header: a masthead or a headline at the top of a large page, not a running head."""
    if region.kind is not BlockKind.HEADER or not in_display_type(region.lines, body_height,
                                                                   furniture):
        return region
    return replace(region, kind=BlockKind.SECTION_HEADER)


def drop_nested_text(regions: list[Region], lines: list[Line] = (),
                     rules: AssemblyRules = ASSEMBLY) -> list[Region]:
    """Text-like regions mostly inside a larger text-like region (`rules.nested_text_share`)
    are removed, so the lines they cover stay with the paragraph they belong to; unless the
    smaller one is a column beside which the larger one holds another column's lines
    (`beside_column`)."""
    kept = []
    for region in regions:
        inside_larger = region.kind in TEXT_LIKE and region.box.area > 0 and any(
            other is not region and other.kind in TEXT_LIKE and other.box.area > region.box.area
            and region.box.share_inside(other.box) >= rules.nested_text_share
            and not beside_column(region, other, lines, rules)
            for other in regions)
        if not inside_larger:
            kept.append(region)
    return kept


def beside_column(region: Region, larger: Region, lines: list[Line],
                  rules: AssemblyRules = ASSEMBLY) -> bool:
    """Whether `region` is a column of lines of its own beside which `larger` holds more (level
    with it, clear of it on the left or right): both run over `rules.column_lines` rows or more
    (words of one row boxed apart are no column), and the larger one spans a gutter: a
    newspaper's column boxed once alone and once with its neighbour."""
    box = region.box
    whole = [ln for ln in lines if ln.box.share_inside(box) >= rules.whole_line_share]
    if rows(whole) < rules.column_lines:
        return False
    beside = [ln for ln in lines if ln.box.share_inside(larger.box) >= rules.min_line_share
              and (ln.box.x0 >= box.x1 or ln.box.x1 <= box.x0)
              and ln.box.y0 < box.y1 and ln.box.y1 > box.y0]
    return rows(beside) >= rules.column_lines


def rows(lines: list[Line]) -> int:
    """How many rows `lines` stand in, one under another."""
    count, bottom = 0, float("-inf")
    for line in sorted(lines, key=lambda ln: ln.box.y0):
        if line.box.center_y > bottom:
            count, bottom = count + 1, line.box.y1
    return count


def assign_lines(lines: list[Line], regions: list[Region], row_rules: RowRules = ROWS,
                 rules: AssemblyRules = ASSEMBLY) -> tuple[list[Region], list[Line]]:
    """The regions holding their lines and the lines no region holds, which are kept as text of
    their own. A line belongs to the region holding most of it (at least
    `rules.min_line_share`); of regions holding it within `rules.nested_share` of the most,
    the smallest: a region nested in another (a column's paragraph in a box over two columns)
    whose edge stops a pixel short of a justified column's first word still holds that word.
    `row_rules`: what a row of a region is (engine/structure/row_rules.py)."""
    per_region: list[list[Line]] = [[] for _ in regions]
    leftover: list[Line] = []
    for line in lines:
        shares = [(line.box.share_inside(region.box), i) for i, region in enumerate(regions)]
        shares = [(share, i) for share, i in shares if share >= rules.min_line_share]
        if not shares:
            leftover.append(line)
            continue
        most = max(share for share, _ in shares)
        best = min((i for share, i in shares if share >= most - rules.nested_share),
                   key=lambda i: regions[i].box.area)
        per_region[best].append(line)
    stray = []
    for line in leftover:
        row = row_region(line, regions, per_region, lines, row_rules, rules)
        if row is None:
            stray.append(line)
        else:
            per_region[row].append(line)
    return [replace(r, lines=tuple(held)) for r, held in zip(regions, per_region)], stray


def row_region(line: Line, regions: list[Region], held: list[list[Line]],
               lines: list[Line], row_rules: RowRules = ROWS,
               rules: AssemblyRules = ASSEMBLY) -> int | None:
    """The text region whose lines continue `line`'s row, if any: it reaches into the region
    (a word sticking out of its box, flush with a justified column's edge the box stops short
    of) with a line the region holds level with it within `rules.row_word_gap` line heights and
    nothing as near beyond it (the next column's first word, reaching a pixel into a region
    that missed its column, is followed by the rest of its row), or a full row of its column,
    above or below, runs from the
    region's piece to the line's far end, flush with it (rows.justified_span: the region's
    box stops short of a justified column's edge, or the layout model drew one region over the
    column's text and missed a word at its edge). `lines`: every line of the page."""
    height = max(line.box.height, 1.0)
    reach = rules.row_word_gap * height
    for i, region in enumerate(regions):
        if region.kind not in TEXT_LIKE:
            continue
        reaches_in = line.box.share_inside(region.box) > 0
        for other in held[i]:
            if not level_with(other, line):
                continue
            right_gap = line.box.x0 - other.box.x1
            left_gap = other.box.x0 - line.box.x1
            if right_gap >= -0.2 * height:
                gap, start, end = right_gap, other.box.x0, line.box.x1
                beyond = [ln for ln in lines if 0 <= ln.box.x0 - line.box.x1 <= reach]
            elif left_gap >= -0.2 * height:
                gap, start, end = left_gap, other.box.x1, line.box.x0
                beyond = [ln for ln in lines if 0 <= line.box.x0 - ln.box.x1 <= reach]
            else:
                continue
            if reaches_in and gap <= reach and not any(
                    ln is not line and level_with(ln, line) for ln in beyond):
                return i
            if gap <= row_rules.justified_gap * height and justified_span(
                    start, end, line, lines, rules=row_rules):
                return i
    return None


def heading_level(kind: BlockKind, text: str) -> int:
    """Titles are level 1; section headers 2, or deeper when numbered like 3.1 or 3.1.2."""
    if kind is BlockKind.TITLE:
        return 1
    match = _SECTION_NUMBER.match(text)
    if match:
        return min(6, 1 + match.group(1).count(".") + 1)
    return 2


def region_blocks(region: Region, page_lines: list[Line] | None = None,
                  vertical: VerticalRules = VERTICAL, row_rules: RowRules = ROWS,
                  paragraphs: ParagraphRules = PARAGRAPHS) -> list[Block]:
    """The blocks one region contributes, its text taken from the lines it holds (`page_lines`:
    every line of the page, for telling a row's pieces from two columns' lines)."""
    lines = list(region.lines)
    ordered = sorted(lines, key=lambda ln: (ln.box.y0, ln.box.x0))
    text = join_lines([ln.text for ln in ordered])
    if region.kind is BlockKind.TABLE:
        return [Block(BlockKind.TABLE, region.box, tuple(ordered), text, region.score,
                      table=region.table, crop=region.crop)]
    if region.kind is BlockKind.FORMULA:
        formula = region.formula
        if formula is not None:
            formula = replace(formula, latex=compact(formula.latex))
        return [Block(BlockKind.FORMULA, region.box, tuple(ordered), text, region.score,
                      formula=formula, crop=region.crop)]
    if region.kind is BlockKind.FIGURE:
        # Text inside a figure (axis labels, callouts) stays with the figure in the JSON.
        return [Block(BlockKind.FIGURE, region.box, tuple(ordered), "", region.score,
                      crop=region.crop)]
    if not lines:
        return []
    blocks = build_blocks(lines, page_lines, vertical, rows=row_rules, rules=paragraphs)
    if region.kind in KEEP_REGION_KIND:
        if region.kind in (BlockKind.TITLE, BlockKind.SECTION_HEADER):
            # A heading region is one heading, however its lines wrapped.
            return [Block(region.kind, lines_box(ordered), tuple(ordered), text, region.score,
                          level=heading_level(region.kind, text))]
        if region.kind in (BlockKind.CAPTION, BlockKind.FOOTNOTE, BlockKind.HEADER,
                           BlockKind.FOOTER):
            # One caption or note, even when its first words are set in another font.
            return [Block(region.kind, lines_box(ordered), tuple(ordered), text, region.score)]
        if region.kind is BlockKind.LIST_ITEM and len(blocks) > 1 and not any(
                b.kind is BlockKind.LIST_ITEM for b in blocks[1:]):
            return [Block(BlockKind.LIST_ITEM, lines_box(ordered), tuple(ordered), text,
                          region.score)]
        return [replace(b, kind=region.kind) if b.kind is not BlockKind.LIST_ITEM
                or region.kind is not BlockKind.LIST_ITEM else b for b in blocks]
    # Inside a text region the layout model's word is final: no font-size headings.
    return [replace(b, kind=BlockKind.TEXT, level=0)
            if b.kind in (BlockKind.SECTION_HEADER, BlockKind.TITLE) else b for b in blocks]


_CAPTION_START = re.compile(r"^\s*(table|tab\.|figure|fig\.|chart|图|表)\s*[\dIVX]", re.IGNORECASE)


def label_captions(blocks: list[Block]) -> list[Block]:
    """Text that starts like a caption ("Table 3.", "Fig. 2") and sits right by a table or
    figure is its caption, whatever the layout model called it."""
    objects = [b for b in blocks if b.kind in (BlockKind.TABLE, BlockKind.FIGURE)]
    if not objects:
        return blocks
    return [replace(b, kind=BlockKind.CAPTION)
            if b.kind is BlockKind.TEXT and _CAPTION_START.match(b.text)
            and _nearest_object(b, objects) is not None else b for b in blocks]


def place_captions(blocks: list[Block]) -> list[Block]:
    """Each caption goes next to the nearest table or figure it touches: below a figure, where
    it was relative to a table. Unmatched captions keep their place."""
    objects = [b for b in blocks if b.kind in (BlockKind.TABLE, BlockKind.FIGURE)]
    if not objects:
        return blocks
    result = [b for b in blocks if b.kind is not BlockKind.CAPTION]
    for caption in (b for b in blocks if b.kind is BlockKind.CAPTION):
        target = _nearest_object(caption, objects)
        if target is None:
            # Keep the caption where reading order put it, relative to its neighbours.
            original = blocks.index(caption)
            before = [b for b in blocks[:original] if b in result]
            result.insert(result.index(before[-1]) + 1 if before else 0, caption)
            continue
        at = result.index(target)
        above = caption.box.center_y < target.box.center_y
        if target.kind is BlockKind.TABLE and above:
            result.insert(at, caption)
        else:
            result.insert(at + 1, caption)
    return result


def _nearest_object(caption: Block, objects: list[Block]) -> Block | None:
    best, best_gap = None, None
    for obj in objects:
        overlap = min(obj.box.x1, caption.box.x1) - max(obj.box.x0, caption.box.x0)
        if overlap < 0.3 * min(obj.box.width, caption.box.width):
            continue
        gap = max(obj.box.y0 - caption.box.y1, caption.box.y0 - obj.box.y1, 0.0)
        if gap > 4 * _line_height(caption) + 0.05 * obj.box.height:
            continue
        if best_gap is None or gap < best_gap:
            best, best_gap = obj, gap
    return best


def _line_height(block: Block) -> float:
    """A caption's reach is counted in its lines, not its height: a paragraph that starts with
    "Table 1 is ..." four lines below nothing is not a caption of a table a page away (a real
    ASME sample page, tools/structure/published.py: 0.72 -> 0.91; no other page of its 40, of
    the generated set or of the dev set moved)."""
    return max(body_line_height([block]) or block.box.height, 1.0)


def footnotes_last(blocks: list[Block]) -> list[Block]:
    notes = [b for b in blocks if b.kind is BlockKind.FOOTNOTE]
    return [b for b in blocks if b.kind is not BlockKind.FOOTNOTE] + notes


def holds_cjk_text(region: Region, lines: list[Line], rules: AssemblyRules = ASSEMBLY) -> bool:
    """Whether a figure region holds a paragraph's worth of CJK writing (Han, kana, Hangul):
    text the layout model took for a picture, a tinted note box or columns of vertical writing
    (it was trained on English pages)."""
    held = [ln for ln in lines if ln.box.share_inside(region.box) >= rules.min_line_share]
    chars = sum(1 for ln in held for ch in ln.text if has_cjk(ch))
    return len(held) >= rules.figure_text_lines and chars >= rules.figure_text_chars


def split_watermarks(lines: list[Line], rules: AssemblyRules = ASSEMBLY
                     ) -> tuple[list[Line], list[Line]]:
    """(the page's lines, the slanted lines printed over them): a slanted line lying over
    `rules.watermark_min_lines` other lines is printed across the page's text, a watermark or
    a stamp ("Unpublished working draft", "CONFIDENTIAL"); a table's column heads turned 45
    degrees stand in their own cells, over no other line."""
    over = [line for line in lines if line.slanted and sum(
        other is not line and other.box.share_inside(line.box) >= 0.5 for other in lines
    ) >= rules.watermark_min_lines]
    return [line for line in lines if line not in over], over
