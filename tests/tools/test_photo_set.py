"""No silent loss on photographed pages and on the dev set's scans: a page read as `ok` holds
its text (character similarity 0.9 or better), a page that lost text says so (partial, with a
warning), and clean scans are not marked partial (engine/ocr/coverage.py, tools/photos)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.options import ConvertOptions
from engine.types import Status
from tools.eval.scoring import text_similarity
from tools.photos import camera, pages

pytestmark = [pytest.mark.model]

# The dev set's OCR pages whose truth is their whole text (scans, photos, Chinese lines).
DEV_OCR_ITEMS = ("docling-ocr_test", "olmocr-lincoln_letter", "rapidocr-text_rec",
                 "rapidocr-en_rec", "rapidocr-black_font_color_transparent", "tesseract-phototest",
                 # A poster: a photograph whose fabric the page's ink check must not take for
                 # print.
                 "olmocr-test-graphical-text")


def test_the_photos_effects_are_drawn_the_same_for_the_same_seed():
    page = pages.pixels(pages.draw("en_prose", 1)[0], dpi=40)
    for shot in (camera.Shot("curl", 2), camera.Shot("all", 1)):
        assert camera.photograph(page, shot, 3) == camera.photograph(page, shot, 3)


@pytest.mark.slow
@pytest.mark.parametrize("name, shot", [("en_prose", camera.Shot("flat", 1)),
                                        ("en_prose", camera.Shot("curl", 2)),
                                        ("zh_prose", camera.Shot("curl", 2))])
def test_a_photographed_page_is_ok_only_when_it_holds_its_text(engine, tmp_path, name, shot):
    pdf, truth = pages.draw(name, 1)
    path = tmp_path / f"{name}-{shot.name}.jpg"
    path.write_bytes(camera.photograph(pages.pixels(pdf), shot, 1))
    # Read as given: the photo steps would flatten the curl, and this is about what is lost.
    result = engine.convert(path, ConvertOptions(dewarp=False))
    page = result.pages[0]
    similarity = text_similarity(result.markdown, truth)
    if shot.effect == "flat":  # a clean photo is no false alarm
        assert page.status is Status.OK and similarity >= 0.95
        assert not any("could not be read" in w or "no line was read" in w for w in page.warnings)
    if page.status is Status.OK:
        assert similarity >= 0.9, (shot, similarity)
    else:
        assert page.status is Status.PARTIAL and page.errors[0].stage == "coverage"
        assert any("no line was read" in w or "could not be read" in w for w in page.warnings)


@pytest.mark.slow
def test_the_dev_sets_scans_are_not_marked_partial(engine, eval_dev_dir):
    manifest = {item["id"]: item for item in
                json.loads((eval_dev_dir / "manifest.json").read_text(encoding="utf-8"))}
    for item_id in DEV_OCR_ITEMS:
        item = manifest[item_id]
        result = engine.convert(eval_dev_dir / item["input"], ConvertOptions())
        assert result.status is Status.OK, (item_id, [p.errors for p in result.pages])
        assert not any("ink shows text" in w for p in result.pages for w in p.warnings), item_id
        if item["truth_format"] in ("markdown", "text"):
            truth = (eval_dev_dir / item["truth"]).read_text(encoding="utf-8")
            assert text_similarity(result.markdown, truth) >= 0.9, item_id


@pytest.mark.slow
@pytest.mark.parametrize("name", ["en_prose", "zh_prose"])
def test_a_curled_tilted_photo_is_straightened_and_flattened(engine, tmp_path, name):
    pdf, truth = pages.draw(name, 1)
    pixels = pages.pixels(pdf)
    path = tmp_path / "photo.jpg"
    path.write_bytes(camera.photograph(pixels, camera.Shot("all", 2), 1))
    result = engine.convert(path, ConvertOptions())
    page = result.pages[0]
    assert len(page.page_outline) == 8 and page.flattened
    assert page.status is Status.OK
    assert text_similarity(result.markdown, truth) >= 0.95


@pytest.mark.slow
def test_a_flat_scan_reads_the_same_with_the_photo_steps_on_and_off(engine, eval_dev_dir):
    item = eval_dev_dir / "items" / "tesseract-phototest" / "input.png"
    on, off = (engine.convert(item, ConvertOptions(dewarp=flag)) for flag in (True, False))
    assert on.markdown == off.markdown
    assert [p.blocks for p in on.pages] == [p.blocks for p in off.pages]
    assert on.pages[0].page_outline == () and not on.pages[0].flattened


@pytest.mark.slow
def test_the_cli_exits_3_on_a_photo_that_lost_text_and_0_once_flattened(tmp_path, monkeypatch):
    from engine.cli.main import main as cli_main

    monkeypatch.setenv("PAPERLENS_CONFIG", str(tmp_path / "settings.json"))
    photo = tmp_path / "curled.jpg"
    photo.write_bytes(camera.photograph(pages.pixels(pages.draw("en_prose", 1)[0]),
                                        camera.Shot("curl", 2), 1))
    assert cli_main(["convert", str(photo), "-o", str(tmp_path / "as-given"),
                     "--no-dewarp"]) == 3
    assert cli_main(["convert", str(photo), "-o", str(tmp_path / "flattened")]) == 0


def test_chinese_pages_are_drawn_without_spaces_beside_chinese_characters():
    assert pages.chinese_text("数据。 如果 BREAK 这个 a b") == "数据。如果BREAK这个a b"
