"""The pieces of the invisible text layer, on small inputs: words from CTC steps and ink, runs
that keep CJK unspaced, a table's lines in cell order, the glyphless font, turned pages."""

from __future__ import annotations

import cv2
import numpy as np
import pymupdf
import pytest

from engine.export.invisible_font import build_invisible_font
from engine.export.searchable_pdf import build_searchable_pdf
from engine.export.page_words import table_lines
from engine.export.text_placement import WORD_GAP, line_runs
from engine.ocr.recognition import CTC_STRIDE_PX, REC_HEIGHT, ctc_decode
from engine.ocr.word_boxes import line_words, word_spans
from engine.types import Block, BlockKind, Box, DocumentResult, Line, PageResult, TextSource, Word
from table_samples import table_of


def test_ctc_decode_keeps_each_characters_step():
    dictionary = ["<blank>", "a", "b", "中", " "]
    ids = np.array([[0, 1, 1, 0, 4, 2, 0, 3, 3]])
    (read,) = ctc_decode(ids, np.ones_like(ids, dtype=np.float32), dictionary)
    assert read.text == "a b中" and read.steps == (1, 4, 5, 7)


def test_words_split_at_spaces_and_every_cjk_character():
    text = "Version 2.4 的准确率为 98.6%，好"
    assert [text[a:b] for a, b in word_spans(text)] == [
        "Version", "2.4", "的", "准", "确", "率", "为", "98.6%", "，", "好"]


def test_word_boxes_follow_the_ink_between_the_steps():
    crop = np.full((48, 400, 3), 255, np.uint8)
    crop[12:36, 20:120] = 0     # "ab"
    crop[10:38, 200:260] = 0    # "c"
    crop[0:3, 30:70] = 0        # neighbouring lines' strokes on the edges
    crop[45:48, 205:225] = 0
    per_step = CTC_STRIDE_PX * 400 / 400  # the crop is at the recogniser's height already
    steps = tuple(int(x / per_step) for x in (40, 100, 160, 230))
    quad = np.array([[1000, 500], [1400, 500], [1400, 548], [1000, 548]], np.float32)
    words = line_words("ab c", steps, quad, crop)
    assert [w.text for w in words] == ["ab", "c"]
    assert words[0].box == Box(1020, 510, 1120, 538)
    assert words[1].box == Box(1200, 510, 1260, 538)
    # Each word's confidence: the mean of its characters' probabilities (by CTC step).
    scored = line_words("ab c", steps, quad, crop, dict(zip(steps, (0.9, 0.7, 0.5, 0.6))))
    assert [w.score for w in scored] == pytest.approx([0.8, 0.6])
    assert [w.box for w in scored] == [w.box for w in words]
    assert all(w.score is None for w in words)  # no probabilities given: none made up


def test_word_boxes_of_a_line_read_turned():
    # A line running down the page: crop_quad turns its warp a quarter counter-clockwise.
    quad = np.array([[100, 200], [148, 200], [148, 600], [100, 600]], np.float32)
    crop = np.full((48, 400, 3), 255, np.uint8)
    crop[8:40, 0:200] = 0
    steps = tuple(range(0, 25, 6))
    (word,) = line_words("abcde", steps, quad, crop)
    assert word.box.y0 == pytest.approx(200, abs=1) and word.box.y1 == pytest.approx(400, abs=1)
    assert word.box.x0 == pytest.approx(108, abs=1) and word.box.x1 == pytest.approx(140, abs=1)
    assert REC_HEIGHT == 48


def test_cjk_runs_abut_and_spaced_words_keep_a_gap():
    font = build_invisible_font("中文ab cd")
    line = Line("中文ab cd", Box(0, 0, 200, 20), words=(
        Word("中", Box(0, 0, 18, 20)), Word("文", Box(20, 0, 38, 20)),
        Word("ab", Box(40, 0, 80, 20)), Word("cd", Box(81, 0, 120, 20))))
    runs = line_runs(line, font)
    assert [r.text for r in runs] == ["中", "文", "ab ", "cd"]
    ends = [r.origin[0] + font.width(r.text.strip()) * r.size * r.stretch for r in runs]
    assert ends[0] == pytest.approx(runs[1].origin[0])          # 中 stretches to 文
    assert ends[1] == pytest.approx(runs[2].origin[0])
    assert runs[3].origin[0] - ends[2] >= WORD_GAP * runs[2].size - 1e-6
    assert {r.size for r in runs} == {20} and {r.origin[1] for r in runs} == {16}


