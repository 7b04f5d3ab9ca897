"""The handwriting set's generator (tools/handwriting): every kind draws, labels follow the share
of handwritten characters (a form with fill-ins is print, a letterhead letter is handwriting),
and the same seed gives the same scan."""

from __future__ import annotations

import random

import pytest

from tools.handwriting.fonts import FontsMissing, font_pools
from tools.handwriting.pages import HANDWRITING_KINDS, PRINTED_KINDS, draw_page
from tools.handwriting.scan import scan
from tools.structure.text_source import load_prose


@pytest.fixture(scope="module")
def drawing():
    try:
        fonts = font_pools(None)  # Debian's fonts only: no npm
    except FontsMissing as exc:  # tools/system_deps.sh installs them for `make test`
        pytest.skip(str(exc))
    return load_prose(), fonts


@pytest.mark.parametrize("kind", HANDWRITING_KINDS + PRINTED_KINDS)
def test_each_kind_is_labelled_by_its_share_of_handwriting(drawing, kind):
    prose, fonts = drawing
    page = draw_page(kind, prose, fonts, random.Random(4))
    assert page.pdf.startswith(b"%PDF")
    if kind in HANDWRITING_KINDS:
        assert page.handwriting_share > 0.6
    elif kind == "form":
        assert 0 < page.handwriting_share < 0.4
    else:
        assert page.handwriting_share == 0


def test_the_same_seed_draws_and_scans_the_same_bytes(drawing):
    prose, fonts = drawing
    first = draw_page("letter", prose, fonts, random.Random(9))
    again = draw_page("letter", prose, fonts, random.Random(9))
    # (the PDFs differ in their file identifiers; what they draw does not)
    assert scan(first.pdf, random.Random(1), dpi=150) == scan(again.pdf, random.Random(1), dpi=150)
    assert scan(first.pdf, random.Random(1), dpi=150) != scan(first.pdf, random.Random(2), dpi=150)


def test_unknown_kinds_are_refused(drawing):
    prose, fonts = drawing
    with pytest.raises(ValueError, match="unknown page kind"):
        draw_page("poster", prose, fonts, random.Random(1))
