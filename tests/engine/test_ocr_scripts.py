"""Scripts beyond PP-OCR's: the rules that doubt a reading (pure), and pages in Russian, Arabic,
English with Russian, an upright Russian page, and a script whose data is removed, read through
the real models (PP-OCR, Tesseract's data from the Debian tesseract-ocr-script-* packages)."""

from __future__ import annotations

import functools
import json
import shutil
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from engine.ocr.scripts import (RULES, SCRIPT_MODELS, accepted, coverage, doubted,
                                doubted_short, hinted_script, normalised, text_scripts,
                                unsure, without_stray_joiners)
from tools.eval.edit_distance import similarity

MIN_SCORE = 0.5


def test_a_line_read_as_a_few_marks_is_doubted_and_a_full_one_is_not():
    # A Russian line PP-OCR read as "." at 0.97 (its dictionary has no Cyrillic).
    assert doubted(".     ,", 0.97, width=1300, height=55, min_score=MIN_SCORE)
    assert not doubted("The quick brown fox jumps over the lazy dog near the river bank.", 1.0,
                       width=1300, height=55, min_score=MIN_SCORE)
    # Chinese characters are a whole height wide.
    assert coverage("臺北是臺灣最大的城市，也是政治與經濟的中心。", 1200, 55) > 0.8
    # Too short to judge: a page number.
    assert not doubted("", 0.0, width=60, height=40, min_score=MIN_SCORE)


def test_greek_and_vietnamese_read_without_their_accents_are_hinted():
    assert hinted_script("λλδα εναι χρα τη ντινατλικ υρπη") == "Greek"
    assert hinted_script("Vit Nam là mt quc gia nm  phía đông bán đo Đông Dương") == "Vietnamese"
    assert hinted_script("The constant α is 0.5 in every run") is None
    assert hinted_script("Berlin ist die größte Stadt des Landes") is None


def test_a_tesseract_reading_counts_only_confident_and_in_its_script():
    cyrillic = SCRIPT_MODELS["Cyrillic"]
    assert accepted("Москва является столицей", 0.96, cyrillic)
    assert not accepted("Москва является столицей", 0.4, cyrillic)
    assert not accepted("MockBa ABJIAeTCA CTONMIeH", 0.9, cyrillic)
    assert accepted("Việt Nam là một quốc gia", 0.95, SCRIPT_MODELS["Vietnamese"])
    assert not accepted("Berlin ist die Hauptstadt", 0.95, SCRIPT_MODELS["Vietnamese"])
    assert text_scripts("Москва and Αθήνα") == {"Cyrillic", "Greek"}


def test_turkish_letters_hint_turkish_and_a_turkish_reading_needs_one():
    turkish = SCRIPT_MODELS["Turkish"]
    assert hinted_script("Her yıl birçok ziyaretçi") == "Turkish"
    assert hinted_script("Türkiye'nin doğusunda") == "Turkish"
    # An s with a cedilla alone is Romanian or Kurdish as well: such a line is not Turkish.
    assert hinted_script("Bucureşti este capitala României") is None
    assert hinted_script("ortasinda yer alir ve beş milyondan fazla") is None
    assert text_scripts("İstanbul") == {"Turkish"}
    assert accepted("ortasında yer alır ve beş milyondan fazla", 0.95, turkish)
    # A line with none of its letters stays PP-OCR's, and German or Polish are never Turkish.
    assert not accepted("Berlin ist die Hauptstadt", 0.95, turkish)
    assert hinted_script("Warszawa jest stolicą Polski, żółć") is None
    assert hinted_script("Việt Nam là một quốc gia") == "Vietnamese"


def test_a_turkish_page_without_turkish_data_keeps_pp_ocrs_reading_unreported():
    """PP-OCR reads Turkish but for a dotless i here and there: without the data the page is
    as it was read, not a page with lines left unread."""
    from engine.errors import ModelUnavailable
    from engine.ocr.recognition import Recognized
    from engine.ocr.script_reading import ScriptReader

    from engine.runtime.steps import StepClock

    class NoData:
        steps = StepClock()

        def read(self, crops, model_id):
            raise ModelUnavailable(f"{model_id} is not installed")

    crops = [np.full((40, 800, 3), 255, dtype=np.uint8)]
    read = [Recognized("Her yıl birçok ziyaretçi müzelerini görmeye gelir.", 0.98)]
    found = ScriptReader(NoData()).read_again(crops, read, MIN_SCORE)
    assert found.readings == read and found.unreadable == () and found.scripts == ()
    # Vietnamese, which PP-OCR reads without most of its letters, is reported.
    vietnamese = [Recognized("Vit Nam là mt quc gia nm  phía đông bán đo Đông Dương", 0.9)]
    assert ScriptReader(NoData()).read_again(crops, vietnamese, MIN_SCORE).unreadable


