"""Born-digital pages are never read worse than their own text layer: on generated pages of
every layout family (tools/structure, seeds that no threshold was chosen on), Paperlens's
order-sensitive similarity to the truth is at least that of PyMuPDF's text in the PDF's own
order. A trustworthy text layer must not be made worse by layout, order or paragraph rules."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.options import ConvertOptions
from tools.eval.scoring import text_similarity
from tools.structure.evaluate import pdf_text_order
from tools.structure.layouts import FAMILIES, draw_page
from tools.structure.text_source import load_prose

pytestmark = [pytest.mark.model, pytest.mark.slow]

# Seed 1 is the set thresholds were chosen on, seed 2 the held-out check; these are neither.
SEED = 3
PAGES_PER_FAMILY = 3


@pytest.fixture(scope="module")
def prose():
    return load_prose()


@pytest.mark.parametrize("family", FAMILIES)
def test_no_born_digital_page_below_its_text_layer(engine, prose, tmp_path: Path, family):
    below = []
    for n in range(PAGES_PER_FAMILY):
        pdf_bytes, truth = draw_page(family, prose, SEED * 1_000_003 + FAMILIES.index(family)
                                     * 10_007 + n)
        pdf = tmp_path / f"{family}-{n}.pdf"
        pdf.write_bytes(pdf_bytes)
        ours = text_similarity(engine.convert(pdf, ConvertOptions()).markdown, truth)
        floor = text_similarity(pdf_text_order(pdf), truth)
        if ours < floor:
            below.append(f"{pdf.name}: {ours:.4f} < text layer {floor:.4f}")
    assert below == []
