"""The table page stage: each table region's cells, or its image when unparsable;
columns of prose, indexes and tables of contents, and column-set text the table model's grid
cuts through, all of which the layout model took for a table, go back to being text."""

from __future__ import annotations

from dataclasses import replace

from engine.page import PageState, keep_crop
from engine.tables.cell_rules import TABLE_CELLS, TableCellRules
from engine.tables.evidence import cuts_through_lines, is_leader_list, is_prose_columns
from engine.tables.evidence_rules import TABLE_EVIDENCE, TableEvidenceRules
from engine.tables.lineless import table_in_region
from engine.tables.lineless_rules import LINELESS, LinelessRules
from engine.types import BlockKind, Region, TextSource


def recognize_tables(page: PageState, models, evidence: TableEvidenceRules = TABLE_EVIDENCE,
                     lineless: LinelessRules = LINELESS,
                     cells: TableCellRules = TABLE_CELLS) -> PageState:
    """`evidence`: when a table region's grid is a table (engine/tables/evidence_rules.py);
    `lineless`: when a rejected region's text-layer lines are a lineless table; `cells`: how
    the region's lines are laid into the grid's cells (engine/tables/cell_rules.py)."""
    # A table found from the text layer's alignment (engine/tables/lineless.py) is read already.
    if not any(_unread(r) for r in page.regions or ()):
        return page
    recognizer = models.table_recognizer()
    read = [_read_table(page, recognizer, r, i, evidence, lineless, cells) if _unread(r)
            else (r, None) for i, r in enumerate(page.regions)]
    unparsed = [(region, reason) for region, reason in read if reason is not None]
    page = page.with_crops(region for region, _ in unparsed)
    for _, reason in unparsed:
        page = page.warn(f"a table could not be parsed ({reason}); kept as an image with its "
                         "text")
    return replace(page, regions=tuple(region for region, _ in read))


def _unread(region: Region) -> bool:
    return region.kind is BlockKind.TABLE and region.table is None


def _read_table(page: PageState, recognizer, region: Region, index: int,
                evidence: TableEvidenceRules = TABLE_EVIDENCE,
                rules: LinelessRules = LINELESS, cells: TableCellRules = TABLE_CELLS
                ) -> tuple[Region, str | None]:
    """The table region with its cells; made text when the recogniser's grid shows it is none;
    or keeping its crop (`index`, its place among the page's regions, names the file), with the
    reason the recogniser gave (None when it is not kept as an image)."""
    crop = page.crop(region.box)
    lines = page.region_lines(region.box)
    result = recognizer.recognize(crop, lines, cells)
    rejected = (is_prose_columns(result, crop, evidence)
                or cuts_through_lines(result, lines, evidence, cells)
                or is_leader_list(result, [ln.text for ln in lines], evidence))
    lineless = (table_in_region(lines, rules) if page.text_source is TextSource.TEXT_LAYER
                and (rejected or not result.ok) else None)
    if lineless is not None:
        return replace(region, table=lineless), None
    if rejected:
        return replace(region, kind=BlockKind.TEXT), None
    if result.ok:
        return replace(region, table=result.table), None
    return keep_crop(page, region, index), result.reason
