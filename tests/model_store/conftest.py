"""Fixtures for the model store tests: the fake index, and no ambient index configuration."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
# The suite may run from a checkout that is not installed.
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

from model_store_fakes import start_fake_index  # noqa: E402  (needs the path above)


@pytest.fixture
def fake_index():
    index, server = start_fake_index()
    try:
        yield index
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(autouse=True)
def _no_ambient_index(request, monkeypatch):
    # A developer's PIP_INDEX_URL must never steer the offline tests to a real index; the one
    # test that does use the network honours it, as pip would.
    if request.node.get_closest_marker("network") is None:
        monkeypatch.delenv("PIP_INDEX_URL", raising=False)
