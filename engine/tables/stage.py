"""The table page stage: each table region's cells, or its image when unparsable;
columns of prose, indexes and tables of contents, and column-set text the table model's grid
cuts through, all of which the layout model took for a table, go back to being text."""

from __future__ import annotations

from dataclasses import replace

from engine.page import PageState, keep_crop, regions_of
from engine.tables.evidence import cuts_through_lines, is_leader_list, is_prose_columns
from engine.tables.evidence_rules import TABLE_EVIDENCE, TableEvidenceRules
from engine.tables.lineless import table_in_region
from engine.tables.lineless_rules import LINELESS, LinelessRules
from engine.types import BlockKind, TextSource


def recognize_tables(page: PageState, models, evidence: TableEvidenceRules = TABLE_EVIDENCE,
                     lineless: LinelessRules = LINELESS) -> PageState:
    """`evidence`: when a table region's grid is a table (engine/tables/evidence_rules.py);
    `lineless`: when a rejected region's text-layer lines are a lineless table."""
    # A table found from the text layer's alignment (engine/tables/lineless.py) is read already.
    tables = [i for i in regions_of(page, BlockKind.TABLE) if page.regions[i].table is None]
    if not tables:
        return page
    recognizer = models.table_recognizer()
    regions = list(page.regions)
    for i in tables:
        box = regions[i].box
        crop = page.crop(box)
        lines = page.region_lines(box)
        result = recognizer.recognize(crop, lines)
        rejected = (is_prose_columns(result, crop, evidence)
                    or cuts_through_lines(result, lines, evidence)
                    or is_leader_list(result, [ln.text for ln in lines], evidence))
        found = (table_in_region(lines, lineless) if page.text_source is TextSource.TEXT_LAYER
                    and (rejected or not result.ok) else None)
        if found is not None:
            regions[i] = replace(regions[i], table=found)
        elif rejected:
            regions[i] = replace(regions[i], kind=BlockKind.TEXT)
        elif result.ok:
            regions[i] = replace(regions[i], table=result.table)
        else:
            page, regions[i] = keep_crop(page, regions[i], i)
            page = page.warn(f"a table could not be parsed ({result.reason}); kept as an image "
                             "with its text")
    return replace(page, regions=tuple(regions))
