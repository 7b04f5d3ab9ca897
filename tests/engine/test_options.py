"""engine.options: page ranges, methods and option validation at the boundary."""

from __future__ import annotations

import time

import pytest

from engine.errors import InvalidOptions
from engine.options import (ConvertOptions, TextMethod, options_from_settings, parse_method,
                            parse_page_ranges)


@pytest.mark.parametrize("spec, pages", [
    ("1-3,7", (1, 2, 3, 7)),
    ("7,1-3,2", (7, 1, 2, 3)),
    (" 2 , 4-5 ", (2, 4, 5)),
    ("5", (5,)),
    ("3-3", (3,)),
    ("1,,2,", (1, 2)),
])
def test_parse_page_ranges_valid(spec, pages):
    assert parse_page_ranges(spec) == pages


@pytest.mark.parametrize("spec", ["", ",", "0", "3-1", "a", "1-", "-2", "1-3-5", "2.5", "0-4"])
def test_parse_page_ranges_invalid(spec):
    with pytest.raises(InvalidOptions) as caught:
        parse_page_ranges(spec)
    assert "\n" not in str(caught.value)


def test_parse_page_ranges_wide_range_is_fast():
    started = time.perf_counter()
    pages = parse_page_ranges("1-20000")
    assert len(pages) == 20000
    assert time.perf_counter() - started < 0.2  # linear work takes milliseconds


def test_parse_method():
    assert parse_method("ocr") is TextMethod.OCR
    with pytest.raises(InvalidOptions, match="auto, txt or ocr"):
        parse_method("guess")


def test_convert_options_validate_once():
    assert ConvertOptions(method="txt").method is TextMethod.TXT
    with pytest.raises(InvalidOptions, match="DPI"):
        ConvertOptions(dpi=20)
    with pytest.raises(InvalidOptions):
        ConvertOptions(max_side_px=100)
    with pytest.raises(InvalidOptions):
        ConvertOptions(method="guess")


def test_options_from_settings_take_the_reading_switches_of_the_settings(tmp_path):
    from settings import SettingsStore
    from tests.conftest import isolated_environ

    store = SettingsStore(path=tmp_path / "settings.json", environ=isolated_environ())
    defaults = options_from_settings(store.load())
    assert (defaults.keep_furniture, defaults.inline_math, defaults.table_format,
            defaults.layout_model) == (False, True, "html", "yolov8n-doclaynet")
    for key, value in (("output.keep_furniture", True), ("output.inline_math", False),
                       ("output.table_format", "markdown"), ("model.layout", "none")):
        store.set(key, value)
    chosen = options_from_settings(store.load())
    assert (chosen.keep_furniture, chosen.inline_math, chosen.table_format,
            chosen.layout_model) == (True, False, "markdown", None)
    # What a front end passes wins over the settings.
    assert options_from_settings(store.load(), keep_furniture=False).keep_furniture is False


def test_cli_reading_flags_default_to_the_settings():
    from engine.cli.main import build_parser

    parse = build_parser().parse_args
    plain = parse(["convert", "a.pdf", "-o", "out"])
    assert (plain.keep_furniture, plain.inline_math) == (None, None)  # the settings decide
    given = parse(["convert", "a.pdf", "-o", "out", "--no-keep-furniture", "--inline-math", "on"])
    assert (given.keep_furniture, given.inline_math) == (False, "on")
    assert parse(["convert", "a.pdf", "-o", "out", "--keep-furniture"]).keep_furniture is True


def test_tables_across_pages_are_a_closed_choice():
    from engine.options import TablesAcrossPages

    assert ConvertOptions().tables_across_pages is TablesAcrossPages.JOIN
    assert ConvertOptions(tables_across_pages="keep").tables_across_pages is TablesAcrossPages.KEEP
    with pytest.raises(InvalidOptions, match="use join or keep"):
        ConvertOptions(tables_across_pages="split")


def test_pinned_languages_come_from_the_settings_and_lang_wins(tmp_path):
    """model.languages (the window's Recognition languages) pins the OCR languages as the CLI's
    --lang does; --lang given on the command line wins over it."""
    from settings import SettingsStore
    from tests.conftest import isolated_environ

    store = SettingsStore(path=tmp_path / "settings.json", environ=isolated_environ())
    assert options_from_settings(store.load()).languages == ()  # scripts found line by line
    store.set("model.languages", "rus+eng")
    assert options_from_settings(store.load()).languages == ("rus", "eng")
    assert options_from_settings(store.load(), languages=("ell",)).languages == ("ell",)
