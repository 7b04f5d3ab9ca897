"""Typed settings errors, each carrying one line fit for a dialog or a terminal."""

from __future__ import annotations

import json


class SettingsError(Exception):
    """Base of every error the settings package raises; `str(error)` is one line."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class InvalidSetting(SettingsError, ValueError):
    """A value is not allowed for its key; the message names the key and the allowed values."""

    def __init__(self, key: str, value: object, allowed: str, source: str | None = None) -> None:
        message = f"Invalid value for {key}: {describe_value(value)} (allowed: {allowed})"
        if source:
            message += f" {source}"
        super().__init__(message)
        self.key = key
        self.value = value
        self.allowed = allowed
        self.source = source


class UnknownSetting(SettingsError, KeyError):
    """The key is not part of the settings schema."""

    def __init__(self, key: str, known: list[str]) -> None:
        super().__init__(f"Unknown setting {key!r} (known: {', '.join(known)})")
        self.key = key

    # KeyError's own __str__ would wrap the message in quotes.
    __str__ = SettingsError.__str__


def describe_value(value: object, limit: int = 60) -> str:
    """Show a raw value the way it appears in JSON, shortened to stay on one line."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    text = text.replace("\n", " ")
    return text if len(text) <= limit else text[: limit - 3] + "..."
