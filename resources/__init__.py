"""Data shipped with the app (model manifest, calibration images, icons), read through one helper."""

from __future__ import annotations

from importlib import resources as _resources
from pathlib import Path


def resource_path(name: str) -> Path:
    """Absolute path of a file shipped under resources/ (works from a checkout and an install)."""
    return Path(str(_resources.files(__name__).joinpath(name)))
