"""Handwritten pages through the real engine: a generated handwriting-like page is marked (JSON
field, page warning) and a generated printed page is not, and the dev set's handwritten Lincoln
letter is marked. The text is the recogniser's either way: the mark only warns."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from engine.options import ConvertOptions

pytestmark = pytest.mark.model

LINCOLN = Path(__file__).resolve().parents[2].parent / "shared" / "eval" / "dev" / "items" \
    / "olmocr-lincoln_letter" / "input.pdf"


@pytest.fixture(scope="module")
def drawn_pages(tmp_path_factory):
    """One handwriting-like letter and one printed page, scanned at 150 dpi (Debian fonts)."""
    from tools.handwriting.fonts import FontsMissing, font_pools
    from tools.handwriting.pages import draw_page
    from tools.handwriting.scan import scan
    from tools.structure.text_source import load_prose

    try:
        fonts = font_pools(None)
    except FontsMissing as exc:  # tools/system_deps.sh installs them for `make test`
        pytest.skip(str(exc))
    prose = load_prose()
    folder = tmp_path_factory.mktemp("handwriting")
    paths = {}
    for kind, seed in (("letter", 11), ("printed", 12)):
        rng = random.Random(seed)
        drawn = draw_page(kind, prose, fonts, rng)
        paths[kind] = folder / f"{kind}.jpg"
        paths[kind].write_bytes(scan(drawn.pdf, rng, dpi=150))
    return paths


def convert(engine, source: Path, out: Path) -> tuple[dict, object]:
    result = engine.convert(source, ConvertOptions(output_dir=str(out)))
    data = json.loads((out / f"{source.stem}.json").read_text(encoding="utf-8"))
    return data["pages"][0], result


@pytest.mark.parametrize("kind, handwritten", [("letter", True), ("printed", False)])
def test_only_the_handwritten_page_is_marked(engine, drawn_pages, tmp_path, kind, handwritten):
    page, result = convert(engine, drawn_pages[kind], tmp_path)
    assert page["handwriting"] is handwritten
    marked = [w for w in result.warnings if "looks handwritten" in w]
    page_marks = [w for w in result.pages[0].warnings if "looks handwritten" in w]
    assert marked == (["page 1: " + page_marks[0]] if handwritten else [])
    assert len(page_marks) == (1 if handwritten else 0)
    # A handwritten page may also have lines the print recogniser could not read: then it is
    # partial, and says so (engine/ocr/coverage.py); a printed page is read whole.
    if handwritten and page["status"] == "partial":
        assert [e["kind"] for e in page["errors"]] == ["TextNotRead"]
    else:
        assert page["status"] == "ok"
    assert result.markdown.strip()  # the text is still there, with the warning beside it


@pytest.mark.skipif(not LINCOLN.exists(), reason="the dev set (../shared/eval) is not here")
def test_the_handwritten_lincoln_letter_is_marked(engine, tmp_path):
    page, result = convert(engine, LINCOLN, tmp_path)
    assert page["handwriting"] is True
    assert any("looks handwritten" in w for w in page["warnings"])
