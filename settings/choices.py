"""The closed choices a setting may take (settings/schema.py validates each key against them)."""

from __future__ import annotations

from enum import StrEnum


class Device(StrEnum):
    CPU = "cpu"
    GPU = "gpu"
    AUTO = "auto"


class LayoutModel(StrEnum):
    DOCLAYNET = "doclaynet"
    CDLA = "cdla"
    NONE = "none"  # paragraphs by geometry only, as the CLI's --layout none


class TableFormat(StrEnum):
    HTML = "html"
    MARKDOWN = "markdown"


class TablesAcrossPages(StrEnum):
    JOIN = "join"  # a table going on at the head of the next page is one table
    KEEP = "keep"  # one table per page


class Language(StrEnum):
    EN = "en"
    ZH_CN = "zh_CN"
    SYSTEM = "system"


def language_codes(value: object) -> tuple[str, ...] | None:
    """The model.languages value 'rus+eng' (or ["rus", "eng"]) as ("rus", "eng"), the way
    Tesseract's -l and the CLI's --lang take them; null or '' -> (), each line's script found by
    itself; None when it is not language codes."""
    if value is None:
        return ()
    if isinstance(value, (list, tuple)) and all(isinstance(code, str) for code in value):
        value = "+".join(value)
    if not isinstance(value, str):
        return None
    codes = tuple(code.strip() for code in value.split("+") if code.strip())
    if all(code.replace("_", "").isalnum() and code.isascii() for code in codes):
        return codes
    return None