def test_a_line_with_a_weak_word_is_read_again_at_the_check_height():
    from engine.ocr.tesseract import CHECK_LINE_PX, TesseractLines

    class Api:
        """Reads a line with one unsure word at any height but CHECK_LINE_PX."""

        def __init__(self):
            self.heights = []

        def SetImageBytes(self, data, width, height, depth, stride):
            self.heights.append(height)

        def GetUTF8Text(self):
            return "בכל שנה מגיעים" if self._checked() else "בכל שנה מניעים"

        def AllWordConfidences(self):
            return [93, 91, 91] if self._checked() else [93, 91, 34]

        def MeanTextConf(self):
            return 92 if self._checked() else 73

        def _checked(self):
            from engine.ocr.tesseract import MARGIN_SHARE

            pad = max(2, round(MARGIN_SHARE * CHECK_LINE_PX))
            return self.heights[-1] == CHECK_LINE_PX + 2 * pad

    crop = np.full((49, 600, 3), 255, dtype=np.uint8)
    api = Api()
    reading = TesseractLines._read_one(api, crop)
    assert reading.text == "בכל שנה מגיעים" and reading.weakest_word == 0.91
    assert len(api.heights) == 2


def _drawn_line(words: list[list[str]], letter_gap: int, space: int
                ) -> tuple[np.ndarray, list[list["Symbol"]]]:
    """A line of 12 px wide letter blocks, `letter_gap` apart inside a word and `space`
    apart between words, and the symbols (boxes) of each word."""
    from engine.ocr.missed_spaces import Symbol

    image = np.full((40, 600, 3), 255, dtype=np.uint8)
    symbols, x = [], 10
    for word in words:
        symbols.append([])
        for k, letter in enumerate(word):
            gap = letter if isinstance(letter, int) else None
            if gap is not None:  # a gap of this width inside the word, not a letter
                x += gap - letter_gap
                continue
            image[10:30, x:x + 12] = 0
            symbols[-1].append(Symbol(letter, x, x + 12))
            x += 12 + letter_gap
        x += space - letter_gap
    return image, symbols


def test_a_space_wide_gap_inside_a_word_is_a_missed_space():
    from engine.ocr.missed_spaces import ink_gaps, with_missed_spaces

    # "Москве, ив нём": the letters of "ив" stand a space apart.
    image, words = _drawn_line([list("на"), list("реке"), ["и", 12, "в"], list("нём")],
                               letter_gap=2, space=12)
    assert with_missed_spaces(words, ink_gaps(image)) == "на реке и в нём"
    # Letters a little further apart than the rest are still one word.
    image, words = _drawn_line([list("на"), list("реке"), ["и", 5, "в"], list("нём")],
                               letter_gap=2, space=12)
    assert with_missed_spaces(words, ink_gaps(image)) == "на реке ив нём"
    # Too few spaces to tell their width: the line is left as read.
    image, words = _drawn_line([list("на"), ["и", 12, "в"]], letter_gap=2, space=12)
    assert with_missed_spaces(words, ink_gaps(image)) is None


def test_a_vietnamese_line_whose_only_marks_sit_on_a_circumflex_or_breve_counts():
    # No horn, hook above or dot below: every tone mark here stands on a circumflex.
    line = "Mỗi năm có rất nhiều du khách"
    assert accepted(line, 0.96, SCRIPT_MODELS["Vietnamese"])
    assert hinted_script(line) == "Vietnamese"
    assert not accepted("Où êtes-vous à Noël", 0.96, SCRIPT_MODELS["Vietnamese"])


def test_a_weak_reading_in_the_pages_script_fills_only_a_line_left_unread():
    persian = SCRIPT_MODELS["Arabic"]
    confidence = RULES.min_unread_confidence
    assert confidence < RULES.min_confidence
    assert not accepted("سفر می کنند..", confidence, persian)
    assert accepted("سفر می کنند..", confidence, persian, unread=True)
    assert not accepted("Latin words", 0.9, persian, unread=True)


def test_a_reading_under_the_sure_score_is_unsure_unless_too_short_to_judge():
    # "aT." for "карт." at 0.67, 153 x 70 px; an English line at 0.97 is sure.
    assert unsure(0.67, width=153, height=70)
    assert not unsure(0.97, width=1300, height=55)
    assert not unsure(0.5, width=60, height=50)  # a page number: too short
    assert not doubted("aT.", 0.67, width=153, height=70, min_score=MIN_SCORE)


def test_a_short_line_is_judged_only_by_the_short_line_rule():
    # The last word of a Russian line, cut off by the detector, read by PP-OCR as ".".
    assert doubted_short(".", 1.0, width=104, height=50, min_score=MIN_SCORE)
    assert not doubted(".", 1.0, width=104, height=50, min_score=MIN_SCORE)
    assert not doubted_short("spring.", 0.99, width=150, height=50, min_score=MIN_SCORE)
    assert not doubted_short("", 0.0, width=40, height=50, min_score=MIN_SCORE)  # a page number
    assert not doubted_short(".", 1.0, width=1000, height=50, min_score=MIN_SCORE)


