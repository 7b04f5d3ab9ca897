"""The tables-across-pages set (tools/xtables): a generated document has the table its truth
says, reaching the foot of page 1, and the scores count joins per page break."""

from __future__ import annotations

import random

import pymupdf

from engine.content.tables import Table
from engine.types import Block, BlockKind, Box, DocumentResult, PageResult, TextSource
from tools.xtables.generate import FAMILIES, generate_document
from tools.xtables.measure import joined_breaks, scores


class FixedProse:
    paragraphs = ("Words of a paragraph that runs over a line or two of the page. " * 3,)

    def sample(self, rng, count):
        return list(self.paragraphs) * count

    def title(self, rng):
        return "A title"


WORDS = [f"word{n}" for n in range(60)]


def test_every_family_is_drawn_with_its_truth(tmp_path):
    for family in FAMILIES:
        truth = generate_document(random.Random(3), FixedProse(), WORDS, family, family, tmp_path)
        with pymupdf.open(tmp_path / f"{family}.pdf") as doc:
            assert doc.page_count == truth["pages"] == (3 if family == "join_long" else 2)
            first = doc[0]
            # the table's last row stands near the foot of page 1, above the page number
            lowest = max(b[3] for b in first.get_text("blocks") if b[4].strip() != "1")
            assert lowest > 0.8 * first.rect.height
        assert all(b["joined"] == family.startswith("join") for b in truth["boundaries"])
        assert (truth["first_table_rows"] is None) == family.startswith("apart")


def test_scores_count_joins_per_page_break():
    def page(number: int, *blocks: Block) -> PageResult:
        return PageResult(number, 100, 100, 72.0, TextSource.TEXT_LAYER, "", blocks)

    joined = Block(BlockKind.TABLE, Box(0, 0, 1, 1), table=Table((), 0, 0), table_pages=(1, 2))
    result = DocumentResult("a.pdf", "pdf", 2, (page(1, joined), page(2)))
    assert joined_breaks(result) == {(1, 2)}
    documents = [
        {"breaks": [{"truth": True, "joined": True, "tables_found": True}], "extra_joins": [],
         "truth_rows": 5, "rows": 5, "seconds": 1.0},
        {"breaks": [{"truth": True, "joined": False, "tables_found": False}], "extra_joins": [],
         "truth_rows": 7, "rows": 3, "seconds": 1.0},
        {"breaks": [{"truth": False, "joined": True, "tables_found": True}], "extra_joins": [],
         "truth_rows": None, "rows": 9, "seconds": 1.0},
    ]
    figures = scores(documents)
    assert figures["precision"] == 0.5 and figures["recall"] == 0.5
    assert figures["found_recall"] == 1.0 and figures["rows_exact"] == 1.0
