"""A picture written beside the Markdown as typed content: a figure, a table that could not be
read, a formula without LaTeX or read doubtfully, a picture of an Office document."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Crop:
    path: str
    """The picture's file, relative to the .md file (`images/<name>-<kind><n>.png`)."""