def test_a_small_line_is_scaled_up_before_tesseract_reads_it():
    from engine.ocr.tesseract import (MIN_TESSERACT_LINE_PX, TESSERACT_LINE_PX,
                                      scaled_for_tesseract)

    small = np.full((MIN_TESSERACT_LINE_PX - 6, 200, 3), 255, dtype=np.uint8)
    assert scaled_for_tesseract(small).shape[0] == TESSERACT_LINE_PX
    assert scaled_for_tesseract(small).shape[1] == round(200 * TESSERACT_LINE_PX / small.shape[0])
    big = np.full((MIN_TESSERACT_LINE_PX, 200, 3), 255, dtype=np.uint8)
    assert scaled_for_tesseract(big) is big


def test_a_joiner_at_a_words_end_is_dropped_and_one_inside_a_word_kept():
    zwnj = "\u200c"
    # Tesseract's Tamil data writes one after every word-final pulli.
    assert normalised(f"ஆகும்{zwnj}. தலைநகரம்{zwnj} ஆகும்{zwnj}", SCRIPT_MODELS["Tamil"]) == (
        "ஆகும். தலைநகரம் ஆகும்")
    # Persian writes one inside a word, between two letters: it shapes them, and stays.
    assert without_stray_joiners(f"می{zwnj}کنند") == f"می{zwnj}کنند"


def test_a_line_crop_gets_a_margin_of_its_own_paper_before_tesseract_reads_it():
    from engine.ocr.tesseract import with_margin

    crop = np.full((40, 300, 3), 230, dtype=np.uint8)  # greyish paper
    crop[10:30, 5:295] = 20  # ink to the crop's edges
    out = with_margin(crop)
    assert out.shape == (60, 320, 3)
    assert (out[:10] == 230).all() and (out[:, :10] == 230).all()
    assert (out[10:50, 10:310] == crop).all()


# ---------------------------------------------------------------- with the real models

tesserocr = pytest.importorskip("tesserocr")


@functools.lru_cache(maxsize=None)
def _rendered(key: str, paragraphs: tuple[str, ...] | None) -> np.ndarray:
    from tools.scripts.pages import page_pdf, render
    from tools.scripts.texts import SAMPLES

    sample = next(s for s in SAMPLES if s.key == key)
    if paragraphs is not None:
        sample = replace(sample, paragraphs=paragraphs)
    return render(page_pdf(sample))


def page_image(key: str, paragraphs: tuple[str, ...] | None = None) -> np.ndarray:
    """A sample's page, drawn once per module (several tests read the same page); each caller
    gets its own copy."""
    from tools.scripts.pages import FontMissing

    try:
        return _rendered(key, paragraphs).copy()
    except FontMissing as missing:
        pytest.skip(str(missing))


def reader_has(reader, model_id: str) -> bool:
    from engine.errors import ModelUnavailable

    try:
        reader.scripts.tesseract._locate(model_id)
    except ModelUnavailable:
        return False
    return True


@pytest.fixture(scope="module")
def reader(engine):
    reader = engine.models.page_reader()
    for model_id in ("tesseract-osd", "tesseract-cyrillic", "tesseract-arabic"):
        if not reader_has(reader, model_id):
            pytest.skip(f"{model_id}: Tesseract data not installed (tools/system_deps.sh)")
    return reader


def text_of(outcome) -> str:
    return "\n".join(line.text for line in outcome.lines)


RUSSIAN = ("Москва является столицей России и крупнейшим городом страны.",
           "Здесь много музеев, театров и парков.")


@pytest.mark.model
def test_lines_read_by_two_tesseract_workers_read_as_one_reads_them(reader):
    """Two workers, each with its own instance of the model, share a page's lines (the widest
    first to the one with less width so far): the readings are one worker's, in order; one
    crop read with several models gives each model's own reading, None for one missing."""
    from engine.errors import ModelUnavailable
    from engine.imaging import crop_quad
    from engine.ocr.tesseract import TesseractLines

    image = page_image("russian", RUSSIAN + ("Ёжик.",))
    crops = [crop_quad(image, r.quad) for r in reader.detector.detect(image)]
    assert len(crops) >= 3
    locate = reader.scripts.tesseract._locate

    def missing_or(model_id: str):
        if model_id == "tesseract-missing":
            raise ModelUnavailable("not installed")
        return locate(model_id)

    one = TesseractLines(locate, workers=1)
    two = TesseractLines(missing_or, workers=2)
    assert two.read(crops, "tesseract-cyrillic") == one.read(crops, "tesseract-cyrillic")
    ids = ["tesseract-cyrillic", "tesseract-missing", "tesseract-greek"]
    each = two.read_with_each(crops[0], ids)
    assert each == [one.read([crops[0]], "tesseract-cyrillic")[0], None,
                    one.read([crops[0]], "tesseract-greek")[0]]
    assert {worker for _, worker in two._apis} == {0, 1}
    assert _read_in_a_forked_child(two, crops) == [line.text for line in
                                                   one.read(crops, "tesseract-cyrillic")]


