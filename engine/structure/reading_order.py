"""Reading order: columns found by whitespace cuts, full-width blocks as separators."""

from __future__ import annotations

from engine.types import Block

# A block wider than this share of the page's text width spans the columns.
SPANNING_SHARE = 0.6
# Narrowest gutter that separates two columns, as a share of the text width.
MIN_GUTTER_SHARE = 0.015


def order_blocks(blocks: list[Block]) -> list[Block]:
    """Blocks in the order a person reads them: top to bottom, column by column."""
    if len(blocks) <= 1:
        return list(blocks)
    left = min(b.box.x0 for b in blocks)
    right = max(b.box.x1 for b in blocks)
    width = max(right - left, 1.0)
    spanning = [b for b in blocks if b.box.width >= SPANNING_SHARE * width]
    ordered: list[Block] = []
    pending = [b for b in blocks if b not in spanning]
    for separator in sorted(spanning, key=lambda b: b.box.y0):
        above = [b for b in pending if b.box.center_y < separator.box.y0 + 0.5 * separator.box.height]
        pending = [b for b in pending if b not in above]
        ordered.extend(_xy_cut(above, width))
        ordered.append(separator)
    ordered.extend(_xy_cut(pending, width))
    return ordered


def _xy_cut(blocks: list[Block], page_width: float) -> list[Block]:
    if len(blocks) <= 1:
        return list(blocks)
    columns = _split(blocks, axis="x", min_gap=MIN_GUTTER_SHARE * page_width)
    if len(columns) > 1:
        return [b for column in columns for b in _xy_cut(column, page_width)]
    bands = _split(blocks, axis="y", min_gap=0.0)
    if len(bands) > 1:
        return [b for band in bands for b in _xy_cut(band, page_width)]
    return sorted(blocks, key=lambda b: (b.box.y0, b.box.x0))


def _split(blocks: list[Block], axis: str, min_gap: float) -> list[list[Block]]:
    """Groups separated by empty stripes along the axis (projection profile cut)."""
    if axis == "x":
        spans = sorted((((b.box.x0, b.box.x1), b) for b in blocks), key=lambda s: s[0])
    else:
        spans = sorted((((b.box.y0, b.box.y1), b) for b in blocks), key=lambda s: s[0])
    groups: list[list[Block]] = [[spans[0][1]]]
    reach = spans[0][0][1]
    for (start, end), block in spans[1:]:
        if start - reach > min_gap:
            groups.append([block])
        else:
            groups[-1].append(block)
        reach = max(reach, end)
    return groups
