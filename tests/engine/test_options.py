"""engine.options: page ranges, methods and option validation at the boundary."""

from __future__ import annotations

import time

import pytest

from engine.errors import InvalidOptions
from engine.options import ConvertOptions, TextMethod, parse_method, parse_page_ranges


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


def test_tables_across_pages_are_a_closed_choice():
    from engine.options import TablesAcrossPages

    assert ConvertOptions().tables_across_pages is TablesAcrossPages.JOIN
    assert ConvertOptions(tables_across_pages="keep").tables_across_pages is TablesAcrossPages.KEEP
    with pytest.raises(InvalidOptions, match="use join or keep"):
        ConvertOptions(tables_across_pages="split")