def _read_in_a_forked_child(lines, crops) -> list[str]:
    """The crops read by `lines` in a child forked after its workers started (it has none of
    their threads: without a pool of its own it would wait for ever); killed after 60 s."""
    import os
    import signal
    import time

    reading, writing = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child
        try:
            found = lines.read(crops, "tesseract-cyrillic")
            os.write(writing, json.dumps([line.text for line in found]).encode())
        finally:
            os._exit(0)
    os.close(writing)
    deadline = time.monotonic() + 60
    while os.waitpid(pid, os.WNOHANG) == (0, 0):
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            pytest.fail("the forked child never finished reading")
        time.sleep(0.1)
    with os.fdopen(reading, "rb") as answer:
        return json.loads(answer.read().decode())


@pytest.mark.model
def test_a_russian_page_is_read_in_cyrillic_and_not_turned(engine, reader):
    from engine.runtime.steps import advance

    before = engine.models.step_snapshot()
    outcome = reader.read(page_image("russian", RUSSIAN))
    # Tesseract's detection and line reading are timed as the script reader's steps.
    spent = advance(before, engine.models.step_snapshot())
    assert {"script_reading", "script_reading.tesseract_osd",
            "script_reading.tesseract_lines", "det"} <= spent.keys()
    assert outcome.rotation == 0
    assert outcome.scripts == ("Cyrillic",)
    assert similarity(text_of(outcome), "\n".join(RUSSIAN)) >= 0.95, text_of(outcome)
    assert outcome.unread == () and outcome.unreadable == ()


@pytest.fixture(scope="module")
def read_counting_widths(reader):
    """A sample's page read by the reader, and the widths of the crops its PP-OCR recogniser
    was given meanwhile. Each page is read once per module: the Russian page's reading is
    checked by two tests."""
    reads: dict[str, tuple[list[int], object]] = {}

    def read(key: str) -> tuple[list[int], object]:
        if key not in reads:
            widths: list[int] = []
            recognize = reader.recognizer.recognize

            def counted(crops):
                widths.extend(c.shape[1] for c in crops)
                return recognize(crops)

            with pytest.MonkeyPatch.context() as patch:
                patch.setattr(reader.recognizer, "recognize", counted)
                reads[key] = widths, reader.read(page_image(key))
        return reads[key]

    return read


@pytest.mark.model
@pytest.mark.parametrize("key, upside_down", [("russian", False), ("hebrew", True),
                                              ("thai", False)])
def test_a_page_in_another_script_is_read_by_tesseract_alone(reader, read_counting_widths, key,
                                                             upside_down):
    """PP-OCR reads only the first part of a line to find its script, never a whole line:
    not the Russian lines, and not the widest Hebrew lines both ways when the line classifier
    calls the upright page upside down. The Thai page's widest line alone was called Latin by
    Tesseract's detection, and PP-OCR read the page; its three widest lines are called Thai."""
    from engine.imaging import crop_quad
    from engine.ocr.scripts import RULES

    if key == "thai" and not reader_has(reader, "tesseract-thai"):
        pytest.skip("tesseract-thai: Tesseract data not installed (tools/system_deps.sh)")

    image = page_image(key)
    regions = reader.detector.detect(image)
    crops = [crop_quad(image, r.quad) for r in regions]
    assert reader.is_upside_down(image, regions, crops) == upside_down
    widths, outcome = read_counting_widths(key)
    assert outcome.rotation == 0 and outcome.scripts
    assert widths and max(widths) <= RULES.probe_heights * max(c.shape[0] for c in crops) + 1
    assert max(c.shape[1] for c in crops) > 2 * max(widths)


@pytest.mark.model
@pytest.mark.parametrize("key", ["german", "japanese"])
def test_a_page_pp_ocr_reads_reads_as_it_did_without_the_script_probe(reader, key):
    from engine.imaging import crop_quad
    from engine.ocr.reading_rules import PAGE_READING

    image = page_image(key)
    crops = [crop_quad(image, r.quad) for r in reader.detector.detect(image)]
    recognize = reader.recognizer.recognize
    probed = reader.scripts.read_page(crops, recognize, PAGE_READING.min_line_score)
    plain = reader.scripts.read_again(crops, recognize(crops), PAGE_READING.min_line_score)
    assert probed == plain and probed.scripts == ()


