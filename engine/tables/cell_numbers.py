"""A table cell's text as a number when it is one: thousand separators, decimal commas,
percentages, currency signs and accounting negatives, with the number format that shows it
as the document did."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable

# Spreadsheets keep 15 significant digits; a longer run of digits is an identifier, not a number.
MAX_DIGITS = 15
_CURRENCY = "$€£¥"
_GROUP_SPACES = "\u00a0\u2009\u202f '"
_MINUS = "-\u2212\u2013"
_SIGNS = re.escape("+" + _MINUS)
_SPACES = re.escape(_GROUP_SPACES)
_NUMBER = re.compile(
    r"^(?P<open>\()?(?P<sign>[" + _SIGNS + r"])?(?P<currency>[" + re.escape(_CURRENCY) + r"])?"
    r"(?P<body>\d[\d.," + _SPACES + r"]*)(?P<percent>%)?(?P<close>\))?$")
# A comma that must be a decimal comma: "3,14", "1.234,5" (never three digits after it alone).
_DECIMAL_COMMA = re.compile(r"^[" + _SIGNS + r"]?\d{1,3}(?:[." + _SPACES + r"]\d{3})*,"
                            r"(?:\d{1,2}|\d{4,})%?$|^\d{1,3}(?:\.\d{3})+,\d+%?$")


@dataclass(frozen=True)
class CellNumber:
    value: int | float
    number_format: str
    """An Excel number format that shows the value as the cell's text did (its decimals, its
    thousand separators, a percent sign, a currency sign)."""


def uses_decimal_comma(texts: Iterable[str]) -> bool:
    """Whether a table writes decimals with a comma: some cell can only be read that way."""
    return any(_DECIMAL_COMMA.match(text.strip()) for text in texts)


def parse_number(text: str, decimal_comma: bool = False) -> CellNumber | None:
    """The number a cell's text spells, or None when it is text (words, units, codes with
    leading zeros, dates, ranges)."""
    match = _NUMBER.match(text.strip())
    if not match or bool(match.group("open")) != bool(match.group("close")):
        return None
    body = match.group("body")
    decimal, group = (",", ".") if decimal_comma else (".", ",")
    integer, _, fraction = body.partition(decimal)
    if decimal in fraction or group in fraction or any(ch in fraction for ch in _GROUP_SPACES):
        return None
    groups = re.split("[" + re.escape(group + _GROUP_SPACES) + "]", integer)
    grouped = len(groups) > 1
    if grouped and (not 1 <= len(groups[0]) <= 3 or any(len(g) != 3 for g in groups[1:])):
        return None
    digits = "".join(groups)
    if not digits.isdigit() or (len(digits) > 1 and digits[0] == "0" and not grouped):
        return None  # "007", "0123": codes keep their zeros
    if len(digits) + len(fraction) > MAX_DIGITS or (fraction and not fraction.isdigit()):
        return None
    negative = match.group("sign") in tuple(_MINUS) or bool(match.group("open"))
    percent = bool(match.group("percent"))
    value: int | float = float(f"{digits}.{fraction}") if fraction else int(digits)
    if percent:
        value = round(value / 100, len(fraction) + 2)
    if negative:
        value = -value
    return CellNumber(value, _number_format(len(fraction), grouped, percent,
                                            match.group("currency"), bool(match.group("open"))))


def _number_format(decimals: int, grouped: bool, percent: bool, currency: str | None,
                   parenthesised: bool) -> str:
    base = ("#,##0" if grouped else "0") + ("." + "0" * decimals if decimals else "")
    if percent:
        base += "%"
    if currency:
        base = f'"{currency}"{base}'
    return f"{base};({base})" if parenthesised else base
