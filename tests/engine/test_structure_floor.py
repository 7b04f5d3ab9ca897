"""Born-digital pages are never read worse than their own text layer: on generated pages of
every layout family (tools/structure: the templates, the Chinese families and the randomised
mosaics, at a seed that no threshold was chosen on), Paperlens's order-sensitive similarity to
the truth is at least that of PyMuPDF's text in the PDF's own order. A trustworthy text layer
must not be made worse by layout, order or paragraph rules."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from engine.options import ConvertOptions
from tools.eval.scoring import text_similarity
from tools.structure.evaluate import pdf_text_order
from tools.structure.generate import ALL_FAMILIES

pytestmark = [pytest.mark.model, pytest.mark.slow]

REPO = Path(__file__).resolve().parents[2]
# Seed 1 is the set thresholds were chosen on, seed 2 the held-out check; these are neither.
SEED = 3
PAGES_PER_FAMILY = 3


def _generate(out: Path, seed: int, count: int, families, only=()) -> Path:
    """Pages drawn by the generator's own command (born-digital only: no scans are read here):
    the prose comes from the docstrings of the modules an interpreter has imported, and a test
    run has imported more than the command."""
    subprocess.run([sys.executable, "-m", "tools.structure", "generate", "--seed", str(seed),
                    "--count", str(count), "--families", ",".join(families), "--out", str(out),
                    "--no-scans", *(["--only", ",".join(only)] if only else [])],
                   check=True, capture_output=True, cwd=REPO)
    return out


def _below_text_layer(engine, pdf: Path) -> str | None:
    truth = pdf.with_suffix(".md").read_text(encoding="utf-8")
    ours = text_similarity(engine.convert(pdf, ConvertOptions()).markdown, truth)
    floor = text_similarity(pdf_text_order(pdf), truth)
    return f"{pdf.name}: {ours:.4f} < text layer {floor:.4f}" if ours < floor else None


@pytest.fixture(scope="module")
def fresh_pages(tmp_path_factory) -> Path:
    return _generate(tmp_path_factory.mktemp(f"structure-seed-{SEED}"), SEED, PAGES_PER_FAMILY,
                     ALL_FAMILIES)


@pytest.mark.parametrize("family", ALL_FAMILIES)
def test_no_born_digital_page_below_its_text_layer(engine, fresh_pages: Path, family):
    pages = [fresh_pages / f"{family}-{n:03d}.pdf" for n in range(PAGES_PER_FAMILY)]
    below = [msg for msg in (_below_text_layer(engine, pdf) for pdf in pages) if msg]
    assert below == []


# Born-digital pages of the tuning seed that once read below their text layer, each for its
# own fault: a headline over a picture and a column's last paragraph taken for page furniture
# (broadsheet_full 0), a column boxed inside a region over two columns, and a column's first
# word held by that box (2), a story under a lead across its columns read after the next row
# (5), a column's spread last row at the foot of the page (newspaper 4), "low- and high-level"
# mended into "lowand" (newspaper 0), a justified row taken for two columns because the next
# row's words end and start level with its own (broadsheet 1), a first row of two words spread
# over a narrow column (broadsheet 6).
ONCE_BELOW = [("broadsheet_full", 0), ("broadsheet_full", 2), ("broadsheet_full", 5),
              ("newspaper", 4), ("newspaper", 0), ("broadsheet", 1), ("broadsheet", 6)]


@pytest.fixture(scope="module")
def tuning_pages(tmp_path_factory) -> Path:
    families = sorted({family for family, _ in ONCE_BELOW})
    return _generate(tmp_path_factory.mktemp("structure-seed-1"), 1,
                     1 + max(n for _, n in ONCE_BELOW), families,
                     only=[f"{family}-{n:03d}" for family, n in ONCE_BELOW])


@pytest.mark.parametrize(("family", "n"), ONCE_BELOW)
def test_pages_once_below_their_text_layer_are_not(engine, tuning_pages: Path, family, n):
    assert _below_text_layer(engine, tuning_pages / f"{family}-{n:03d}.pdf") is None