@pytest.mark.model
def test_a_one_letter_word_keeps_its_space(read_counting_widths):
    """On the detector's tight crop of the Russian page's second line Tesseract's Cyrillic data
    read "и в нём" as "ив нём"; with a margin around the crop it keeps the space."""
    _widths, outcome = read_counting_widths("russian")
    assert "и в нём" in text_of(outcome), text_of(outcome)


@pytest.mark.model
@pytest.mark.parametrize("key", ["hebrew", "hindi"])
def test_an_upright_page_the_line_classifier_flips_stays_upright(reader, key):
    from engine.imaging import crop_quad

    image = page_image(key)
    regions = reader.detector.detect(image)
    crops = [crop_quad(image, r.quad) for r in regions]
    # The Chinese/Latin line classifier alone calls these upright pages upside down.
    assert reader.is_upside_down(image, regions, crops)
    if not reader_has(reader, f"tesseract-{'hebrew' if key == 'hebrew' else 'devanagari'}"):
        pytest.skip("Tesseract data for the script not installed")
    assert not reader.confirm_turn(crops)


@pytest.mark.model
@pytest.mark.parametrize("key, model_id", [("hebrew", "tesseract-hebrew"),
                                           ("hindi", "tesseract-devanagari")])
def test_lines_read_while_checking_the_orientation_are_not_read_again(reader, key, model_id):
    """The line classifier calls these upright pages upside down; the widest lines read
    upright in the page's script to decide are the page's readings, and the lines are read
    turned over only until the rest could not change the answer (one line of the sample)."""
    from collections import Counter

    from engine.imaging import crop_quad

    if not reader_has(reader, model_id):
        pytest.skip(f"{model_id}: Tesseract data not installed (tools/system_deps.sh)")
    image = page_image(key)
    lines = [crop_quad(image, r.quad).tobytes() for r in reader.detector.detect(image)]
    tesseract = reader.scripts.tesseract
    read, read_with_each, reads = tesseract.read, tesseract.read_with_each, Counter()

    def counted(crops, model):
        if model == model_id:
            reads.update(crop.tobytes() for crop in crops)
        return read(crops, model)

    trial_widths = []

    def counted_each(crop, models):
        if model_id in models:
            reads.update([crop.tobytes()])
            trial_widths.append(crop.shape[1] / crop.shape[0])
        return read_with_each(crop, models)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(tesseract, "read", counted)
        patch.setattr(tesseract, "read_with_each", counted_each)
        outcome = reader.read(image)
    assert outcome.rotation == 0 and outcome.scripts
    # Hindi's script is found by the trial of each script's data on the first part of its
    # widest line (ScriptRules.trial_heights), not the whole line.
    assert max(reads[line] for line in lines) == 1
    assert trial_widths == ([pytest.approx(reader.scripts.rules.trial_heights, abs=0.05)]
                            if key == "hindi" else [])
    turned_over = sum(reads.values()) - sum(reads[line] for line in lines) - len(trial_widths)
    assert turned_over == 1
    assert min(reader.rules.turn_sample_lines, len(lines)) > 1


@pytest.mark.model
def test_a_bulgarian_page_upside_down_is_turned_and_read(reader):
    from tools.scripts.texts import SAMPLES

    bulgarian = next(s for s in SAMPLES if s.key == "bulgarian")
    outcome = reader.read(np.ascontiguousarray(page_image("bulgarian")[::-1, ::-1]))
    assert outcome.rotation == 180
    assert similarity(text_of(outcome).replace("\n", " "), bulgarian.paragraphs[0]) >= 0.95


@pytest.mark.model
def test_an_arabic_line_is_in_logical_order(reader):
    words = "القاهرة هي عاصمة مصر وأكبر مدنها"
    outcome = reader.read(page_image("arabic", (words,)))
    assert outcome.scripts == ("Arabic",)
    [line] = outcome.lines
    # Logical order: the first word read is the one at the right edge of the line.
    assert line.text.split()[0] == "القاهرة", line.text
    assert similarity(line.text, words) >= 0.95, line.text


@pytest.mark.model
def test_a_page_mixing_english_and_russian_reads_both(reader):
    from tools.scripts.texts import SAMPLES

    mixed = next(s for s in SAMPLES if s.key == "english_russian")
    outcome = reader.read(page_image("english_russian"))
    assert set(outcome.scripts) == {"Cyrillic"}
    assert similarity(text_of(outcome).replace("\n", " "),
                      " ".join(mixed.paragraphs)) >= 0.95, text_of(outcome)


