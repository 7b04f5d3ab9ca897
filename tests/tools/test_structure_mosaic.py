"""The randomised families of the structure set (tools/structure/mosaic.py): every word of the
truth on the page, and newspaper partitions with exactly one reading order."""

from __future__ import annotations

import random

import pymupdf
import pytest

from tools.structure.generate import draw_family_page
from tools.structure.mosaic import MOSAIC_FAMILIES, Area, partition


@pytest.fixture(scope="module")
def texts():
    return {}


@pytest.mark.parametrize("family", MOSAIC_FAMILIES)
@pytest.mark.parametrize("seed", [3, 11, 27])
def test_every_word_of_the_truth_is_on_the_page(texts, family, seed):
    pdf, truth = draw_family_page(family, seed, texts)
    with pymupdf.open(stream=pdf) as doc:
        page_words = sorted(doc[0].get_text().split())
    truth_words = sorted(w for w in truth.split() if not set(w) <= {"#"})
    # The page holds the truth's words and at most a folio: nothing drawn is left out of it.
    assert 0 <= len(page_words) - len(truth_words) <= 1
    assert set(truth_words) <= set(page_words)


def test_the_same_seed_draws_the_same_page(texts):
    assert draw_family_page("broadsheet", 9, texts) == draw_family_page("broadsheet", 9, texts)
    assert draw_family_page("broadsheet", 9, texts)[1] != draw_family_page("broadsheet", 10,
                                                                           texts)[1]


def cuts_through(areas: list[Area]) -> tuple[set[float], set[int]]:
    """The stripes across all of `areas` and the gutters down all of them."""
    first, last = min(a.first for a in areas), max(a.last for a in areas)
    top, foot = min(a.y0 for a in areas), max(a.y1 for a in areas)
    across = {a.y1 for a in areas if a.y1 < foot
              and not any(b.y0 < a.y1 < b.y1 for b in areas)}
    down = {c for c in range(first + 1, last) if not any(b.first < c < b.last for b in areas)}
    assert top < foot
    return across, down


def one_reading(areas: list[Area]) -> bool:
    """No part of the partition can be cut both across and down (rows or columns first)."""
    if len(areas) == 1:
        return True
    across, down = cuts_through(areas)
    if across and down:
        return False
    if down:
        edges = [min(a.first for a in areas), *sorted(down), max(a.last for a in areas)]
        parts = [[a for a in areas if lo <= a.first and a.last <= hi]
                 for lo, hi in zip(edges, edges[1:])]
    else:
        edges = [min(a.y0 for a in areas), *sorted(across), max(a.y1 for a in areas)]
        parts = [[a for a in areas if lo <= a.y0 and a.y1 <= hi]
                 for lo, hi in zip(edges, edges[1:])]
    return all(one_reading(part) for part in parts)


@pytest.mark.parametrize("seed", range(40))
def test_a_newspaper_partition_covers_the_page_and_reads_one_way(seed):
    whole = Area(0, 5, 0.0, 800.0)
    areas = partition(whole, random.Random(seed))
    covered = sum((a.last - a.first) * (a.y1 - a.y0) for a in areas)
    assert covered == pytest.approx((whole.last - whole.first) * (whole.y1 - whole.y0))
    assert one_reading(areas)