def test_table_lines_follow_the_cells():
    html = ("<table><tr><td>Run</td><td>Score</td></tr><tr><td>OTSL HTML</td>"
            "<td>0.96 0.97</td></tr><tr><td>Total across runs</td><td>1.93</td></tr></table>")

    def line(text, x, y):
        return Line(text, Box(x, y, x + 50, y + 10))

    lines = (line("0.97", 200, 40), line("Run", 0, 0), line("OTSL", 0, 20),
             line("Total across runs 1.93", 0, 60), line("HTML", 0, 40), line("0.96", 200, 20),
             line("Score", 200, 0))
    assert [ln.text for ln in table_lines(table_of(html), lines)] == [
        "Run", "Score", "OTSL", "HTML", "0.96", "0.97", "Total across runs 1.93"]


def test_invisible_font_has_widths_of_the_cjk_font_and_no_outlines():
    font = build_invisible_font("中a")
    assert font.advances["中"] == 1.0 and 0.4 < font.advances["a"] < 0.7
    assert font.encode("a中") == f"{font.glyphs['a']:04X}{font.glyphs['中']:04X}"
    assert len(font.data) < 2000


@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
def test_text_lands_on_its_pixels_on_a_turned_page(tmp_path, rotation):
    """The reader turned the page before reading: the boxes refer to the turned page, the
    layer goes on the page as stored."""
    width, height = 800, 600
    image = np.full((height, width, 3), 255, np.uint8)
    source = tmp_path / "page.png"
    cv2.imwrite(str(source), image)
    k = rotation // 90
    turned_w, turned_h = (height, width) if k % 2 else (width, height)
    word_box = Box(100, 50, 300, 90)  # on the turned page
    line = Line("harvest", word_box, words=(Word("harvest", word_box),))
    page = PageResult(1, turned_w, turned_h, 72, TextSource.OCR, "image input", rotation=rotation,
                      blocks=(Block(BlockKind.TEXT, word_box, lines=(line,), text="harvest"),))
    data = build_searchable_pdf(DocumentResult(str(source), "png", 1, (page,)))
    with pymupdf.open("pdf", data) as document:
        (hit,) = document[0].search_for("harvest")
        points_per_pixel = document[0].rect.width / width  # the image's own 96 dpi
    expected = [v * points_per_pixel for v in _unturn(word_box, rotation, turned_w, turned_h)]
    assert hit.x0 == pytest.approx(expected[0], abs=1.5)
    assert hit.y0 == pytest.approx(expected[1], abs=1.5)
    assert hit.x1 == pytest.approx(expected[2], abs=1.5)
    assert hit.y1 == pytest.approx(expected[3], abs=1.5)


def _unturn(box: Box, rotation: int, w: int, h: int) -> tuple[float, float, float, float]:
    points = [(box.x0, box.y0), (box.x1, box.y1)]
    if rotation == 90:      # turned clockwise: (x, y) was (y, w - x)
        points = [(y, w - x) for x, y in points]
    elif rotation == 180:
        points = [(w - x, h - y) for x, y in points]
    elif rotation == 270:   # turned counter-clockwise: (x, y) was (h - y, x)
        points = [(h - y, x) for x, y in points]
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)


@pytest.mark.parametrize("suffix, kind", [(".jpg", "jpeg"), (".png", "png"), (".tif", "tiff"),
                                          (".bmp", "bmp"), (".webp", "webp")])
def test_every_image_kind_becomes_a_searchable_page(tmp_path, suffix, kind):
    image = np.full((300, 400, 3), 255, np.uint8)
    source = tmp_path / f"scan{suffix}"
    assert cv2.imwrite(str(source), image)
    box = Box(40, 100, 200, 130)
    line = Line("barley", box, words=(Word("barley", box),))
    page = PageResult(1, 400, 300, 72, TextSource.OCR, "image input",
                      blocks=(Block(BlockKind.TEXT, box, lines=(line,), text="barley"),))
    data = build_searchable_pdf(DocumentResult(str(source), kind, 1, (page,)))
    with pymupdf.open("pdf", data) as document:
        (hit,) = document[0].search_for("barley")
        scale = document[0].rect.width / 400
        assert hit.x0 == pytest.approx(40 * scale, abs=1) and hit.y1 == pytest.approx(130 * scale,
                                                                                      abs=1)