def set_page(key: str, dpi: int, columns: int = 1, draw: int = 0) -> tuple[np.ndarray, str]:
    """The scripts set's degraded scan of a sample at `dpi` (draw `draw`, its seed as `python
    -m tools.scripts` gives it) and the sample's text."""
    import cv2

    from tools.scripts.__main__ import DRAW_STEP
    from tools.scripts.pages import FontMissing, degrade, page_pdf, render, two_column_sample
    from tools.scripts.texts import SAMPLES

    index, sample = next((i, s) for i, s in enumerate(SAMPLES) if s.key == key)
    if columns == 2:
        sample = two_column_sample(sample)
    try:
        data = degrade(render(page_pdf(sample, columns=columns), dpi),
                       49 + index + draw * DRAW_STEP)
    except FontMissing as missing:
        pytest.skip(str(missing))
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    return cv2.cvtColor(image, cv2.COLOR_BGR2RGB), " ".join(sample.paragraphs)


@pytest.mark.model
def test_a_degraded_thai_page_at_150_dpi_is_read_though_detection_calls_it_latin(reader):
    """Tesseract's detection names these lines Latin, which PP-OCR reads as garbage: most lines
    doubted, the trial of each script's data finds Thai."""
    if not reader_has(reader, "tesseract-thai"):
        pytest.skip("tesseract-thai: Tesseract data not installed (tools/system_deps.sh)")
    image, text = set_page("thai", 150)
    tesseract = reader.scripts.tesseract
    detect, asked = tesseract.detect_script, []

    def counted(sheet, model_id):
        asked.append(sheet.shape)
        return detect(sheet, model_id)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(tesseract, "detect_script", counted)
        outcome = reader.read(image)
    assert outcome.scripts == ("Thai",)
    assert similarity(text_of(outcome).replace("\n", " "), text) >= 0.95, text_of(outcome)
    # The probe and then the doubted lines look at the page's same three lines: asked once.
    assert len(asked) == 1


@pytest.mark.model
def test_the_short_last_line_of_a_degraded_persian_page_is_kept(reader):
    """Tesseract reads it at 0.50, under its usual bar, and PP-OCR reads it as nothing."""
    image, text = set_page("persian", 200)
    outcome = reader.read(image)
    assert outcome.scripts == ("Arabic",)
    assert "سفر می" in text_of(outcome)
    assert similarity(text_of(outcome).replace("\n", " "), text) >= 0.98, text_of(outcome)


@pytest.mark.model
def test_the_short_last_line_of_a_degraded_tamil_page_is_read_in_tamil(reader):
    """PP-OCR reads it as "LIT あT.": a few marks for a line whose letters, with the room
    inside and between them, take its whole width, so it is doubted and read in Tamil
    (counting only the inked pixel columns, Tamil's open letters left it looking filled)."""
    # `make test` installs tesseract-ocr-script-taml (tools/system_deps.sh, script_packages),
    # so CI always runs this; only a machine set up by hand without it skips.
    if not reader_has(reader, "tesseract-tamil"):
        pytest.skip("tesseract-tamil: Tesseract data not installed (tools/system_deps.sh)")
    image, text = set_page("tamil", 200)
    outcome = reader.read(image)
    assert outcome.scripts == ("Tamil",)
    assert "வருகிறார்கள்" in text_of(outcome), text_of(outcome)


@pytest.mark.model
def test_a_small_hebrew_line_read_weakly_is_read_again_scaled_up(reader):
    """The last line of the right column on a degraded two-column page is 38 px high:
    Tesseract read it "ביתרבמהנה." at 0.51 as it was, scaled up "ביותר במדינה."."""
    if not reader_has(reader, "tesseract-hebrew"):
        pytest.skip("tesseract-hebrew: Tesseract data not installed (tools/system_deps.sh)")
    image, text = set_page("hebrew", 200, columns=2)
    outcome = reader.read(image)
    assert outcome.scripts == ("Hebrew",)
    assert "ביותר במדינה." in text_of(outcome), text_of(outcome)


@pytest.mark.model
def test_a_hebrew_word_read_unsure_is_read_again_at_the_check_height(reader):
    """On the clean 200 dpi Hebrew page Tesseract read "מגיעים" as "מניעים" with 0.34 for
    the word; read again 40 px high, it is read right with 0.91."""
    if not reader_has(reader, "tesseract-hebrew"):
        pytest.skip("tesseract-hebrew: Tesseract data not installed (tools/system_deps.sh)")
    outcome = reader.read(page_image("hebrew"))
    assert outcome.scripts == ("Hebrew",)
    assert "מגיעים" in text_of(outcome), text_of(outcome)


@pytest.mark.model
def test_a_degraded_turkish_page_keeps_its_dotless_i(reader):
    """PP-OCR read this 300 dpi scan with "ortasinda", "alir" and "yl"; its lines that show
    Turkish letters are read with Tesseract's Turkish data."""
    if not reader_has(reader, "tesseract-turkish"):
        pytest.skip("tesseract-turkish: Tesseract data not installed (tools/system_deps.sh)")
    image, text = set_page("turkish", 300)
    outcome = reader.read(image)
    assert "Turkish" in outcome.scripts
    read = text_of(outcome).replace("\n", " ")
    assert "ortasında yer alır" in read and "Her yıl" in read, read
    assert similarity(read, text) >= 0.99, read


