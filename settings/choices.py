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
