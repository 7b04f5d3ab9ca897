"""Make the sample builders in this folder importable from the engine tests; shared fixtures."""

from __future__ import annotations

import sys
from pathlib import Path

HERE = str(Path(__file__).resolve().parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)


import pytest  # noqa: E402


@pytest.fixture
def out_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "out"
    folder.mkdir()
    return folder


@pytest.fixture
def cheap_engine(settings):
    """An engine for inputs that fail before any model is needed (no session is ever made)."""
    from engine.api import Engine

    return Engine(settings)