@pytest.mark.model
def test_a_space_tesseract_missed_on_a_degraded_russian_page_is_put_back(reader):
    """Tesseract's Cyrillic data read "и в" on this 200 dpi scan as "ив" with 0.92."""
    image, text = set_page("russian", 200)
    outcome = reader.read(image)
    assert outcome.scripts == ("Cyrillic",)
    assert "Москве, и в нём" in text_of(outcome), text_of(outcome)


@pytest.mark.model
@pytest.mark.parametrize("draw", [1, 2])
def test_a_last_word_read_as_look_alike_letters_is_read_in_the_pages_script(reader, draw):
    """On these 300 dpi scans PP-OCR read the mixed page's last Russian word "карт." as "aT."
    at 0.67 and as "κap." at 0.69 (then taken for inline math): not doubted, but unsure on a
    page found in Cyrillic, so read in Cyrillic too, where Tesseract is surer."""
    image, text = set_page("english_russian", 300, draw=draw)
    outcome = reader.read(image)
    assert outcome.scripts == ("Cyrillic",)
    read = text_of(outcome).replace("\n", " ")
    assert "старинных карт." in read, read
    assert similarity(read, text) >= 0.98, read


@pytest.mark.model
def test_a_word_alone_on_a_russian_line_is_read_in_cyrillic(reader):
    """A line of one short word is too short to judge alone: on a page read in Cyrillic it
    is judged, and PP-OCR's "." for it read again."""
    outcome = reader.read(page_image("russian", RUSSIAN + ("Ёжик.", "Щи.")))
    assert outcome.scripts == ("Cyrillic",)
    assert text_of(outcome).splitlines()[-2:] == ["Ёжик.", "Щи."], text_of(outcome)


@pytest.mark.model
def test_a_script_whose_data_is_removed_is_named_with_its_install_and_exits_3(
        tmp_path, settings, monkeypatch, capsys, reader):
    """The store's Cyrillic entry points at an empty folder and an unreachable address: the
    page is partial, says which script and how to install it, and the CLI exits with 3."""
    import cv2

    from engine.cli.main import EXIT_PARTIAL, main as cli_main
    from engine.models import store as store_module
    from engine.models.manifest import SourceSpec, load_manifest

    real = Path(settings.model.base_dir)
    models = tmp_path / "models"
    models.mkdir()
    for item in real.iterdir():
        if item.is_file() and not item.name.startswith("Cyrillic"):
            (models / item.name).symlink_to(item)
    empty = tmp_path / "no-tessdata"
    empty.mkdir()
    specs = load_manifest()
    specs["tesseract-cyrillic"] = replace(specs["tesseract-cyrillic"], sources=(
        SourceSpec("file", path=str(empty)), SourceSpec("url", url="http://127.0.0.1:9/c")))
    monkeypatch.setattr(store_module, "load_manifest", lambda path=None: dict(specs))
    monkeypatch.setenv("PAPERLENS_CONFIG", str(tmp_path / "settings.json"))
    monkeypatch.setenv("PAPERLENS_MODEL_DIR", str(models))
    scan = tmp_path / "russian.png"
    cv2.imwrite(str(scan), page_image("russian", RUSSIAN)[:, :, ::-1])
    out = tmp_path / "out"

    code = cli_main(["convert", str(scan), "-o", str(out), "--layout", "none"])

    err = capsys.readouterr().err
    assert code == EXIT_PARTIAL, err
    page = json.loads((out / "russian.json").read_text(encoding="utf-8"))["pages"][0]
    assert page["status"] == "partial"
    [error] = page["errors"]
    assert error["kind"] == "ScriptUnavailable"
    assert "Cyrillic" in error["message"]
    assert "apt-get install tesseract-ocr-script-cyrl" in error["message"]
    assert "Cyrillic" in err
    shutil.rmtree(models)


# ---------------------------------------------------------------- right to left, text layers

ARABIC_PARAGRAPHS = ("القاهرة هي عاصمة مصر وأكبر مدنها، وتقع على ضفاف نهر النيل.",
                     "تشتهر المدينة بمساجدها القديمة وأسواقها ومتاحفها الكثيرة.")


def arabic_pdf(columns: int = 1) -> bytes:
    from tools.scripts.pages import FontMissing, page_pdf
    from tools.scripts.texts import SAMPLES

    sample = replace(next(s for s in SAMPLES if s.key == "arabic"), paragraphs=ARABIC_PARAGRAPHS)
    try:
        return page_pdf(sample, columns=columns)
    except FontMissing as missing:
        pytest.skip(str(missing))


