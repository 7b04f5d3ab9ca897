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


@pytest.fixture(scope="session")
def dev_scans_converted(engine, tmp_path_factory):
    """The dev set's scans converted once on a quiet machine, for every test that reads them
    (the searchable PDF tests, and the determinism test as its first pass): (folder, [(source,
    result, searchable PDF)])."""
    from dev_scans import convert_dev_scans, dev_scan_paths
    from tests.conftest import EVAL_DEV_DIR

    if not EVAL_DEV_DIR.is_dir():
        pytest.skip(f"evaluation documents not found at {EVAL_DEV_DIR}")
    folder = tmp_path_factory.mktemp("dev-scans")
    return folder, convert_dev_scans(engine, dev_scan_paths(EVAL_DEV_DIR), folder)