def test_an_arabic_text_layer_is_read_as_letters_not_presentation_forms():
    import pymupdf

    from engine.input.text_layer import extract_lines

    with pymupdf.open(stream=arabic_pdf()) as document:
        raw = document[0].get_text()
        lines = extract_lines(document[0], 1.0)
    # The PDF maps its shaped glyphs to presentation forms (U+FE70-U+FEFF) ...
    assert any(0xFE70 <= ord(c) <= 0xFEFF for c in raw)
    text = " ".join(line.text for line in lines)
    # ... which are read as the letters typed, in logical order.
    assert not any(0xFB50 <= ord(c) <= 0xFEFF for c in text)
    assert similarity(text, " ".join(ARABIC_PARAGRAPHS)) >= 0.98, text


def test_a_page_mostly_in_arabic_letters_is_right_to_left():
    from engine.text import right_to_left

    assert right_to_left(list(ARABIC_PARAGRAPHS) + ["Page 12 of 2020"])
    assert not right_to_left(["The museum opened in 2020.", "القاهرة"])


@pytest.mark.model
def test_a_two_column_arabic_page_reads_its_right_column_first(engine, tmp_path):
    from engine.options import ConvertOptions

    scan = tmp_path / "arabic.pdf"
    scan.write_bytes(arabic_pdf(columns=2))
    markdown = engine.convert(scan, ConvertOptions(method="ocr")).markdown
    first, second = (markdown.find(p.split()[0]) for p in ARABIC_PARAGRAPHS)
    # The first paragraph stands in the right column, the second in the left one.
    assert 0 <= first < second, markdown
    assert similarity(" ".join(markdown.split()), " ".join(" ".join(ARABIC_PARAGRAPHS).split())
                      ) >= 0.9, markdown


@pytest.mark.parametrize("key, script", [("hindi", "Devanagari"), ("thai", "Thai")])
def test_an_indic_or_thai_layer_with_stray_glyphs_is_garbled(key, script):
    import pymupdf

    from engine.input.text_layer import assess_text_layer, unmapped_clusters
    from tools.scripts.pages import FontMissing, page_pdf
    from tools.scripts.texts import SAMPLES

    sample = next(s for s in SAMPLES if s.key == key)
    try:
        pdf = page_pdf(sample)
    except FontMissing as missing:
        pytest.skip(str(missing))
    with pymupdf.open(stream=pdf) as document:
        verdict = assess_text_layer(document[0])
    assert not verdict.usable and script in verdict.reason
    # The text itself, as typed, is no garbage.
    assert unmapped_clusters(" ".join(sample.paragraphs)) is None


@pytest.mark.model
def test_languages_named_read_every_line_with_them(reader):
    if "rus" not in reader.scripts.tesseract.installed_languages():
        pytest.skip("Tesseract's rus data not installed")
    outcome = reader.read(page_image("russian", RUSSIAN), ("rus",))
    assert outcome.scripts == ("rus",)
    assert similarity(text_of(outcome), "\n".join(RUSSIAN)) >= 0.95, text_of(outcome)
    missing = reader.read(page_image("russian", RUSSIAN), ("xxx",))
    [unreadable] = missing.unreadable
    assert "xxx" in unreadable.message() and "tesseract-ocr-xxx" in unreadable.message()


def test_a_short_word_boxed_with_paper_around_it_is_not_sent_to_another_script():
    """A justified row's spread word, or a part cut at a gutter, comes boxed with paper around
    it: "in" read at 1.0 in a box 3.7 heights wide looked too short for its line, and
    Tesseract's Cyrillic data read it "іп" (a scanned English broadsheet). Its letters fill the
    ink they have; a line whose ink runs its whole width, read as a few marks, is still doubted."""
    from engine.ocr.recognition import Recognized
    from engine.ocr.script_reading import ScriptReader, inked_width

    from engine.runtime.steps import StepClock

    class Refuses:
        steps = StepClock()

        def read(self, crops, model_id):
            raise AssertionError(f"no line should be read again ({model_id})")

        def detect_script(self, image, model_id):
            raise AssertionError("no line should go to the script detection")

    word = np.full((20, 74, 3), 255, dtype=np.uint8)
    word[4:16, 27:36] = word[4:16, 38:47] = 0  # two letters, 20 px of the box's 74
    assert inked_width(word) == 20  # the gap between the letters counts
    speck = word.copy()
    speck[9:11, 2:4] = 0  # a speck far to the left adds its own width only
    assert inked_width(speck) == 22
    assert inked_width(np.full((20, 74, 3), 255, dtype=np.uint8)) == 74  # no ink: the box
    read = [Recognized("in", 1.0)]
    found = ScriptReader(Refuses()).read_again([word], read, MIN_SCORE)
    assert found.readings == read and found.scripts == ()
    full = np.full((20, 300, 3), 255, dtype=np.uint8)
    full[4:16, 5:295] = 0
    full[4:16, 100:104] = 255  # a word space
    assert doubted(".", 0.97, inked_width(full), 20, MIN_SCORE)
